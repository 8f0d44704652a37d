import { defaultTableTypeName, type TableDescriptionInput, type TableFieldDescription } from "../../table/index.js";
import { compareAttribute, fieldSummary, type Change } from "../change.js";
import { fieldMatcher } from "./merge.js";

/**
 * What a pull changes in one table description, for the report and `--check` (change.ts). A field or table renamed in
 * FileMaker (the same FMFID/FMTID under a new name) is a rename, not a removal and an addition. Breaking: code
 * compiled against the old description may stop compiling or start failing: a field or relation removed, a field
 * renamed (its property in the row type is), a retype, other repetitions, a field becoming read-only, or notNull
 * without auto-enter (an added one too), a new key, a new TypeScript name, a smaller maxLength. `exact` has no change of
 * its own, as in a layout (../diff.ts): the file owns it, and a pull drops it only with a retype away from number.
 */

export function diffTables(before: TableDescriptionInput, after: TableDescriptionInput): Change[] {
  const changes: Change[] = [];
  const table = (attribute: string, from: string | undefined, to: string | undefined, breaking: boolean) => compareAttribute(changes, { target: "table", name: attribute }, attribute, from, to, breaking);
  if (before.table !== after.table) changes.push({ kind: "renamed", target: "table", name: after.table, from: before.table, to: after.table, breaking: false });
  const nameOf = (d: TableDescriptionInput) => d.name ?? defaultTableTypeName(d.table);
  table("name", nameOf(before), nameOf(after), true);
  table("id", before.id, after.id, false);
  table("key", before.key, after.key, true);
  table("description", before.description, after.description, false);

  const match = fieldMatcher(before.fields);
  const matched = new Set<TableFieldDescription>();
  for (const field of after.fields) {
    const was = match(field);
    if (!was) {
      changes.push({ kind: "added", target: "field", name: field.name, to: fieldSummary(field), breaking: !!field.notNull && !field.autoEnter && !field.readOnly });
      continue;
    }
    matched.add(was);
    diffField(was, field, changes);
  }
  for (const field of before.fields) {
    if (!matched.has(field)) changes.push({ kind: "removed", target: "field", name: field.name, from: fieldSummary(field), breaking: true });
  }

  const relation = (r: { table: string; many: boolean }) => `${r.many ? "many" : "one"} ${r.table}`;
  const old = new Map((before.relations ?? []).map((r) => [r.name, r]));
  const now = new Set((after.relations ?? []).map((r) => r.name));
  for (const r of after.relations ?? []) {
    const was = old.get(r.name);
    if (!was) changes.push({ kind: "added", target: "relation", name: r.name, to: relation(r), breaking: false });
    else if (relation(was) !== relation(r)) changes.push({ kind: "changed", target: "relation", name: r.name, attribute: "table", from: relation(was), to: relation(r), breaking: true });
  }
  for (const r of before.relations ?? []) if (!now.has(r.name)) changes.push({ kind: "removed", target: "relation", name: r.name, from: relation(r), breaking: true });
  return changes;
}

function diffField(was: TableFieldDescription, field: TableFieldDescription, changes: Change[]): void {
  if (was.name !== field.name) changes.push({ kind: "renamed", target: "field", name: field.name, from: was.name, to: field.name, breaking: true });
  if (was.type !== field.type) changes.push({ kind: "retyped", target: "field", name: field.name, from: was.type, to: field.type, breaking: true });
  const attribute = (name: string, from: unknown, to: unknown, breaking: boolean) => compareAttribute(changes, { target: "field", name: field.name }, name, from, to, breaking);
  attribute("repetitions", was.repetitions ?? 1, field.repetitions ?? 1, true);
  attribute("readOnly", !!was.readOnly, !!field.readOnly, !!field.readOnly);
  attribute("notNull", !!was.notNull, !!field.notNull, !!field.notNull && !field.autoEnter);
  attribute("global", !!was.global, !!field.global, false);
  attribute("autoEnter", was.autoEnter, field.autoEnter, false);
  attribute("maxLength", was.maxLength, field.maxLength, field.maxLength !== undefined && (was.maxLength === undefined || field.maxLength < was.maxLength));
  attribute("id", was.id, field.id, false);
  attribute("description", was.description, field.description, false);
}
