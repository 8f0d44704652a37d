import { defaultTypeName } from "../layout/description.js";
import type { TableDescriptionInput, TableFieldDescription, TableRelationDescription } from "./schema.js";

/** A validated table description with its defaults applied: what every other part of fmgen consumes. */
export interface TableDescription extends Omit<TableDescriptionInput, "$schema" | "name" | "relations"> {
  /** The TypeScript name: the description's, or the PascalCase of `table` (bounded, as a layout's is). */
  name: string;
  /** The navigation properties; absent when the description lists none (`relations` left out). */
  relations?: TableRelationDescription[];
  /** Where it was read from, for error messages; absent for in-memory descriptions. */
  source?: string;
}

export type { TableFieldDescription, TableRelationDescription };

/** `Contacts Web` -> `ContactsWeb`: a table's default TypeScript name, by the layout description's rule. */
export function defaultTableTypeName(table: string): string {
  return defaultTypeName(table);
}

/** How messages name a description: its file, or the table it describes. */
export function tableSource(description: Pick<TableDescription, "source" | "database" | "table">): string {
  return description.source ?? `table "${description.table}" of database "${description.database}"`;
}
