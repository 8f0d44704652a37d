/**
 * How a request names a table's fields in `$filter`, `$select` and `$orderby`: double-quoted (FileMaker needs quotes
 * around names with spaces, underscores and names like `ID`; quoted names always work), or by FileMaker's field id
 * (`FMFID:n`) when the client addresses entities by id. A name that holds a double quote cannot be quoted (OData has
 * no escape inside a quoted name): it is sent by its id when the spec has one, and refused otherwise, naming the table
 * and the field. An id is sent as it is, so it must be `FMFID:` and digits: anything else in a hand-written spec is
 * refused rather than spliced into the query.
 */
import type { FieldKind } from "../core/field-types.js";
import { getOwn } from "../core/own.js";
import { loneSurrogateAt, type FilterFields } from "./filter.js";
import type { TableFieldSpec, TableSpec } from "./definition.js";

export interface FieldRefs extends FilterFields {
  /** The field's reference, as {@link FilterFields.field} gives it. */
  ref(name: string): string;
}

const FMFID = /^FMFID:[0-9]+$/;

export function fieldRefs(spec: TableSpec, entityIds: boolean): FieldRefs {
  const field = (name: string): { kind: FieldKind; ref: string; exact?: boolean } => {
    const found = typeof name === "string" ? (getOwn(spec.fields, name) as TableFieldSpec | undefined) : undefined;
    if (!found) throw new TypeError(`table "${spec.table}" has no field ${JSON.stringify(name)}`);
    const where = `field ${JSON.stringify(name)} of table "${spec.table}"`;
    if (found.id !== undefined && (typeof found.id !== "string" || !FMFID.test(found.id)))
      throw new TypeError(`${where} has the id ${JSON.stringify(found.id)}: a field id is "FMFID:" and digits`);
    if (entityIds || name.includes('"')) {
      if (found.id) return { kind: found.type, ref: found.id, exact: found.exact === true };
      if (entityIds) throw new TypeError(`${where} has no id (FMFID): entityIds: true addresses every field by its id; generate the table's definition with ids (fmgen pull --odata)`);
      throw new TypeError(`${where} holds a double quote: OData can only name it by its FMFID, which its definition lacks`);
    }
    if (loneSurrogateAt(name) >= 0) throw new TypeError(`${where} holds a lone surrogate, which no URL can carry`);
    return { kind: found.type, ref: `"${name}"`, exact: found.exact === true };
  };
  return { field, ref: (name) => field(name).ref };
}
