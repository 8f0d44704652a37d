// The inverse of url-path.ts and query-options.ts: canonical URL text for a key, a path and query options, encoded as
// section 2.8 says servers accept (`%20` for space, `$ : , ( ) '` literal, names double-quoted). The emulator uses
// formatKey for `@id`, `@editLink` and `Location`; the tests parse what these write.

import type { EntityKey, KeyLiteral, ODataPath, SetRef } from "./url-path.js";
import type { ExpandItem, ExpandOptions, NamePath, OrderByItem, QueryOptions } from "./query-options.js";

/** encodeURIComponent, then the characters 2.8 wants literal put back. */
export function encodeODataText(text: string): string {
  return encodeURIComponent(text).replace(/%(2C|3A|24|3B|3D|2F|40|28|29|27|22)/g, (e) => decodeURIComponent(e));
}

function literal(v: KeyLiteral): string {
  return v.type === "string" ? `'${v.value.replace(/'/g, "''")}'` : v.text;
}

/** `('a')`, `(42)`, `(ROWID=7)`, `(1,'x')`, not yet percent-encoded. */
export function formatKey(key: EntityKey): string {
  if (key.kind === "rowid") return `(ROWID=${key.rowid})`;
  if (key.kind === "single") return `(${literal(key.value)})`;
  return `(${key.values.map(literal).join(",")})`;
}

function setText(set: SetRef): string {
  return set.by === "id" ? `FMTID:${set.id}` : set.name;
}

/** A path segment, percent-encoded; `/`, `?`, `#` and `%` in it are encoded too. */
function seg(text: string): string {
  return encodeURIComponent(text).replace(/%(3A|24|28|29|27|2C|3D|40)/g, (e) => decodeURIComponent(e));
}

/** The path after `/fmi/odata/v4`, percent-encoded, that parseODataPath reads back as `path`. */
export function formatODataPath(path: ODataPath): string {
  if (path.kind === "serviceRoot") return "";
  const db = `/${seg(path.db)}`;
  const entity = (set: SetRef, key: EntityKey): string => `/${seg(setText(set) + formatKey(key))}`;
  switch (path.kind) {
    case "serviceDocument":
      return db;
    case "metadata":
      return path.table === undefined ? `${db}/$metadata` : `${db}/$metadata%23${seg(path.table)}`;
    case "batch":
      return `${db}/$batch`;
    case "crossjoin":
      return `${db}/$crossjoin(${path.sets.map((s) => seg(setText(s))).join(",")})`;
    case "collection":
      return `${db}/${seg(setText(path.set))}`;
    case "count":
      return `${db}/${seg(setText(path.set))}/$count`;
    case "entity":
      return db + entity(path.set, path.key);
    case "member":
      return `${db}${entity(path.set, path.key)}/${seg(path.member)}`;
    case "value":
      return `${db}${entity(path.set, path.key)}/${seg(path.member)}/$value`;
    case "ref":
      return `${db}${entity(path.set, path.key)}/${seg(path.nav + (path.target === undefined ? "" : formatKey(path.target)))}/$ref`;
    case "script": {
      const name = path.script.by === "id" ? `FMSID:${path.script.id}` : path.script.name;
      const scope = path.set === undefined ? "" : path.key === undefined ? `/${seg(setText(path.set))}` : entity(path.set, path.key);
      return `${db}${scope}/Script.${seg(name)}`;
    }
    case "webhook":
      return `${db}/Webhook.${path.operation}${path.id === undefined ? "" : `(${path.id})`}`;
    case "tables":
      return `${db}/FileMaker_Tables${path.table === undefined ? "" : `/${seg(path.table)}`}${path.field === undefined ? "" : `/${seg(path.field)}`}`;
    case "indexes":
      return `${db}/FileMaker_Indexes/${seg(path.table)}${path.field === undefined ? "" : `/${seg(path.field)}`}`;
  }
}

function name(n: string): string {
  return n === "*" ? "*" : `"${n}"`;
}

function namePath(p: NamePath): string {
  return p.map(name).join("/");
}

function orderby(items: readonly OrderByItem[]): string {
  return items.map((o) => `${namePath(o.path)} ${o.direction}`).join(",");
}

function expand(items: readonly ExpandItem[]): string {
  return items
    .map((e) => {
      const inner = common(e.options).map(([k, v]) => `$${k}=${v}`);
      return inner.length === 0 ? `"${e.nav}"` : `"${e.nav}"(${inner.join(";")})`;
    })
    .join(",");
}

/** The options as `[name, decoded value]`, in a fixed order. */
function common(o: ExpandOptions): [string, string][] {
  const out: [string, string][] = [];
  if (o.select !== undefined) out.push(["select", o.select.map(namePath).join(",")]);
  if (o.expand !== undefined) out.push(["expand", expand(o.expand)]);
  if (o.filter !== undefined) out.push(["filter", o.filter]);
  if (o.orderby !== undefined) out.push(["orderby", orderby(o.orderby)]);
  if (o.top !== undefined) out.push(["top", String(o.top)]);
  if (o.skip !== undefined) out.push(["skip", String(o.skip)]);
  if (o.count !== undefined) out.push(["count", String(o.count)]);
  return out;
}

/** The query string (without `?`) that parseQueryOptions reads back as `q` (its `ignored` list aside). */
export function formatQueryOptions(q: Omit<QueryOptions, "ignored">): string {
  const out = common(q);
  if (q.apply !== undefined) out.push(["apply", q.apply]);
  if (q.format !== undefined) out.push(["format", q.format]);
  if (q.schemaversion !== undefined) out.push(["schemaversion", q.schemaversion]);
  if (q.skiptoken !== undefined) out.push(["skiptoken", `s${q.skiptoken.skip}t${q.skiptoken.t}`]);
  return out.map(([k, v]) => `$${k}=${encodeODataText(v)}`).join("&");
}
