import { lookupCost } from "./field-index.js";
import type { DatabaseModel, PortalModel, TableField } from "./model.js";
import type { GlobalScope, StoredRecord, TableData } from "./store.js";
import { isContainerRef, isStoredNumber, type StoredValue } from "./stored-value.js";
import { numberText } from "./exact-number.js";

/**
 * The value records join on: empty keys join nothing; numbers and text compare as text, a number as its canonical
 * decimal text (every digit: two 58-digit keys differing in the last digit join different rows; never an exponent).
 */
export function joinKey(value: StoredValue | undefined): string | undefined {
  if (value === null || value === undefined || value === "" || isContainerRef(value)) return undefined;
  return isStoredNumber(value) ? numberText(value) : value;
}

/**
 * The portal's rows for one parent record: child records whose childField equals the parent's parentField. A
 * global parent key joins by the value the scope (a session's) sees, as a relationship from a global does.
 */
export function portalRows(portal: PortalModel, parentTable: TableData, parent: StoredRecord, childTable: TableData, globals?: GlobalScope): StoredRecord[] {
  if (!portal.relation) return [];
  return relatedRows(portal.relation.parentField, portal.relation.childField, parentTable, parent, childTable, globals);
}

/** The records of `childTable` whose `childField` equals the parent's `parentField`, in creation order. */
export function relatedRows(parentField: TableField, childField: TableField, parentTable: TableData, parent: StoredRecord, childTable: TableData, globals?: GlobalScope): StoredRecord[] {
  const key = joinKey(parentTable.valuesOf(parent, parentField, globals)[0]);
  if (key === undefined) return [];
  const index = childTable.index(childField, "join");
  if (index) return index.lookup(key).map((id) => childTable.records.get(id)!);
  // Global (and computed) key fields are not indexed: scan.
  const rows: StoredRecord[] = [];
  lookupCost.ids += childTable.records.size;
  for (const child of childTable.records.values()) {
    if (joinKey(childTable.valuesOf(child, childField, globals)[0]) === key) rows.push(child);
  }
  return rows;
}

/** One way along a relation: from a field of one table to the matching field of another (or the same) table. */
export interface RelationStep {
  fromField: TableField;
  toTable: string;
  toField: TableField;
}

/**
 * Every table's relations, both ways (a FileMaker relationship joins both ways), by the table occurrence at the
 * other end: the portals' `relation`s and the table descriptions' relations with `match` are the file's relations, and a
 * table occurrence is named by its table.
 * A pair of tables joined by two different pairs of fields has several steps for one name.
 */
export function relationSteps(model: DatabaseModel): Map<string, Map<string, RelationStep[]>> {
  const steps = new Map<string, Map<string, RelationStep[]>>();
  const add = (from: string, step: RelationStep) => {
    let byName = steps.get(from);
    if (!byName) steps.set(from, (byName = new Map()));
    const list = byName.get(step.toTable) ?? [];
    if (!list.some((s) => s.fromField === step.fromField && s.toField === step.toField)) list.push(step);
    byName.set(step.toTable, list);
  };
  for (const layout of model.layouts.values()) {
    for (const portal of layout.portals) {
      if (!portal.relation) continue;
      const { parentField, childField } = portal.relation;
      add(layout.table.name, { fromField: parentField, toTable: portal.table.name, toField: childField });
      if (portal.table !== layout.table) add(portal.table.name, { fromField: childField, toTable: layout.table.name, toField: parentField });
    }
  }
  // A table description's relation with `match` joins the same way (described-tables.ts).
  for (const table of model.tables.values()) {
    for (const join of table.described?.joins ?? []) {
      add(table.name, { fromField: join.field, toTable: join.table, toField: join.relatedField });
      if (join.table !== table.name) add(join.table, { fromField: join.relatedField, toTable: table.name, toField: join.field });
    }
  }
  return steps;
}

/** `Invoices::CustomerID = Customers::id`, as messages name a step. */
export function describeStep(from: string, step: RelationStep): string {
  return `${from}::${step.fromField.name} = ${step.toTable}::${step.toField.name}`;
}

/**
 * One record of the child table if it is a row of the portal for this parent (what {@link portalRows} would list),
 * else undefined: the record's own join key is compared with the parent's, so checking one row costs the same
 * whatever the portal's size (a write of every row of a large portal checks each row once).
 */
export function portalRow(portal: PortalModel, parentTable: TableData, parent: StoredRecord, childTable: TableData, recordId: number, globals?: GlobalScope): StoredRecord | undefined {
  if (!portal.relation) return undefined;
  const { parentField, childField } = portal.relation;
  const key = joinKey(parentTable.valuesOf(parent, parentField, globals)[0]);
  const child = childTable.records.get(recordId);
  if (key === undefined || !child) return undefined;
  return joinKey(childTable.valuesOf(child, childField, globals)[0]) === key ? child : undefined;
}
