/**
 * `od.schema` (wire contract section 6): FileMaker's DDL over OData. `FileMaker_Tables` creates and deletes tables and
 * adds and deletes fields; `FileMaker_Indexes` creates and drops a field's index. Names are checked here (a non-empty
 * string; a field list of `{ name, type }`) so that a mistake is a TypeError naming the call, not a server's 400.
 * Loaded on the first `od.schema` call.
 */
import { ProtocolError } from "../core/protocol-errors.js";
import type { ODataAnswer, ODataCaller } from "./caller.js";
import type { NewField, SchemaCalls, TableChange } from "./schema-types.js";
import type { CallOptions } from "./shapes.js";

/**
 * A name as a path segment. `/` and `\` are refused, encoded or not: servers (and proxies) decode the path once before
 * they split it, so `deleteTable("Notes/Text")` would delete the field Text. So are "." and "..".
 */
const segment = (value: unknown, call: string, what: string): string => {
  if (typeof value !== "string" || value === "") throw new TypeError(`schema.${call}: the ${what} name must be a non-empty string, not ${value === "" ? "empty" : typeof value}`);
  if (/[/\\]/.test(value) || value === "." || value === "..") throw new TypeError(`schema.${call}: the ${what} name ${JSON.stringify(value)} cannot be sent in a URL path (it holds a slash, or is "." or "..")`);
  return `/${encodeURIComponent(value)}`;
};

const FIELD_KEYS = new Set(["name", "type", "primary", "unique", "nullable", "global", "default", "externalSecurePath"]);

/** The fields as the body lists them, each checked: a name and a type (strings), booleans where booleans go, no other key. */
function fieldList(fields: unknown, call: string): NewField[] {
  if (!Array.isArray(fields) || fields.length === 0) throw new TypeError(`schema.${call}: fields must be a non-empty array of { name, type }`);
  return fields.map((field: unknown, i) => {
    const where = `schema.${call}: fields[${i}]`;
    if (typeof field !== "object" || field === null) throw new TypeError(`${where} must be an object { name, type }`);
    for (const [key, value] of Object.entries(field)) {
      if (!FIELD_KEYS.has(key)) throw new TypeError(`${where} has "${key}", which is not one of ${[...FIELD_KEYS].join(", ")}`);
      const kind = key === "name" || key === "type" || key === "default" || key === "externalSecurePath" ? "string" : "boolean";
      if (typeof value !== kind || value === "") throw new TypeError(`${where}.${key} must be a ${kind === "string" ? "non-empty string" : "boolean"}`);
    }
    const f = field as Partial<NewField>;
    if (f.name === undefined || f.type === undefined) throw new TypeError(`${where} needs a name and a type (varchar(100), int, numeric, date, time, timestamp, blob)`);
    return f as NewField;
  });
}

/** `{ tableName, fields }` of an answer (and `failedFields`, when the server names fields it could not add). */
function tableChange(answer: ODataAnswer, path: string, method: string): TableChange {
  const body = answer.json() as Partial<TableChange> | null;
  if (typeof body?.tableName !== "string" || !Array.isArray(body.fields)) throw new ProtocolError(answer.status, answer.text().slice(0, 100), { method, path }, "is not { tableName, fields }");
  return { tableName: body.tableName, fields: body.fields, ...(Array.isArray(body.failedFields) && { failedFields: body.failedFields }) };
}

export function schemaCalls(caller: ODataCaller): SchemaCalls {
  // DDL changes the file: never sent twice.
  const send = (method: "POST" | "PATCH" | "DELETE", path: string, options: CallOptions, body?: object) =>
    caller.call({ method, path, idempotent: false, signal: options.signal, ...(body !== undefined && { body: JSON.stringify(body), headers: { "Content-Type": "application/json" } }) });
  return {
    async createTable(name, fields, options = {}) {
      const path = `/FileMaker_Tables`;
      segment(name, "createTable", "table");
      const body = { tableName: name, fields: fieldList(fields, "createTable") };
      return tableChange(await send("POST", path, options, body), path, "POST");
    },
    async addFields(table, fields, options = {}) {
      const path = `/FileMaker_Tables${segment(table, "addFields", "table")}`;
      return tableChange(await send("PATCH", path, options, { fields: fieldList(fields, "addFields") }), path, "PATCH");
    },
    async deleteTable(table, options = {}) {
      await send("DELETE", `/FileMaker_Tables${segment(table, "deleteTable", "table")}`, options);
    },
    async deleteField(table, field, options = {}) {
      await send("DELETE", `/FileMaker_Tables${segment(table, "deleteField", "table")}${segment(field, "deleteField", "field")}`, options);
    },
    async createIndex(table, field, options = {}) {
      segment(field, "createIndex", "field");
      await send("POST", `/FileMaker_Indexes${segment(table, "createIndex", "table")}`, options, { indexName: field });
    },
    async deleteIndex(table, field, options = {}) {
      await send("DELETE", `/FileMaker_Indexes${segment(table, "deleteIndex", "table")}${segment(field, "deleteIndex", "field")}`, options);
    },
  };
}
