import type { TableField } from "./model.js";
import { emptyValues, type GlobalScope, type HostedDatabase, type TableData } from "./store.js";
import { encodeWireValue, scriptValue, type ContainerRef, type StoredValue } from "./stored-value.js";

/**
 * Global field values (docs/emulator.md, "6. Globals"). As on a hosted FileMaker file, a global field has the
 * file's value (the seed data's, or empty) until a session sets it; what a session sets, through
 * `PATCH .../globals` or by writing the field in a create, edit or upload, only that session sees, and it is
 * forgotten with the session (logout, expiry, restart).
 *
 * A request runs against its session's scope (a {@link GlobalScope}, store.ts): the server hands handlers a
 * `HostedDatabase` whose `globals` is the session's (see {@link sessionDatabase}), and every read and write of a
 * global field goes through it.
 */

/** The file's own values: what seed data sets, and what a session reads for a global it has not set. */
export const FILE_GLOBALS: GlobalScope = {
  read: (table, field) => table.globals.get(field),
  write: (table, field, values) => {
    if (values) table.globals.set(field, values);
    else table.globals.delete(field);
    table.containers?.globalHolds(FILE_GLOBALS, table, field, values);
  },
  own: (table, field) => table.globals.get(field),
};

/** One session's global values, over the file's. */
export class SessionGlobals implements GlobalScope {
  private readonly values = new Map<TableData, Map<string, StoredValue[]>>();

  read(table: TableData, field: string): StoredValue[] | undefined {
    return this.values.get(table)?.get(field) ?? table.globals.get(field);
  }

  write(table: TableData, field: string, values: StoredValue[] | undefined): void {
    let own = this.values.get(table);
    if (!values) {
      own?.delete(field);
      return;
    }
    if (!own) this.values.set(table, (own = new Map()));
    own.set(field, values);
    table.containers?.globalHolds(this, table, field, values);
  }

  own(table: TableData, field: string): StoredValue[] | undefined {
    return this.values.get(table)?.get(field);
  }
}

/** The scope a database's reads and writes use (the file's when the request has no session). */
export function globalScopeOf(db: HostedDatabase): GlobalScope {
  return db.globals ?? FILE_GLOBALS;
}

/**
 * The hosted database as one session sees it: the same model and tables, with the session's global values and the
 * account name its writes auto-enter (none: a login or logout, which write nothing).
 */
export function sessionDatabase(db: HostedDatabase, globals: SessionGlobals, account?: string): HostedDatabase {
  return { ...db, globals, ...(account !== undefined ? { account } : {}) };
}

/** A global field by its fully qualified name (`TO::field`), and the table holding it. */
export interface QualifiedGlobal {
  table: TableData;
  field: TableField;
}

/**
 * Every field a fully qualified name can mean: `Table::field` (the table occurrence is the table's name, as the
 * emulator names occurrences after their tables), or a related field a layout shows outside a portal, which the
 * emulator keeps on each parent table under its whole name (`Globals::gUser` on Contacts). Empty when none is.
 */
export function fieldsByQualifiedName(db: HostedDatabase, name: string): QualifiedGlobal[] {
  const at = name.indexOf("::");
  if (at <= 0) return [];
  const found: QualifiedGlobal[] = [];
  const table = db.tables.get(name.slice(0, at));
  const local = table?.model.fields.get(name.slice(at + 2));
  if (table && local) found.push({ table, field: local });
  for (const other of db.tables.values()) {
    const whole = other.model.fields.get(name);
    if (whole) found.push({ table: other, field: whole });
  }
  return found;
}

/** The fully qualified name a script handler sees a global under. */
function qualifiedName(table: TableData, field: TableField): string {
  return field.name.includes("::") ? field.name : `${table.model.name}::${field.name}`;
}

/**
 * A session's global values as a script handler's `globals`: fully qualified names (`TO::field`, repetitions
 * as `TO::field(n)`) to wire values (a number a double does not hold as its decimal text: `scriptValue`), every
 * global field of the database; a snapshot taken when the handler starts.
 */
export function globalsSnapshot(db: HostedDatabase, containerUrl: (ref: ContainerRef) => string): Readonly<Record<string, string | number>> {
  const scope = globalScopeOf(db);
  const out: Record<string, string | number> = Object.create(null);
  for (const table of db.tables.values()) {
    for (const field of table.model.fields.values()) {
      if (!field.global) continue;
      const name = qualifiedName(table, field);
      const values = scope.read(table, field.name) ?? emptyValues(field);
      values.forEach((value, i) => {
        out[i === 0 ? name : `${name}(${i + 1})`] = scriptValue(encodeWireValue(field.type, value, containerUrl));
      });
    }
  }
  return Object.freeze(out);
}
