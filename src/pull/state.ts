import { z } from "zod";
import { FIELD_TYPES } from "../layout/index.js";
import { foldName, sameName } from "../layout/filemaker-names.js";
import { compareCodeUnits, formatJson, formatJsonPath, parseJson, readIfExists } from "../project/index.js";
import type { LiveField, LiveLayout, LivePortal } from "./live.js";
import type { BaseTable, BaseTableField } from "./odata/merge.js";

/**
 * `fmgen.pulled.json`, beside fmgen.config.json: what the server said at the last pull, per layout (its metadata
 * endpoint) and per table (`$metadata`, with --odata). It is the common ancestor of a three-way merge (ownership.ts):
 * a value in a description that differs from it was changed by hand and is kept while the server keeps saying the
 * same. It holds no credentials. For a layout pulled by sampling it records the types and repetitions inferred (not
 * their confidence, which moves with the data); for a table, what the merge decides three ways (BaseTable). A file
 * written before tables had a base has no `tables`: each table then has none, and the server's values win.
 */

export const PULL_STATE_FILE_NAME = "fmgen.pulled.json";

// A file of layouts only keeps the words it always had, so that no project's file changes until it pulls tables.
const COMMENT = "Written by fmgen pull: what the server said about each layout at the last pull, so that hand edits to the layout descriptions survive the next one. Commit it; do not edit it.";
const COMMENT_WITH_TABLES = "Written by fmgen pull: what the server said about each layout and table at the last pull, so that hand edits to the descriptions survive the next one. Commit it; do not edit it.";

const fieldSchema = z
  .object({
    name: z.string(),
    type: z.enum(FIELD_TYPES),
    repetitions: z.number().int().min(1).optional(),
    calculated: z.boolean().optional(),
    required: z.boolean().optional(),
    global: z.boolean().optional(),
    autoEnter: z.boolean().optional(),
    valueList: z.array(z.string()).optional(),
    valueListName: z.string().optional(),
  })
  .strict();

const layoutSchema = z
  .object({
    database: z.string(),
    layout: z.string(),
    source: z.enum(["metadata", "sample"]),
    table: z.string().optional(),
    fields: z.array(fieldSchema),
    portals: z.array(z.object({ name: z.string(), fields: z.array(fieldSchema) }).strict()).optional(),
  })
  .strict();

const tableFieldSchema = z
  .object({
    name: z.string(),
    id: z.string().optional(),
    type: z.enum(FIELD_TYPES),
    repetitions: z.number().int().min(1).optional(),
    notNull: z.boolean().optional(),
    readOnly: z.boolean().optional(),
    global: z.boolean().optional(),
    maxLength: z.number().int().min(1).optional(),
  })
  .strict();

const tableSchema = z
  .object({ database: z.string(), table: z.string(), id: z.string().optional(), key: z.string().optional(), fields: z.array(tableFieldSchema) })
  .strict();

const stateSchema = z.object({ $comment: z.string().optional(), layouts: z.array(layoutSchema), tables: z.array(tableSchema).optional() }).strict();

type SnapshotField = z.infer<typeof fieldSchema>;
type SnapshotLayout = z.infer<typeof layoutSchema>;
type SnapshotTable = z.infer<typeof tableSchema>;

/** The layouts of a pull state, by `database` and `layout`; its tables, by `database` and id (else name). */
export class PullState {
  private readonly layouts = new Map<string, LiveLayout>();
  private readonly tables: SnapshotTable[] = [];

  /** `readText`: the file as read (undefined when there was none), so that a pull rewrites it only when it changed. */
  private constructor(readonly readText?: string) {}

  static async read(file: string): Promise<PullState> {
    const text = await readIfExists(file);
    if (text === undefined) return new PullState();
    let json: unknown;
    try {
      json = parseJson(text);
    } catch (error) {
      throw new Error(`${file}: ${(error as Error).message}; delete it and pull again`);
    }
    const parsed = stateSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`${file}: ${formatJsonPath(issue.path)}: ${issue.message}; delete it and pull again`);
    }
    const state = new PullState(text);
    for (const layout of parsed.data.layouts) state.set(fromSnapshot(layout));
    state.tables.push(...(parsed.data.tables ?? []));
    return state;
  }

  /** What `$metadata` said of `live` at the last pull: the table of its FMTID, else (neither telling ids) of its name. */
  table(database: string, live: { table: string; id?: string | undefined }): BaseTable | undefined {
    const found = this.findTable(database, live);
    return found && { table: found.table, ...(found.id !== undefined ? { id: found.id } : {}), ...(found.key !== undefined ? { key: found.key } : {}), fields: found.fields.map(fromTableSnapshot) };
  }

  /** Keeps what `$metadata` says of `live` now, in place of what it said of the same table before. */
  setTable(database: string, live: BaseTable): void {
    const found = this.findTable(database, live);
    if (found) this.tables.splice(this.tables.indexOf(found), 1);
    this.tables.push(toTableSnapshot(database, live));
  }

  private findTable(database: string, live: { table: string; id?: string | undefined }): SnapshotTable | undefined {
    const ours = this.tables.filter((t) => t.database === database);
    // By name as FileMaker matches it (a table renamed in case only is the same table): the exact name first.
    const byName = ours.filter((t) => t.id === undefined || live.id === undefined);
    return (live.id !== undefined ? ours.find((t) => t.id === live.id) : undefined) ?? byName.find((t) => t.table === live.table) ?? byName.find((t) => sameName(t.table, live.table));
  }

  get(database: string, layout: string): LiveLayout | undefined {
    return this.layouts.get(key(database, layout));
  }

  set(live: LiveLayout): void {
    this.layouts.set(key(live.database, live.layout), live);
  }

  /** The file's text: layouts and tables sorted by database and name, deterministic. */
  format(): string {
    const layouts = [...this.layouts.values()].sort((a, b) => compareCodeUnits(a.database, b.database) || compareCodeUnits(a.layout, b.layout));
    const tables = [...this.tables].sort((a, b) => compareCodeUnits(a.database, b.database) || compareCodeUnits(a.table, b.table));
    return formatJson({ $comment: tables.length > 0 ? COMMENT_WITH_TABLES : COMMENT, layouts: layouts.map(toSnapshot), ...(tables.length > 0 ? { tables } : {}) });
  }
}

/**
 * A layout's key: its database as configured, and its name as FileMaker matches it (case aside), so that a layout the
 * server renamed in case only keeps its base, and its entry is replaced, not doubled, under the new spelling.
 */
function key(database: string, layout: string): string {
  return JSON.stringify([database, foldName(layout)]);
}

function toSnapshot(live: LiveLayout): SnapshotLayout {
  const field = (f: LiveField): SnapshotField => ({
    name: f.name,
    type: f.type,
    ...(f.repetitions > 1 ? { repetitions: f.repetitions } : {}),
    ...(f.calculated ? { calculated: true } : {}),
    ...(f.required ? { required: true } : {}),
    ...(f.global ? { global: true } : {}),
    ...(f.autoEnter ? { autoEnter: true } : {}),
    ...(f.valueList ? { valueList: [...f.valueList] } : {}),
    ...(typeof f.valueListName === "string" ? { valueListName: f.valueListName } : {}),
  });
  return {
    database: live.database,
    layout: live.layout,
    source: live.source,
    ...(live.table !== undefined ? { table: live.table } : {}),
    fields: live.fields.map(field),
    ...(live.portals.length ? { portals: live.portals.map((p) => ({ name: p.name, fields: p.fields.map(field) })) } : {}),
  };
}

function fromSnapshot(snapshot: SnapshotLayout): LiveLayout {
  // Sampling tells only types and repetitions; the rest stays unknown.
  const field = (f: SnapshotField): LiveField =>
    snapshot.source === "sample"
      ? { name: f.name, type: f.type, repetitions: f.repetitions ?? 1 }
      : {
          name: f.name,
          type: f.type,
          repetitions: f.repetitions ?? 1,
          calculated: f.calculated ?? false,
          required: f.required ?? false,
          global: f.global ?? false,
          autoEnter: f.autoEnter ?? false,
          valueList: f.valueList ?? null,
          valueListName: f.valueListName ?? null,
        };
  const portals: LivePortal[] = (snapshot.portals ?? []).map((p) => ({ name: p.name, fields: p.fields.map(field) }));
  return {
    database: snapshot.database,
    layout: snapshot.layout,
    source: snapshot.source,
    ...(snapshot.table !== undefined ? { table: snapshot.table } : {}),
    fields: snapshot.fields.map(field),
    portals,
    notes: [],
  };
}

function toTableSnapshot(database: string, live: BaseTable): SnapshotTable {
  return {
    database,
    table: live.table,
    ...(live.id !== undefined ? { id: live.id } : {}),
    ...(live.key !== undefined ? { key: live.key } : {}),
    fields: live.fields.map((f) => ({
      name: f.name,
      ...(f.id !== undefined ? { id: f.id } : {}),
      type: f.type,
      ...(f.repetitions > 1 ? { repetitions: f.repetitions } : {}),
      ...(f.notNull ? { notNull: true } : {}),
      ...(f.readOnly ? { readOnly: true } : {}),
      ...(f.global ? { global: true } : {}),
      ...(f.maxLength !== undefined ? { maxLength: f.maxLength } : {}),
    })),
  };
}

function fromTableSnapshot(f: SnapshotTable["fields"][number]): BaseTableField {
  return {
    name: f.name,
    ...(f.id !== undefined ? { id: f.id } : {}),
    type: f.type,
    repetitions: f.repetitions ?? 1,
    notNull: f.notNull ?? false,
    readOnly: f.readOnly ?? false,
    global: f.global ?? false,
    ...(f.maxLength !== undefined ? { maxLength: f.maxLength } : {}),
  };
}
