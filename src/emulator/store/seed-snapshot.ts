// Snapshots (docs/emulator.md, "Snapshots"): the hosted data as a seed document (`GET /fmgen/export`,
// `--export-on-exit FILE`, `exportData()`), and that document's `files` part loaded back by `--data`. Values go
// through the kept forms the data directory writes (hosted-state.ts): the wire form of each field's type, read back by
// the type the field has at the next start. The document is one self-contained JSON text: container files are
// included (base64), and records carry their record ids and modIds, so that a fixture made from it is the session.
import { NumberToken } from "../../runtime/core/json-numbers.js";
import type { HostedServer } from "../hosted-file/hosted-server.js";
import type { TableField } from "../hosted-file/model.js";
import { replaySchemaChange, schemaChangesMade } from "../hosted-file/schema-changes.js";
import { ownObject, type SeedContainer, type SeedFieldValue, type SeedFile, type SeedTable, type SeedValue } from "../hosted-file/seed-files.js";
import type { SeedData } from "../hosted-file/seed.js";
import { WIRE_FORM } from "../hosted-file/stored-value.js";
import type { TableData } from "../hosted-file/store.js";
import { formatJsonPath } from "../../project/index.js";
import { CarryNotes, keptCounters, keptGlobals, keptRecord, restoreCounters, restoreGlobals, restoreRecord, storedValue, type KeptValue } from "./hosted-state.js";

type Hosted = Pick<HostedServer, "databases" | "containers">;

/**
 * The hosted data as a seed document: `format`, the accounts when given (never over HTTP), and every hosted file's
 * schema changes and tables, each table's records in record-id order. JSON-safe as it is: `JSON.stringify` writes it.
 */
export function exportSeed(server: Hosted, accounts?: SeedData["accounts"]): SeedData & { format: 1; files: Record<string, SeedFile> } {
  const files = ownObject(
    [...server.databases].map(([name, db]): [string, SeedFile] => {
      const schema = schemaChangesMade(db.model);
      // Empty parts are left out, so that a fixture reads as what it holds.
      return [name, { ...(schema.length > 0 ? { schema: structuredClone([...schema]) } : {}), tables: ownObject([...db.tables].map(([t, data]) => [t, exportTable(server, data)])) }];
    }),
  );
  return { format: 1, ...(accounts && accounts.length > 0 ? { accounts: structuredClone(accounts) } : {}), files };
}

/** A seed document's text, as GET /fmgen/export serves it and --export-on-exit writes it (it holds no NumberToken). */
export function seedText(document: object): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

function exportTable(server: Hosted, table: TableData): SeedTable {
  const { next, serials } = keptCounters(table);
  const globals = fieldValues(server, table, Object.entries(keptGlobals(table)));
  const records = [...table.records.values()]
    .sort((a, b) => a.recordId - b.recordId)
    .map((record) => {
      const [recordId, modId, fields] = keptRecord(table, record);
      return { recordId, modId, fieldData: fieldValues(server, table, Object.entries(fields)) };
    });
  return { nextRecordId: next, ...(Object.keys(serials).length > 0 ? { serials: ownObject(Object.entries(serials)) } : {}), ...(Object.keys(globals).length > 0 ? { globals } : {}), records };
}

/** Each field's kept repetitions in the seed's form: empty ones left out, a repeating field as an array. */
function fieldValues(server: Hosted, table: TableData, fields: [string, readonly KeptValue[]][]): Record<string, SeedFieldValue> {
  const out: [string, SeedFieldValue][] = [];
  for (const [name, kept] of fields) {
    const values = kept.map((v) => seedValue(server, v));
    while (values.length > 0 && values[values.length - 1] === "") values.pop();
    if (values.length === 0) continue;
    out.push([name, (table.model.fields.get(name)?.repetitions ?? 1) > 1 ? values : values[0]!]);
  }
  return ownObject(out);
}

function seedValue(server: Hosted, kept: KeptValue): SeedValue {
  if (kept === null) return "";
  // A number a double does not hold: its digits, as a string (a number field reads them exactly).
  if (kept instanceof NumberToken) return kept.text;
  if (typeof kept === "object" && "i" in kept) {
    const file = server.containers.fileOf(kept.i);
    if (!file) return "";
    return { filename: kept.n, contentType: kept.t, size: file.bytes.byteLength, base64: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength).toString("base64") };
  }
  return kept as string | number;
}

/**
 * Loads a seed's `files` into the hosted server: each file's schema changes made again (replaySchemaChange), then its
 * tables' records as they were (ids and modIds kept), counters and globals. Synchronous: container files put here are
 * held by their records before the store's next sweep. Any problem is thrown naming `source` and the JSON path.
 */
export function loadSeedFiles(files: Readonly<Record<string, SeedFile>>, server: Hosted, source: string): void {
  const fail = (path: readonly PropertyKey[], message: string) => new Error(`${source}: ${formatJsonPath(["files", ...path])}: ${message}`);
  for (const [name, file] of Object.entries(files)) {
    const db = server.databases.get(name);
    if (!db) throw fail([name], `no hosted file is named "${name}" (its layout or table descriptions are missing)`);
    (file.schema ?? []).forEach((change, i) => {
      const outcome = replaySchemaChange(db, server.containers, change);
      if (outcome !== undefined) throw fail([name, "schema", i], `cannot be made again: ${outcome}`);
    });
    for (const [tableName, seeded] of Object.entries(file.tables ?? {})) {
      const at = [name, "tables", tableName];
      const table = db.tables.get(tableName);
      if (!table) throw fail(at, `the hosted file "${name}" has no table "${tableName}"`);
      const keptOf = (field: TableField, value: SeedValue, path: readonly PropertyKey[]): KeptValue => {
        if (typeof value === "object") {
          if (field.type !== "container") throw fail(path, `"${field.name}" is a ${field.type} field, not a container`);
          return containerOf(server, name, value);
        }
        if (field.type === "container" && value !== "") throw fail(path, `"${field.name}" is a container field: give {filename, contentType, size, base64}`);
        if (storedValue(field.type, value) === undefined) throw fail(path, `${JSON.stringify(value).slice(0, 60)} is not a valid ${field.type} (expected ${WIRE_FORM[field.type]})`);
        return value;
      };
      const repetitionsOf = (fieldName: string, given: SeedFieldValue, path: readonly PropertyKey[], global: boolean): [TableField, KeptValue[]] => {
        const field = table.model.fields.get(fieldName);
        if (!field) throw fail(path, `table "${tableName}" has no field "${fieldName}"`);
        if (field.computed) throw fail(path, `"${fieldName}" is ${field.computed.kind === "calculation" ? "a calculation" : "a related field"}, computed on every read: remove it`);
        if (field.global !== global) throw fail(path, global ? `"${fieldName}" is not a global field: put it in a record's fieldData` : `"${fieldName}" is a global field: put it in the table's globals`);
        const list: readonly SeedValue[] = Array.isArray(given) ? given : [given as SeedValue];
        if (list.length > field.repetitions) throw fail(path, `"${fieldName}" has ${field.repetitions} repetition(s), not ${list.length}`);
        return [field, list.map((v, i) => keptOf(field, v, Array.isArray(given) ? [...path, i] : path))];
      };
      const notes = new CarryNotes();
      (seeded.records ?? []).forEach((record, i) => {
        const fields = ownObject(Object.entries(record.fieldData ?? {}).map(([f, v]) => [f, repetitionsOf(f, v, [...at, "records", i, "fieldData", f], false)[1]]));
        restoreRecord(name, table, [record.recordId, record.modId ?? 0, fields], notes);
      });
      for (const serial of Object.keys(seeded.serials ?? {})) {
        const field = table.model.fields.get(serial);
        if (field?.autoEnter !== "serial") throw fail([...at, "serials", serial], `table "${tableName}" has no serial field "${serial}"`);
      }
      restoreCounters(table, { next: seeded.nextRecordId ?? 1, serials: { ...Object.fromEntries([...table.counters().serials].map(([f, n]) => [f, String(n)])), ...seeded.serials } });
      restoreGlobals(table, ownObject(Object.entries(seeded.globals ?? {}).map(([f, v]) => [f, repetitionsOf(f, v, [...at, "globals", f], true)[1]])));
      // Every value was checked above: a note here is a bug, not the seed's fault.
      const lines = notes.lines();
      if (lines.length > 0) throw fail(at, lines.join("; "));
    }
  }
}

/** A container's file put into the store for `database`, as a kept value its record holds. */
function containerOf(server: Hosted, database: string, c: SeedContainer): KeptValue {
  const bytes = Buffer.from(c.base64, "base64");
  const ref = server.containers.put(database, c.filename, c.contentType, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { i: ref.id, n: ref.filename, t: ref.contentType, s: ref.size };
}
