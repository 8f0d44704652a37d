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

export interface TableChange {
  tableName: string;
  fields: NewField[];
}

export interface SchemaCalls {
  createTable(name: string, fields: NewField[], options?: CallOptions): Promise<TableChange>;
  addFields(table: string, fields: NewField[], options?: CallOptions): Promise<TableChange>;
  deleteTable(table: string, options?: CallOptions): Promise<void>;
  deleteField(table: string, field: string, options?: CallOptions): Promise<void>;
  createIndex(table: string, field: string, options?: CallOptions): Promise<void>;
  deleteIndex(table: string, field: string, options?: CallOptions): Promise<void>;
}
