/** The types of `od.schema`: FileMaker's DDL over OData (wire contract section 6). Implemented by schema.ts. */
import type { CallOptions } from "./shapes.js";

/** A field as `createTable` and `addFields` declare it. */
export interface NewField {
  name: string;
  /** FileMaker's SQL type names: `varchar(100)`, `int`, `numeric`, `date`, `time`, `timestamp`, `blob`; `[n]` repeats. */
  type: string;
  primary?: boolean;
  unique?: boolean;
  nullable?: boolean;
  global?: boolean;
  /** `CURRENT_DATE`, `CURRENT_TIME`, `CURRENT_TIMESTAMP`, `USER`, ... */
  default?: string;
  /** Containers: the folder of externally stored files. */
  externalSecurePath?: string;
}

/** What `createTable` and `addFields` answer: the table and the fields it took. */
export interface TableChange {
  tableName: string;
  fields: NewField[];
  /**
   * `addFields`: the fields that could not be added while the others were (FileMaker adds each good field on its own,
   * section 6), with the server's error. Absent when every field was added.
   */
  failedFields?: { name: string | null; error: { code: string; message: string } }[];
}

export interface SchemaCalls {
  createTable(name: string, fields: NewField[], options?: CallOptions): Promise<TableChange>;
  addFields(table: string, fields: NewField[], options?: CallOptions): Promise<TableChange>;
  deleteTable(table: string, options?: CallOptions): Promise<void>;
  deleteField(table: string, field: string, options?: CallOptions): Promise<void>;
  createIndex(table: string, field: string, options?: CallOptions): Promise<void>;
  deleteIndex(table: string, field: string, options?: CallOptions): Promise<void>;
}
