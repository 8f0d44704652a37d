// The `files` part of a seed file (docs/emulator.md, "Snapshots"): the hosted files exactly as an export wrote them,
// each with the schema changes it had, and per table its records (record ids and modIds), counters and globals.
// Read here for its shape only, every part checked before anything is loaded, so that a bad file is refused whole
// with the JSON path at fault; the values are read by their fields' types when they are loaded (store/seed-snapshot.ts).
import { z } from "zod";
import { formatJsonPath } from "../../project/index.js";
import { NumberToken } from "../../runtime/core/json-numbers.js";
import { AUTO_ENTER_TYPES, autoEnterSchema, fieldTypeSchema } from "../../layout/schema.js";
import type { SchemaChange } from "./schema-changes.js";

/** A container's file, included in the seed: its name, type, size and bytes (base64). */
export interface SeedContainer {
  /** The file's name: no slash or backslash, no `..`, no control character. */
  filename: string;
  /** Its media type (`image/png`). */
  contentType: string;
  /** The bytes' length: checked against `base64`. */
  size: number;
  /** The bytes, base64 (padded). */
  base64: string;
}

/** One repetition's value: the field type's wire form (a number a double does not hold as its digits, a string), or a container's file. */
export type SeedValue = string | number | SeedContainer;

/** A field's value: one value, or its repetitions in order (a repeating field; `""` is empty). */
export type SeedFieldValue = SeedValue | readonly SeedValue[];

/** A record as it was: its record id, its modId (default 0) and its stored fields (empty ones left out). */
export interface SeedRecord {
  /** The record's id (a positive whole number, once per table). */
  recordId: number;
  /** Its modId (default 0). */
  modId?: number;
  /** Field name -> value: the stored fields (no calculation, related or global field). */
  fieldData?: Record<string, SeedFieldValue>;
}

/** A table's records and counters, and the file's values of its global fields. */
export interface SeedTable {
  /** The record id the next new record takes (default: one past the highest). */
  nextRecordId?: number;
  /** Each serial field's next value, as decimal digits (serials run past 2^53); fields left out keep their descriptions' start. */
  serials?: Record<string, string>;
  /** The file's values of global fields. */
  globals?: Record<string, SeedFieldValue>;
  /** In record-id order; each id once. */
  records?: SeedRecord[];
}

/** A schema change made through OData's FileMaker_Tables and FileMaker_Indexes, as it was asked for. */
export type SeedSchemaChange = SchemaChange;

/** One hosted file: the schema changes it had (made again, in order, first), then its tables. */
export interface SeedFile {
  /** The schema changes made over OData, in order. */
  schema?: SeedSchemaChange[];
  /** Table name -> its records, counters and globals. */
  tables?: Record<string, SeedTable>;
}

/** Largest container a seed may declare: 4 GiB (the declared size is checked against the bytes before they are decoded). */
const MAX_CONTAINER_BYTES = 2 ** 32;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const CONTENT_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:\\s*;[\\x20-\\x7e]*)?$`);

const containerSchema = z
  .object({
    filename: z
      .string()
      .min(1, "must not be empty")
      .max(255, "must be at most 255 characters")
      .refine((n) => !CONTROL.test(n), "must hold no control character (NUL included)")
      .refine((n) => !/[/\\]/.test(n), "must be a file name, without / or \\")
      .refine((n) => !n.includes(".."), "must not hold .."),
    contentType: z.string().regex(CONTENT_TYPE, 'must be a media type such as "image/png"'),
    size: z.number().int().min(0).max(MAX_CONTAINER_BYTES, `must be at most ${MAX_CONTAINER_BYTES} bytes`),
    base64: z.string().regex(BASE64, "must be base64 (A-Z, a-z, 0-9, + and /, padded with =)"),
  })
  .strict()
  .superRefine((c, ctx) => {
    const bytes = (c.base64.length / 4) * 3 - (c.base64.endsWith("==") ? 2 : c.base64.endsWith("=") ? 1 : 0);
    if (bytes !== c.size) ctx.addIssue({ code: "custom", path: ["size"], message: `is ${c.size}, but base64 holds ${bytes} bytes` });
  });

const nameSchema = z
  .string()
  .min(1, "must not be empty")
  .refine((n) => !CONTROL.test(n), "must hold no control character")
  .refine((n) => !n.includes("::"), "must not hold :: (a related field is not defined by a schema change)");

const fieldDefinitionSchema = z
  .object({
    name: nameSchema,
    type: fieldTypeSchema,
    repetitions: z.number().int().min(1).max(32000),
    maxLength: z.number().int().min(1).optional(),
    primary: z.boolean(),
    unique: z.boolean(),
    required: z.boolean(),
    global: z.boolean(),
    autoEnter: autoEnterSchema.optional(),
    externalSecurePath: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((f, ctx) => {
    const fault = (message: string, key: string) => ctx.addIssue({ code: "custom", path: [key], message });
    if (f.maxLength !== undefined && f.type !== "text") fault("applies to text fields only", "maxLength");
    if (f.externalSecurePath !== undefined && f.type !== "container") fault("applies to container fields only", "externalSecurePath");
    if (f.autoEnter && !AUTO_ENTER_TYPES[f.autoEnter].includes(f.type)) fault(`needs a field of type ${AUTO_ENTER_TYPES[f.autoEnter].join(" or ")}`, "autoEnter");
    if ((f.primary || f.unique) && (f.global || f.type === "container" || f.repetitions > 1)) fault("a primary or unique field cannot be global, a container or repeating", f.primary ? "primary" : "unique");
    if (f.global && f.autoEnter) fault("a global field takes no auto-enter", "autoEnter");
  });

const schemaChangeSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("createTable"), table: nameSchema, fields: z.array(fieldDefinitionSchema) }).strict(),
  z.object({ op: z.literal("addField"), table: nameSchema, field: fieldDefinitionSchema }).strict(),
  z.object({ op: z.literal("deleteField"), table: nameSchema, field: nameSchema }).strict(),
  z.object({ op: z.literal("deleteTable"), table: nameSchema }).strict(),
  z.object({ op: z.literal("setFieldIndex"), table: nameSchema, field: nameSchema, on: z.boolean() }).strict(),
]);

const recordId = z.number().int("must be a whole number").min(1, "must be a positive whole number").max(Number.MAX_SAFE_INTEGER);
const fileSchema = z.object({ schema: z.array(schemaChangeSchema).optional(), tables: z.unknown().optional() }).strict();
const tableSchema = z
  .object({ nextRecordId: recordId.optional(), serials: z.unknown().optional(), globals: z.unknown().optional(), records: z.array(z.unknown()).optional() })
  .strict();
const recordSchema = z.object({ recordId, modId: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(), fieldData: z.unknown().optional() }).strict();

type Path = readonly PropertyKey[];

/** A seed's problem at `path` (under `files`), naming the file. */
function failure(source: string, path: Path, message: string): Error {
  return new Error(`${source}: ${formatJsonPath(["files", ...path])}: ${message}`);
}

function check<T>(schema: z.ZodType<T>, value: unknown, source: string, path: Path): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw failure(source, [...path, ...issue.path], issue.message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof NumberToken);
}

/** An object whose keys are the user's (tables, fields): own keys only, "__proto__" kept as one. */
function entriesOf(value: unknown, source: string, path: Path, what: string): [string, unknown][] {
  if (!isObject(value)) throw failure(source, path, `must be an object of ${what}`);
  return Object.entries(value);
}

/** A new object with these keys, "__proto__" as an own key like any other. */
export function ownObject<V>(entries: Iterable<readonly [string, V]>): Record<string, V> {
  const out: Record<string, V> = {};
  for (const [key, value] of entries) Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true });
  return out;
}

/** `files`: hosted file name -> its schema changes and tables, each part's shape checked; throws naming the JSON path. */
export function parseSeedFiles(raw: unknown, source: string): Record<string, SeedFile> | undefined {
  if (raw === undefined) return undefined;
  return ownObject(entriesOf(raw, source, [], "hosted file names to their tables").map(([name, file]) => [name, parseFile(file, source, [name])]));
}

function parseFile(raw: unknown, source: string, path: Path): SeedFile {
  const file = check(fileSchema, raw, source, path);
  const tables = file.tables === undefined ? undefined : ownObject(entriesOf(file.tables, source, [...path, "tables"], "table names to tables").map(([name, t]) => [name, parseTable(t, source, [...path, "tables", name])]));
  return { ...(file.schema ? { schema: file.schema as SeedSchemaChange[] } : {}), ...(tables ? { tables } : {}) };
}

function parseTable(raw: unknown, source: string, path: Path): SeedTable {
  const table = check(tableSchema, raw, source, path);
  const serials =
    table.serials === undefined
      ? undefined
      : ownObject(
          entriesOf(table.serials, source, [...path, "serials"], "serial field names to their next values").map(([field, next]): [string, string] => {
            const text = next instanceof NumberToken ? next.text : typeof next === "number" && Number.isSafeInteger(next) ? String(next) : next;
            if (typeof text !== "string" || !/^-?\d{1,400}$/.test(text)) throw failure(source, [...path, "serials", field], "must be a whole number's decimal digits");
            return [field, text];
          }),
        );
  const globals = table.globals === undefined ? undefined : fieldValues(table.globals, source, [...path, "globals"]);
  const seen = new Set<number>();
  const records = table.records?.map((r, i): SeedRecord => {
    const at = [...path, "records", i];
    const record = check(recordSchema, r, source, at);
    if (seen.has(record.recordId)) throw failure(source, [...at, "recordId"], `record id ${record.recordId} is given twice`);
    seen.add(record.recordId);
    return { recordId: record.recordId, ...(record.modId !== undefined ? { modId: record.modId } : {}), fieldData: record.fieldData === undefined ? {} : fieldValues(record.fieldData, source, [...at, "fieldData"]) };
  });
  if (table.nextRecordId !== undefined && seen.size > 0 && table.nextRecordId <= Math.max(...seen)) {
    throw failure(source, [...path, "nextRecordId"], `is ${table.nextRecordId}, not past the highest record id (${Math.max(...seen)})`);
  }
  return { ...(table.nextRecordId !== undefined ? { nextRecordId: table.nextRecordId } : {}), ...(serials ? { serials } : {}), ...(globals ? { globals } : {}), ...(records ? { records } : {}) };
}

/** Field name -> a value or an array of repetitions; a number token a double does not hold becomes its digits. */
function fieldValues(raw: unknown, source: string, path: Path): Record<string, SeedFieldValue> {
  return ownObject(
    entriesOf(raw, source, path, "field names to values").map(([field, given]): [string, SeedFieldValue] => {
      if (!Array.isArray(given)) return [field, seedValue(given, source, [...path, field])];
      if (given.length === 0) throw failure(source, [...path, field], "must hold at least one repetition");
      return [field, given.map((v: unknown, i) => seedValue(v, source, [...path, field, i]))];
    }),
  );
}

function seedValue(given: unknown, source: string, path: Path): SeedValue {
  if (given instanceof NumberToken) return given.text;
  if (typeof given === "string") return given;
  if (typeof given === "number" && Number.isFinite(given)) return given;
  if (isObject(given)) return check(containerSchema, given, source, path);
  throw failure(source, path, "must be a string, a finite number or a container {filename, contentType, size, base64}");
}
