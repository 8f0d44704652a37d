import type { LayoutModel, PortalModel } from "../model.js";

/**
 * Which rows of a portal a record view shows (record-view.ts): a one-based offset and a limit. Every portal with
 * the default range unless a call selects otherwise (the Data API's `portal`, `_offset.<portal>`,
 * `_limit.<portal>`: docs/emulator.md, "3. Portals").
 */

/** Rows a portal returns when no limit says otherwise. */
export const DEFAULT_PORTAL_LIMIT = 50;

export interface PortalRange {
  portal: PortalModel;
  /** One-based index of the first row returned. */
  offset: number;
  /** Most rows returned. */
  limit: number;
}

const everyPortal = new WeakMap<LayoutModel, readonly PortalRange[]>();

/** Every portal of the layout with the default range: what a call without portal parameters answers. */
export function allPortals(layout: LayoutModel): readonly PortalRange[] {
  let ranges = everyPortal.get(layout);
  if (!ranges) everyPortal.set(layout, (ranges = layout.portals.map((portal) => ({ portal, offset: 1, limit: DEFAULT_PORTAL_LIMIT }))));
  return ranges;
}
