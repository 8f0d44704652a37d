/** The types of `od.schema`: FileMaker's DDL over OData (wire contract section 6). Implemented by schema.ts. */
import type { CallOptions } from "./shapes.js";

/** A field as `createTable` and `addFields` declare it. */
export interface NewField {
  /** The field's name. */
  name: string;
  /** FileMaker's SQL type names: `varchar(100)`, `int`, `numeric`, `date`, `time`, `timestamp`, `blob`; `[n]` repeats. */
  type: string;
  /** The table's primary key (`PRIMARY KEY`). */
  primary?: boolean;
  /** Values must be unique (`UNIQUE`). */
  unique?: boolean;
  /** `false`: a value is required (`NOT NULL`). */
  nullable?: boolean;
  /** A global field: one value per session, not per row. */
  global?: boolean;
  /** `CURRENT_DATE`, `CURRENT_TIME`, `CURRENT_TIMESTAMP`, `USER`, ... */
  default?: string;
  /** Containers: the folder of externally stored files. */
  externalSecurePath?: string;
}

/** What `createTable` and `addFields` answer: the table and the fields it took. */
export interface TableChange {
  /** The table created or changed. */
  tableName: string;
  /** The fields it took, as the server states them. */
  fields: NewField[];
  /**
   * `addFields`: the fields that could not be added while the others were (FileMaker adds each good field on its own),
   * with the server's error. Absent when every field was added.
   */
  failedFields?: { name: string | null; error: { code: string; message: string } }[];
}

/** `od.schema`: FileMaker's schema changes over OData (needs an account with full access). */
export interface SchemaCalls {
  /** Creates a table with these fields. */
  createTable(name: string, fields: NewField[], options?: CallOptions): Promise<TableChange>;
  /** Adds fields to a table; each good field is added even if another fails (see `failedFields`). */
  addFields(table: string, fields: NewField[], options?: CallOptions): Promise<TableChange>;
  /** Deletes a table and its rows. */
  deleteTable(table: string, options?: CallOptions): Promise<void>;
  /** Deletes a field of a table, and its values. */
  deleteField(table: string, field: string, options?: CallOptions): Promise<void>;
  /** Indexes a field (finds and sorts on it get faster). */
  createIndex(table: string, field: string, options?: CallOptions): Promise<void>;
  /** Drops a field's index. */
  deleteIndex(table: string, field: string, options?: CallOptions): Promise<void>;
}
