import { readFile } from "node:fs/promises";
import { z } from "zod";
import { formatJsonPath, parseJson } from "../../project/index.js";
import { NumberToken } from "../../runtime/core/json-numbers.js";
import { parseJsonExactly } from "../../runtime/core/json-numbers.js";
import { describeInput } from "./input/input-text.js";
import type { EmulatorClock } from "./clock.js";
import { SCRIPT_ENTRY } from "./records/entry-options.js";
import { FILE_GLOBALS } from "./globals.js";
import { buildNewRecord, commitRecord, type FieldChange } from "./records/record-writes.js";
import type { Account } from "./sign-ins.js";
import type { HostedDatabase, TableData } from "./store.js";
import { decodeWireValue, WIRE_FORM } from "./stored-value.js";
import { parseSeedFiles, type SeedFile } from "./seed-files.js";

/** `records` is read by {@link parseSeedRecords}: zod's `record()` drops a key named "__proto__". */
export const seedSchema = z
  .object({
    // Each account signs in one way (sign-ins.ts): a name and password, OAuth, or a Claris ID (FMID) id token.
    accounts: z
      .array(
        z.union([
          z.object({ username: z.string().min(1), password: z.string(), privileges: z.array(z.string()).optional() }).strict(),
          z
            .object({ oauth: z.object({ requestId: z.string().min(1), identifier: z.string().min(1) }).strict(), privileges: z.array(z.string()).optional() })
            .strict(),
          z.object({ fmid: z.string().regex(/^\S+$/, "must be an id token (no spaces)"), privileges: z.array(z.string()).optional() }).strict(),
        ]),
      )
      .optional(),
    records: z.unknown().optional(),
    // An export's (docs/emulator.md, "Snapshots"): the seed format's version, and the hosted files as they were.
    format: z.literal(1).optional(),
    files: z.unknown().optional(),
  })
  .strict();

/**
 * What an emulator starts with (`data`: this object, or a JSON file of it): accounts, records per table, and (as an
 * export writes them: docs/emulator.md, "Snapshots") the hosted files exactly as they were.
 */
export interface SeedData {
  /** The seed format's version: 1 (an export writes it; optional). */
  format?: 1;
  /** Accounts to sign in with, as `EmulatorOptions.accounts` takes them. */
  accounts?: z.infer<typeof seedSchema>["accounts"];
  /** Table name -> records, each field name -> wire value. */
  records?: Record<string, Record<string, string | number>[]> | undefined;
  /**
   * Hosted file name -> its schema changes and tables, each table's records with their record ids and modIds, its
   * counters and globals: loaded as they are, before `records` (whose records are created after them).
   */
  files?: Record<string, SeedFile> | undefined;
}

/**
 * Reads a seed file. `records: false` reads only its accounts (a data directory's later starts, whose records and
 * files come from the directory): those are neither read exactly nor checked, which for 100,000 records is most of a
 * start.
 */
export async function readSeedFile(file: string, { records = true }: { records?: boolean } = {}): Promise<SeedData> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new Error(`${file}: cannot read seed data: ${(error as Error).message}`);
  }
  if (!records) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new Error(`${file}: ${(error as Error).message}`);
    }
    return parseSeed(isObject(json) ? { ...json, records: undefined, files: undefined } : json, file);
  }
  let json: unknown;
  try {
    // Number tokens a double does not hold (a 58-digit key) stay their text: NumberToken (docs/emulator.md, "Numbers").
    json = parseJsonExactly(text);
  } catch {
    try {
      parseJson(text);
    } catch (error) {
      // The line and column of the syntax error, as for every JSON file fmgen reads.
      throw new Error(`${file}: ${(error as Error).message}`);
    }
    throw new Error(`${file}: invalid JSON`);
  }
  return parseSeed(json, file);
}

export function parseSeed(json: unknown, source = "<seed>"): SeedData {
  const result = seedSchema.safeParse(json);
  if (!result.success) {
    throw new Error(`${source}: ${result.error.issues.map((i) => `${formatJsonPath(i.path)}: ${i.message}`).join("; ")}`);
  }
  const { accounts, records, format, files } = result.data;
  const parsedFiles = parseSeedFiles(files, source);
  return { ...(format ? { format } : {}), ...(accounts ? { accounts } : {}), records: parseSeedRecords(records, source), ...(parsedFiles ? { files: parsedFiles } : {}) };
}

/**
 * `records`: table name -> array of { field name: string or number }, copied into null-prototype objects
 * so that any table or field name, "__proto__" included, is kept as a key. A number token a double does not hold
 * (a NumberToken of the seed file's JSON) is kept as its text, every digit, which a number field reads exactly and a
 * text field keeps as written.
 */
function parseSeedRecords(raw: unknown, source: string): SeedData["records"] {
  if (raw === undefined) return undefined;
  const fail = (path: PropertyKey[], message: string) => new Error(`${source}: ${formatJsonPath(["records", ...path])}: ${message}`);
  if (!isObject(raw)) throw fail([], "must be an object of table names to arrays of records");
  const tables: Record<string, Record<string, string | number>[]> = Object.create(null);
  for (const [table, rows] of Object.entries(raw)) {
    if (!Array.isArray(rows)) throw fail([table], "must be an array of records");
    tables[table] = rows.map((row: unknown, index) => {
      if (!isObject(row)) throw fail([table, index], "must be an object of field names to values");
      const record: Record<string, string | number> = Object.create(null);
      for (const [field, given] of Object.entries(row)) {
        const value: unknown = given instanceof NumberToken ? given.text : given;
        if (typeof value !== "string" && !(typeof value === "number" && Number.isFinite(value))) {
          throw fail([table, index, field], "must be a string or a finite number");
        }
        record[field] = value;
      }
      return record;
    });
  }
  return tables;
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function seedAccounts(seed: SeedData): Account[] {
  return (seed.accounts ?? []).map((a): Account => {
    const privileges = a.privileges ? { privileges: a.privileges } : {};
    if ("oauth" in a) return { oauth: { requestId: a.oauth.requestId, identifier: a.oauth.identifier }, ...privileges };
    if ("fmid" in a) return { fmid: a.fmid, ...privileges };
    return { username: a.username, password: a.password, ...privileges };
  });
}

/**
 * Loads seed records into their tables, with auto-enter as if each were created. They are the file's records as
 * they are, not data entry (entry-options.ts): only fields that validate "always" are checked, as an import does.
 */
export function seedRecords(seed: SeedData, databases: Map<string, HostedDatabase>, clock: EmulatorClock, source = "<seed>"): void {
  for (const [tableName, rows] of Object.entries(seed.records ?? {})) {
    const table = findTable(databases, tableName, source);
    rows.forEach((row, index) => {
      const where = `${source}: records.${tableName}[${index}]`;
      const changes = Object.entries(row).map(([key, raw]) => seedChange(table, key, raw, `${where}["${key}"]`));
      try {
        commitRecord(table, buildNewRecord(table, changes, clock, FILE_GLOBALS, SCRIPT_ENTRY));
      } catch (error) {
        throw new Error(`${where}: ${(error as Error).message}`);
      }
    });
  }
}

function seedChange(table: TableData, key: string, raw: string | number, where: string): FieldChange {
  const m = /^(.*)\((\d+)\)$/s.exec(key);
  const field = table.model.fields.get(key) ?? (m ? table.model.fields.get(m[1]!) : undefined);
  if (!field) throw new Error(`${where}: table "${table.model.name}" has no such field`);
  const repetition = field.name === key ? 0 : Number(m![2]) - 1;
  if (repetition < 0 || repetition >= field.repetitions) throw new Error(`${where}: "${field.name}" has ${field.repetitions} repetition(s)`);
  if (field.type === "container") throw new Error(`${where}: container fields are filled by upload, or by a seed's files part (docs/emulator.md, "Snapshots")`);
  // A seeded value would hide the computation (docs/emulator.md, "Calculations and related fields").
  if (field.computed?.kind === "calculation") throw new Error(`${where}: "${field.name}" is a calculation, computed on every read; remove it from the seed`);
  if (field.computed) throw new Error(`${where}: "${field.name}" is a related field, joined through ${field.computed.describe}; seed the related record instead`);
  const decoded = decodeWireValue(field.type, raw);
  if (!decoded.ok) {
    const why = decoded.problem === undefined ? "" : `: ${decoded.problem}`;
    throw new Error(`${where}: ${describeInput(raw)} is not a valid ${field.type} (expected ${WIRE_FORM[field.type]})${why}`);
  }
  return { field, repetition, value: decoded.value };
}

function findTable(databases: Map<string, HostedDatabase>, name: string, source: string): TableData {
  const matches = [...databases.values()].flatMap((db) => (db.tables.has(name) ? [db.tables.get(name)!] : []));
  if (matches.length === 0) throw new Error(`${source}: records.${name}: no layout or table description has a table named "${name}"`);
  if (matches.length > 1) throw new Error(`${source}: records.${name}: several databases have a table named "${name}"`);
  return matches[0]!;
}
