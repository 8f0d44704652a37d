import { EmulatorError } from "../hosted-file/fm-error.js";
import { describeInput } from "../hosted-file/input/input-text.js";
import type { RequestContext } from "./routes.js";
import type { LayoutModel } from "../hosted-file/model.js";
import { allPortals, type PortalRange } from "../hosted-file/layout-view/portal-range.js";
import { portalSelectionFromBody, portalSelectionFromQuery } from "./portal-selection.js";

/**
 * The shape a page of records is answered in: the layout whose fields and portals it shows (the request's
 * layout, or the one `layout.response` names, docs/emulator.md, "4. `layout.response`") and the portals and rows chosen
 * (section 3).
 */
export interface RecordShape {
  layout: LayoutModel;
  portals: readonly PortalRange[];
}

const defaultShapes = new WeakMap<LayoutModel, RecordShape>();

/** The request layout with every portal and the default ranges: a call without shape parameters. */
export function defaultShape(layout: LayoutModel): RecordShape {
  let shape = defaultShapes.get(layout);
  if (!shape) defaultShapes.set(layout, (shape = { layout, portals: allPortals(layout) }));
  return shape;
}

/** List and get: `layout.response`, `portal`, `_offset.<portal>`, `_limit.<portal>` in the query string. */
export function shapeFromQuery(ctx: RequestContext): RecordShape {
  const layout = responseLayout(ctx, ctx.query.get("layout.response") ?? undefined);
  if (layout === ctx.layout && !hasPortalParameters(ctx.query)) return defaultShape(layout);
  return { layout, portals: portalSelectionFromQuery(layout, ctx.query) };
}

/** Find: `layout.response`, `portal`, `offset.<portal>`, `limit.<portal>` in the body (ranges also `?_limit.<portal>`). */
export function shapeFromFindBody(ctx: RequestContext, body: Record<string, unknown>): RecordShape {
  const layout = responseLayout(ctx, body["layout.response"]);
  return { layout, portals: portalSelectionFromBody(layout, body, ctx.query) };
}

function hasPortalParameters(query: URLSearchParams): boolean {
  for (const name of query.keys()) if (name === "portal" || name.startsWith("_offset.") || name.startsWith("_limit.")) return true;
  return false;
}

/**
 * The layout `layout.response` names: records are found through the request layout and answered in this one's
 * shape. An unknown layout is 105; a layout of another table is 1708 (its records are not the ones found).
 */
function responseLayout(ctx: RequestContext, raw: unknown): LayoutModel {
  if (raw === undefined) return ctx.layout;
  if (typeof raw !== "string") throw new EmulatorError(400, "1708", `layout.response must be a layout name, got ${describeInput(raw)}`);
  const layout = ctx.db.model.layouts.get(raw);
  if (!layout) throw new EmulatorError(404, "105", `layout.response: no layout named ${describeInput(raw)} in "${ctx.db.model.name}"`);
  if (layout.table !== ctx.layout.table) {
    throw new EmulatorError(
      400,
      "1708",
      `layout.response: layout ${describeInput(raw)} shows table "${layout.table.name}", not "${ctx.layout.table.name}" of layout "${ctx.layout.description.layout}"`,
    );
  }
  return layout;
}
