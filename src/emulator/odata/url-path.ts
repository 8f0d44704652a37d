// The path of an OData request after `/fmi/odata/v4` (docs/emulator.md, "Paths (after `/fmi/odata/v4`)"), as a
// discriminated union. Pure: whether a table, field, script or webhook exists is the caller's job; this names them.
// The path is percent-decoded once (2.8's choice), then split at `/` outside quoted keys and parentheses.

import { decodeOnce, syntaxError } from "./odata-error.js";

/** An entity set: a table occurrence by name, or by its FMTID (`FMTID:1065093`). */
export type SetRef = { readonly by: "name"; readonly name: string } | { readonly by: "id"; readonly id: number };

/** One key value: a string (`'O''Brien'` → `O'Brien`) or a number (kept as written in `text`, e.g. big integers). */
export type KeyLiteral = { readonly type: "string"; readonly value: string } | { readonly type: "number"; readonly value: number; readonly text: string };

/** A key in parentheses (2.4). A keyless TO's `T(11167)` is a `single` number; the caller knows the TO has no Key. */
export type EntityKey =
  | { readonly kind: "single"; readonly value: KeyLiteral }
  | { readonly kind: "rowid"; readonly rowid: number }
  | { readonly kind: "composite"; readonly values: readonly KeyLiteral[] };

export type WebhookOperation = "Add" | "GetAll" | "Get" | "Delete" | "Invoke";

/** What a script path names: `Script.Name` or `Script.FMSID:n`. */
export type ScriptRef = { readonly by: "name"; readonly name: string } | { readonly by: "id"; readonly id: number };

export type ODataPath =
  | { readonly kind: "serviceRoot" }
  | { readonly kind: "serviceDocument"; readonly db: string }
  | { readonly kind: "metadata"; readonly db: string; readonly table?: string }
  | { readonly kind: "batch"; readonly db: string }
  | { readonly kind: "crossjoin"; readonly db: string; readonly sets: readonly SetRef[] }
  | { readonly kind: "collection"; readonly db: string; readonly set: SetRef }
  | { readonly kind: "count"; readonly db: string; readonly set: SetRef }
  | { readonly kind: "entity"; readonly db: string; readonly set: SetRef; readonly key: EntityKey }
  /** `T(k)/X`: a field or a navigation property; only the caller, who knows the table, can tell which. */
  | { readonly kind: "member"; readonly db: string; readonly set: SetRef; readonly key: EntityKey; readonly member: string }
  /** `T(k)/Field/$value`: the raw value of a field. */
  | { readonly kind: "value"; readonly db: string; readonly set: SetRef; readonly key: EntityKey; readonly member: string }
  /** `T(k)/Nav/$ref` or `T(k)/Nav(k2)/$ref` (3.2 "References"): the references of a navigation, or one of them. */
  | { readonly kind: "ref"; readonly db: string; readonly set: SetRef; readonly key: EntityKey; readonly nav: string; readonly target?: EntityKey }
  | { readonly kind: "script"; readonly db: string; readonly script: ScriptRef; readonly set?: SetRef; readonly key?: EntityKey }
  | { readonly kind: "webhook"; readonly db: string; readonly operation: WebhookOperation; readonly id?: number }
  | { readonly kind: "tables"; readonly db: string; readonly table?: string; readonly field?: string }
  | { readonly kind: "indexes"; readonly db: string; readonly table: string; readonly field?: string };

/** Longest nesting or list this parser follows inside one segment (composite keys, `$crossjoin` sets). */
const MAX_LIST = 64;

/**
 * Parses the path after `/fmi/odata/v4` (`""`, `"/"`, `"/DB/contacts('a')/name/$value"`, …). Throws only
 * ODataError (400 -1002 with section 9's message) for a path that is not one of section 1.1's forms.
 */
export function parseODataPath(rawPath: string): ODataPath {
  if (rawPath === "" || rawPath === "/") return { kind: "serviceRoot" };
  if (!rawPath.startsWith("/")) throw syntaxError(rawPath);
  let path = decodeOnce(rawPath.slice(1));
  if (path.endsWith("/")) path = path.slice(0, -1);
  // The database segment holds no key, so it ends at the first `/` whatever quotes it has ("Bob's DB").
  const slash = path.indexOf("/");
  const db = slash < 0 ? path : path.slice(0, slash);
  const rest = slash < 0 ? [] : splitSegments(path.slice(slash + 1));
  if (db === "" || db.startsWith("$")) throw syntaxError(db === "" ? "/" : db);
  if (rest.length === 0) return { kind: "serviceDocument", db };
  for (const s of rest) if (s === "") throw syntaxError("/");
  const head = rest[0]!;
  const tail = rest.slice(1);
  const noMore = (): void => {
    if (tail.length > 0) throw syntaxError(tail[0]!);
  };

  if (head === "$metadata" || head.startsWith("$metadata#")) {
    noMore();
    if (head === "$metadata") return { kind: "metadata", db };
    const table = head.slice("$metadata#".length);
    if (table === "") throw syntaxError(head);
    return { kind: "metadata", db, table };
  }
  if (head === "$batch") {
    noMore();
    return { kind: "batch", db };
  }
  if (head.startsWith("$crossjoin")) {
    noMore();
    return { kind: "crossjoin", db, sets: parseCrossjoin(head) };
  }
  if (head.startsWith("Script.")) {
    noMore();
    return { kind: "script", db, script: parseScript(head) };
  }
  if (head.startsWith("Webhook.")) {
    noMore();
    return { db, ...parseWebhook(head) };
  }
  if (head === "FileMaker_Tables") {
    if (tail.length > 2) throw syntaxError(tail[2]!);
    const [table, field] = tail;
    return { kind: "tables", db, ...(table !== undefined && { table }), ...(field !== undefined && { field }) };
  }
  if (head === "FileMaker_Indexes") {
    if (tail.length === 0) throw syntaxError(head);
    if (tail.length > 2) throw syntaxError(tail[2]!);
    const [table, field] = tail as [string, string?];
    return { kind: "indexes", db, table, ...(field !== undefined && { field }) };
  }
  if (head.startsWith("$")) throw syntaxError(head);

  const { set, key } = parseSetSegment(head);
  if (key === undefined) {
    if (tail.length === 0) return { kind: "collection", db, set };
    const [next, ...after] = tail as [string, ...string[]];
    if (after.length > 0) throw syntaxError(after[0]!);
    if (next === "$count") return { kind: "count", db, set };
    if (next.startsWith("Script.")) return { kind: "script", db, script: parseScript(next), set };
    throw syntaxError(next);
  }
  if (tail.length === 0) return { kind: "entity", db, set, key };
  const [next, ...after] = tail as [string, ...string[]];
  if (next.startsWith("Script.")) {
    if (after.length > 0) throw syntaxError(after[0]!);
    return { kind: "script", db, script: parseScript(next), set, key };
  }
  if (after.length === 1 && after[0] === "$ref") {
    const { set: nav, key: target } = parseSetSegment(next);
    if (nav.by !== "name") throw syntaxError(next);
    return { kind: "ref", db, set, key, nav: nav.name, ...(target !== undefined && { target }) };
  }
  const member = memberName(next);
  if (after.length === 0) return { kind: "member", db, set, key, member };
  if (after.length === 1 && after[0] === "$value") return { kind: "value", db, set, key, member };
  throw syntaxError(after[0]!);
}

/** Splits at `/` outside single-quoted strings and parentheses; one pass. */
function splitSegments(path: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === "'") quoted = !quoted;
    else if (quoted) continue;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "/" && depth === 0) {
      out.push(path.slice(start, i));
      start = i + 1;
    }
  }
  out.push(path.slice(start));
  return out;
}

/** A TO name as it may appear in a path: no `$` (`contacts$top=10` → at '$top=10'), no `~`/`?` (2.8), no parens. */
function toName(text: string): string {
  const dollar = text.indexOf("$");
  if (dollar >= 0) throw syntaxError(text.slice(dollar));
  if (text === "" || /[~?()'"]/.test(text)) throw syntaxError(text === "" ? "(" : text);
  return text;
}

function setRef(text: string): SetRef {
  const fmtid = /^FMTID:(\d{1,15})$/.exec(text);
  if (fmtid) return { by: "id", id: Number(fmtid[1]) };
  return { by: "name", name: toName(text) };
}

function memberName(text: string): string {
  if (text.startsWith("$") || /[~?()'"]/.test(text)) throw syntaxError(text);
  const bracket = /\[\d*\]$/.exec(text);
  // `Name[2]` is not supported (2.3: "not supported", CL21).
  if (bracket) throw syntaxError(bracket[0]);
  return text;
}

function parseSetSegment(segment: string): { set: SetRef; key?: EntityKey } {
  const open = segment.indexOf("(");
  if (open < 0) return { set: setRef(segment) };
  const set = setRef(segment.slice(0, open));
  if (!segment.endsWith(")")) throw syntaxError(segment.slice(open));
  return { set, key: parseKey(segment.slice(open + 1, -1), segment.slice(open)) };
}

/** The text inside `T(…)`: `'s'`, `42`, `ROWID=11167`, or a positional list of literals. */
export function parseKey(inner: string, shown: string = `(${inner})`): EntityKey {
  const rowid = /^ROWID=(\d{1,15})$/.exec(inner);
  if (rowid) return { kind: "rowid", rowid: Number(rowid[1]) };
  const values: KeyLiteral[] = [];
  let i = 0;
  for (;;) {
    if (values.length >= MAX_LIST) throw syntaxError(shown);
    if (inner[i] === "'") {
      let value = "";
      let j = i + 1;
      for (;;) {
        const q = inner.indexOf("'", j);
        if (q < 0) throw syntaxError(inner.slice(i));
        value += inner.slice(j, q);
        if (inner[q + 1] === "'") {
          value += "'";
          j = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      values.push({ type: "string", value });
    } else {
      const m = /^-?\d+(?:\.\d+)?/.exec(inner.slice(i));
      if (!m) throw syntaxError(inner.slice(i) || shown);
      values.push({ type: "number", value: Number(m[0]), text: m[0] });
      i += m[0].length;
    }
    if (i === inner.length) break;
    if (inner[i] !== ",") throw syntaxError(inner.slice(i));
    i++;
  }
  return values.length === 1 ? { kind: "single", value: values[0]! } : { kind: "composite", values };
}

function parseCrossjoin(segment: string): SetRef[] {
  const m = /^\$crossjoin\(([^()]*)\)$/.exec(segment);
  if (!m) throw syntaxError(segment);
  const names = m[1]!.split(",");
  if (names.length < 2 || names.length > MAX_LIST) throw syntaxError(segment);
  return names.map((n) => setRef(n));
}

/** Section 5: names with `@ & /` or starting with a digit cannot be called. */
function parseScript(segment: string): ScriptRef {
  const name = segment.slice("Script.".length);
  const fmsid = /^FMSID:(\d{1,15})$/.exec(name);
  if (fmsid) return { by: "id", id: Number(fmsid[1]) };
  if (name === "" || /^\d/.test(name) || /[@&/?~()]/.test(name)) throw syntaxError(segment);
  return { by: "name", name };
}

function parseWebhook(segment: string): { kind: "webhook"; operation: WebhookOperation; id?: number } {
  if (segment === "Webhook.Add") return { kind: "webhook", operation: "Add" };
  if (segment === "Webhook.GetAll") return { kind: "webhook", operation: "GetAll" };
  const m = /^Webhook\.(Get|Delete|Invoke)\((\d{1,15})\)$/.exec(segment);
  if (!m) throw syntaxError(segment);
  return { kind: "webhook", operation: m[1] as WebhookOperation, id: Number(m[2]) };
}
