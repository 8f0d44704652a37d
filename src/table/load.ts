import { describeIssue, descriptionFiles, JsonFileError, LAYOUT_FILE_SUFFIX, readJsonFile, TABLE_FILE_SUFFIX } from "../project/index.js";
import { defaultTableTypeName, tableSource, type TableDescription } from "./description.js";
import { idNumber, tableDescriptionSchema } from "./schema.js";

/** A table description that cannot be used; the message names the file and the JSON path of each problem. */
export class TableFileError extends JsonFileError {}

export { TABLE_FILE_SUFFIX };

/** Validates one already-parsed table description; `source` names it in errors. */
export function parseTableDescription(json: unknown, source = "<table>"): TableDescription {
  const result = tableDescriptionSchema.safeParse(json);
  if (!result.success) throw new TableFileError(source, result.error.issues.map(describeIssue));
  const { $schema: _schema, name, relations, ...rest } = result.data;
  return { ...rest, name: name ?? defaultTableTypeName(rest.table), ...(relations ? { relations } : {}), source };
}

/** Reads and validates one `<Name>.table.json` file. */
export async function loadTableFile(file: string): Promise<TableDescription> {
  return parseTableDescription(await readJsonFile(file, TableFileError), file);
}

/**
 * The table description files entries name: files, folders (every `*.table.json` inside, sorted by name) and globs,
 * each file once, in the order given (see `descriptionFiles`); a missing entry or an empty folder is an error. Layout
 * and database descriptions (`*.layout.json`, `*.database.json`) an entry names or a glob matches are left to their
 * own loaders, as layouts leave table descriptions, so that one folder may hold all three.
 */
export async function tableDescriptionFiles(entries: readonly string[]): Promise<string[]> {
  return (await descriptionFiles(entries, { suffix: TABLE_FILE_SUFFIX })).filter((file) => !file.endsWith(LAYOUT_FILE_SUFFIX) && !file.endsWith(".database.json"));
}

/** Loads each file entries name, validating each on its own (see {@link checkTableDescriptions} for the set). */
export async function loadTableFiles(entries: readonly string[]): Promise<TableDescription[]> {
  return Promise.all((await tableDescriptionFiles(entries)).map(loadTableFile));
}

/** Loads the table descriptions entries name and checks them as one set ({@link checkTableDescriptions}). */
export async function loadTables(entries: readonly string[]): Promise<TableDescription[]> {
  const tables = await loadTableFiles(entries);
  checkTableDescriptions(tables);
  return tables;
}

export interface TableSetOptions {
  /**
   * Tables of a database known from elsewhere (the emulator's layouts), which relations may reach besides the
   * described ones.
   */
  otherTables?: (database: string) => ReadonlySet<string>;
}

/**
 * Checks descriptions as one set: each table occurrence of a database described once, table ids (FMTID) and field
 * ids (FMFID) each used once in a database, and every relation reaching a table of its database. The error names the
 * later file and the path in it, and the earlier file.
 */
export function checkTableDescriptions(tables: readonly TableDescription[], options: TableSetOptions = {}): void {
  const byDatabase = new Map<string, TableDescription[]>();
  for (const table of tables) byDatabase.set(table.database, [...(byDatabase.get(table.database) ?? []), table]);
  for (const [database, described] of byDatabase) {
    const names = new Map<string, TableDescription>();
    const ids = new Map<number, { table: TableDescription; path: string }>();
    const fail = (table: TableDescription, path: string, message: string): never => {
      throw new TableFileError(tableSource(table), [{ path, message }]);
    };
    for (const table of described) {
      const first = names.get(table.table);
      if (first) fail(table, "table", `table "${table.table}" of database "${database}" is also described by ${tableSource(first)}`);
      names.set(table.table, table);
      // FMTIDs and FMFIDs never meet (an FMFID is at least 2^32), so one map holds both.
      const claim = (id: string, path: string) => {
        const earlier = ids.get(idNumber(id));
        if (earlier) fail(table, path, `id "${id}" is also used by ${tableSource(earlier.table)} at ${earlier.path}`);
        ids.set(idNumber(id), { table, path });
      };
      if (table.id !== undefined) claim(table.id, "id");
      table.fields.forEach((field, i) => field.id !== undefined && claim(field.id, `fields[${i}].id`));
    }
    const others = options.otherTables?.(database) ?? new Set<string>();
    for (const table of described) {
      table.relations?.forEach((relation, i) => {
        if (!names.has(relation.table) && !others.has(relation.table)) {
          fail(table, `relations[${i}].table`, `names no table of database "${database}": "${relation.table}" (${options.otherTables ? "neither a table description nor a layout has it" : "no table description has it"})`);
        }
      });
    }
  }
}
