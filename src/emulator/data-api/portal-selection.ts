import { EmulatorError } from "../hosted-file/fm-error.js";
import { describeInput } from "../hosted-file/input/input-text.js";
import { unknownParameters } from "../hosted-file/input/unknown-parameters.js";
import { jsonParam, positiveInteger } from "./wire/params.js";
import type { LayoutModel, PortalModel } from "../hosted-file/model.js";
import { findByName } from "../hosted-file/name-map.js";
import { allPortals, DEFAULT_PORTAL_LIMIT, type PortalRange } from "../hosted-file/layout-view/portal-range.js";

/**
 * Which portals a list, get or find answers with, and which rows of each (docs/emulator.md, "3. Portals"):
 * `portal` selects portals by the name `portalData` keys them by; `_offset.<portal>` / `_limit.<portal>` in a
 * GET's query string and `offset.<portal>` / `limit.<portal>` in a find body range one portal's rows.
 * Without `portal`, every portal of the layout comes back; each returns at most 50 rows unless a limit says
 * otherwise; offsets are one-based.
 */

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

/** One portal range parameter as sent: `_limit.Invoices=10` is { key, kind: "limit", name: "Invoices", raw: "10" }. */
interface RangeParameter {
  key: string;
  kind: string;
  name: string;
  raw: unknown;
}

/** The range parameters of a query string (`_offset.<portal>`, `_limit.<portal>`; each once: checkQueryNames). */
function queryRanges(query: URLSearchParams): RangeParameter[] {
  const ranges: RangeParameter[] = [];
  for (const [key, value] of query) {
    const m = QUERY_RANGE.exec(key);
    if (m) ranges.push({ key, kind: m[1]!, name: m[2]!, raw: value });
  }
  return ranges;
}

/** The portals of `layout` (the layout the answer is shaped by) that a list or get query string asks for. */
export function portalSelectionFromQuery(layout: LayoutModel, query: URLSearchParams): readonly PortalRange[] {
  const selected = jsonParam(query.get("portal"), "portal");
  const ranges = queryRanges(query);
  if (selected === undefined && ranges.length === 0) return allPortals(layout);
  return selection(layout, selected, ranges);
}

/**
 * The portals of `layout` that a find asks for: `portal`, `offset.<portal>` and `limit.<portal>` in its body. The
 * GET spelling on the find's query string (`?_offset.<portal>=`, as @proofkit/fmdapi sends a find's portal ranges)
 * is taken too (*choice*); one range given both ways is 1708.
 */
export function portalSelectionFromBody(layout: LayoutModel, body: Record<string, unknown>, query?: URLSearchParams): readonly PortalRange[] {
  const ranges: RangeParameter[] = [];
  for (const key of Object.keys(body)) {
    const m = BODY_RANGE.exec(key);
    if (m) ranges.push({ key, kind: m[1]!, name: m[2]!, raw: body[key] });
  }
  if (query) ranges.push(...queryRanges(query));
  if (body.portal === undefined && ranges.length === 0) return allPortals(layout);
  return selection(layout, body.portal, ranges);
}

function selection(layout: LayoutModel, selected: unknown, ranges: readonly RangeParameter[]): readonly PortalRange[] {
  const chosen = selected === undefined ? new Set(layout.portals) : portalsNamed(layout, selected);
  const byPortal = new Map<PortalModel, PortalRange>();
  for (const portal of layout.portals) if (chosen.has(portal)) byPortal.set(portal, { portal, offset: 1, limit: DEFAULT_PORTAL_LIMIT });
  const given = new Map<string, string>();
  for (const { key, kind, name, raw } of ranges) {
    const portal = portalNamed(layout, name);
    // A portal's name that the layout does not have is an unknown parameter, as any other unknown name is.
    if (!portal) throw unknownParameters([key]);
    const value = positiveInteger(raw, key, 1);
    // By the portal, not the spelling: `_limit.Planets` and `_limit.planets` range one portal.
    const earlier = given.get(`${kind}\u0000${portal.name}`);
    if (earlier !== undefined) throw new EmulatorError(400, "1708", `${earlier} and ${key} both give portal "${portal.name}"'s ${kind}; give it once`);
    given.set(`${kind}\u0000${portal.name}`, key);
    const range = byPortal.get(portal);
    // A range of a portal that `portal` leaves out names a real portal; it ranges rows that are not answered.
    if (!range) continue;
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

/**
 * A portal by the name `portalData` keys it by (its object name), matched as FileMaker matches names (case aside:
 * `planets` is the portal `Planets`, and the answer keys it `Planets`).
 */
function portalNamed(layout: LayoutModel, name: string): PortalModel | undefined {
  return findByName(layout.portals, name, (p) => p.name);
}
