import { describeIssue, descriptionFiles, JsonFileError, readJsonFile, TABLE_FILE_SUFFIX, type DiscoveryOptions } from "../project/index.js";
import { DATABASE_FILE_SUFFIX } from "./database-load.js";
import { defaultTypeName, type LayoutDescription } from "./description.js";
import { layoutDescriptionSchema } from "./schema.js";

/** A description file that cannot be used; the message names the file and the JSON path of each problem. */
export class LayoutFileError extends JsonFileError {}

/** Validates an already-parsed description; `source` names it in errors. */
export function parseLayoutDescription(json: unknown, source = "<layout>"): LayoutDescription {
  const result = layoutDescriptionSchema.safeParse(json);
  if (!result.success) throw new LayoutFileError(source, result.error.issues.map(describeIssue));
  const { $schema: _schema, name, portals, ...rest } = result.data;
  return { ...rest, name: name ?? defaultTypeName(rest.layout), portals: portals ?? [], source };
}

/** Reads and validates one `*.layout.json` file. */
export async function loadLayoutFile(file: string): Promise<LayoutDescription> {
  return parseLayoutDescription(await readJsonFile(file, LayoutFileError), file);
}

/**
 * Loads the descriptions that files, folders (every `*.layout.json` inside, sorted by name) and globs name, in the
 * order given, each file once (see `descriptionFiles`).
 */
export async function loadLayouts(entries: readonly string[]): Promise<LayoutDescription[]> {
  return Promise.all((await layoutDescriptionFiles(entries)).map(loadLayoutFile));
}

/**
 * The layout description files entries name (see `descriptionFiles`), without the database descriptions
 * (`*.database.json`) and table descriptions (`*.table.json`) that an entry names or a glob matches
 * (`layouts/*.json`): those are read as databases and as tables.
 */
export async function layoutDescriptionFiles(entries: readonly string[], options: DiscoveryOptions = {}): Promise<string[]> {
  return (await descriptionFiles(entries, options)).filter((file) => !file.endsWith(DATABASE_FILE_SUFFIX) && !file.endsWith(TABLE_FILE_SUFFIX));
}
