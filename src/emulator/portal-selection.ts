import { EmulatorError } from "./fm-error.js";
import { describeInput } from "./http/input-text.js";
import { unknownParameters } from "./http/known-params.js";
import { jsonParam, positiveInteger } from "./http/params.js";
import type { LayoutModel, PortalModel } from "./model.js";

/**
 * Which portals a list, get or find answers with, and which rows of each (data-api-server.md section 3):
 * `portal` selects portals by the name `portalData` keys them by; `_offset.<portal>` / `_limit.<portal>` in a
 * GET's query string and `offset.<portal>` / `limit.<portal>` in a find body range one portal's rows.
 * Without `portal`, every portal of the layout comes back; each returns at most 50 rows unless a limit says
 * otherwise; offsets are one-based.
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

/** GET query names of a portal's range (`_offset.Invoices`); the find body drops the underscore. */
const QUERY_RANGE = /^_(offset|limit)\.(.+)$/s;
const BODY_RANGE = /^(offset|limit)\.(.+)$/s;

/** Whether a query parameter name is a portal range (its portal is checked when the selection is read). */
export function isPortalRangeQueryName(name: string): boolean {
  return QUERY_RANGE.test(name);
}

/** Whether a find body key is a portal range (`limit.Invoices`; `_limit.Invoices` is not one: 960). */
export function isPortalRangeBodyName(name: string): boolean {
  return BODY_RANGE.test(name);
}

const everyPortal = new WeakMap<LayoutModel, readonly PortalRange[]>();

/** Every portal of the layout with the default range: what a call without portal parameters answers. */
export function allPortals(layout: LayoutModel): readonly PortalRange[] {
  let ranges = everyPortal.get(layout);
  if (!ranges) everyPortal.set(layout, (ranges = layout.portals.map((portal) => ({ portal, offset: 1, limit: DEFAULT_PORTAL_LIMIT }))));
  return ranges;
}

/** The portals of `layout` (the layout the answer is shaped by) that a list or get query string asks for. */
export function portalSelectionFromQuery(layout: LayoutModel, query: URLSearchParams): readonly PortalRange[] {
  let selected: unknown;
  const ranges: [string, unknown][] = [];
  for (const name of new Set(query.keys())) {
    const isSelection = name === "portal";
    if (!isSelection && !QUERY_RANGE.test(name)) continue;
    const values = query.getAll(name);
    if (values.length > 1) throw new EmulatorError(400, "1708", `${name} is given ${values.length} times; give it once`);
    if (isSelection) selected = jsonParam(values[0]!, "portal");
    else ranges.push([name, values[0]]);
  }
  if (selected === undefined && ranges.length === 0) return allPortals(layout);
  return selection(layout, selected, ranges, QUERY_RANGE);
}

/** The portals of `layout` that a find body asks for (`portal`, `offset.<portal>`, `limit.<portal>`). */
export function portalSelectionFromBody(layout: LayoutModel, body: Record<string, unknown>): readonly PortalRange[] {
  const ranges: [string, unknown][] = [];
  for (const key of Object.keys(body)) if (BODY_RANGE.test(key)) ranges.push([key, body[key]]);
  if (body.portal === undefined && ranges.length === 0) return allPortals(layout);
  return selection(layout, body.portal, ranges, BODY_RANGE);
}

function selection(layout: LayoutModel, selected: unknown, ranges: readonly [string, unknown][], pattern: RegExp): readonly PortalRange[] {
  const chosen = selected === undefined ? new Set(layout.portals) : portalsNamed(layout, selected);
  const byPortal = new Map<PortalModel, PortalRange>();
  for (const portal of layout.portals) if (chosen.has(portal)) byPortal.set(portal, { portal, offset: 1, limit: DEFAULT_PORTAL_LIMIT });
  for (const [key, raw] of ranges) {
    const [, kind, name] = pattern.exec(key)!;
    const portal = portalNamed(layout, name!);
    // A portal's name that the layout does not have is an unknown parameter, as any other unknown name is.
    if (!portal) throw unknownParameters([key]);
    const range = byPortal.get(portal);
    // A range of a portal that `portal` leaves out names a real portal; it ranges rows that are not answered.
    if (!range) continue;
    const value = positiveInteger(raw, key, 1);
    if (kind === "offset") range.offset = value;
    else range.limit = value;
  }
  return [...byPortal.values()];
}

/** `portal`: a JSON array of portal names, each a portal of the layout (960 naming it otherwise). */
function portalsNamed(layout: LayoutModel, raw: unknown): Set<PortalModel> {
  if (!Array.isArray(raw)) throw new EmulatorError(400, "1708", `portal must be an array of portal names, got ${describeInput(raw)}`);
  const chosen = new Set<PortalModel>();
  raw.forEach((name: unknown, i) => {
    if (typeof name !== "string") throw new EmulatorError(400, "1708", `portal[${i}] must be a portal name, got ${describeInput(name)}`);
    const portal = portalNamed(layout, name);
    if (!portal) throw unknownParameters([`portal ${describeInput(name)}`]);
    chosen.add(portal);
  });
  return chosen;
}

/** A portal by the name `portalData` keys it by (its object name). */
function portalNamed(layout: LayoutModel, name: string): PortalModel | undefined {
  return layout.portals.find((p) => p.name === name);
}
