/**
 * How a request names a table's fields in `$filter`, `$select` and `$orderby`: double-quoted (FileMaker needs quotes
 * around names with spaces, underscores and names like `ID`; quoted names always work), or by FileMaker's field id
 * (`FMFID:n`) when the client addresses entities by id. A name that holds a double quote cannot be quoted: it is sent
 * by its id when the spec has one, and refused otherwise, naming the table and the field.
 */
import type { FieldKind } from "../definition.js";
import { getOwn } from "../own.js";
import type { FilterFields } from "./filter.js";
import type { TableFieldSpec, TableSpec } from "./definition.js";

export interface FieldRefs extends FilterFields {
  /** The field's reference, as {@link FilterFields.field} gives it. */
  ref(name: string): string;
}

export function fieldRefs(spec: TableSpec, entityIds: boolean): FieldRefs {
  const field = (name: string): { kind: FieldKind; ref: string } => {
    const found = typeof name === "string" ? (getOwn(spec.fields, name) as TableFieldSpec | undefined) : undefined;
    if (!found) throw new TypeError(`table "${spec.table}" has no field ${JSON.stringify(name)}`);
    if ((entityIds || name.includes('"')) && found.id) return { kind: found.type, ref: found.id };
    if (name.includes('"')) throw new TypeError(`field ${JSON.stringify(name)} of table "${spec.table}" holds a double quote: OData can only name it by its FMFID, which its definition lacks`);
    return { kind: found.type, ref: `"${name}"` };
  };
  return { field, ref: (name) => field(name).ref };
}
