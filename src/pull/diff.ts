import { defaultTypeName, type FieldDescription, type LayoutDescriptionInput, type PortalDescription } from "../layout/index.js";

/**
 * What a pull changes in one description, for the report and for `--check`. A change is breaking when code
 * compiled against the old description may stop compiling or start failing at run time: a field or portal
 * removed, any retype, a different number of repetitions, a field becoming read-only or required (an added
 * required field that is not auto-entered too), a value list added or losing values, a value list's name changed or
 * gone (a sort naming it stops compiling).
 */

export type ChangeKind = "added" | "removed" | "retyped" | "changed";

export interface Change {
  kind: ChangeKind;
  /** `field`, `portal` or `layout` (the table). */
  target: "field" | "portal" | "layout";
  /** The field's or portal's name; the attribute's for a layout change. */
  name: string;
  /** Set for fields of a portal. */
  portal?: string;
  /** For `changed`: which attribute. */
  attribute?: string;
  from?: string;
  to?: string;
  breaking: boolean;
}

export function diffDescriptions(before: LayoutDescriptionInput, after: LayoutDescriptionInput): Change[] {
  const changes: Change[] = [];
  // A new TypeScript name renames every generated export, so code that imports the old ones stops compiling.
  const nameOf = (d: LayoutDescriptionInput) => d.name ?? defaultTypeName(d.layout);
  if (nameOf(before) !== nameOf(after)) changes.push({ kind: "changed", target: "layout", name: "name", attribute: "name", from: nameOf(before), to: nameOf(after), breaking: true });
  if (before.table !== after.table) changes.push({ kind: "changed", target: "layout", name: "table", attribute: "table", from: before.table, to: after.table, breaking: false });
  diffFields(before.fields, after.fields, undefined, changes);
  const beforePortals = new Map((before.portals ?? []).map((p) => [p.name, p]));
  const afterPortals = new Map((after.portals ?? []).map((p) => [p.name, p]));
  for (const portal of after.portals ?? []) {
    const old = beforePortals.get(portal.name);
    if (!old) changes.push({ kind: "added", target: "portal", name: portal.name, to: portalSummary(portal), breaking: false });
    else {
      if (old.table !== portal.table) changes.push({ kind: "changed", target: "portal", name: portal.name, attribute: "table", from: old.table, to: portal.table, breaking: false });
      diffFields(old.fields, portal.fields, portal.name, changes);
    }
  }
  for (const portal of before.portals ?? []) {
    if (!afterPortals.has(portal.name)) changes.push({ kind: "removed", target: "portal", name: portal.name, from: portalSummary(portal), breaking: true });
  }
  return changes;
}

function portalSummary(portal: PortalDescription): string {
  return `${portal.fields.length} field${portal.fields.length === 1 ? "" : "s"}`;
}

/** A field's type as the report shows it: `text`, `text[3]` for repetitions. */
export function fieldSummary(field: FieldDescription): string {
  return `${field.type}${(field.repetitions ?? 1) > 1 ? `[${field.repetitions}]` : ""}`;
}

function diffFields(before: readonly FieldDescription[], after: readonly FieldDescription[], portal: string | undefined, changes: Change[]): void {
  const inPortal = portal !== undefined ? { portal } : {};
  const old = new Map(before.map((f) => [f.name, f]));
  const now = new Set(after.map((f) => f.name));
  for (const field of after) {
    const was = old.get(field.name);
    if (!was) {
      const breaking = !!field.required && !field.autoEnter && !field.readOnly;
      changes.push({ kind: "added", target: "field", name: field.name, ...inPortal, to: fieldSummary(field), breaking });
      continue;
    }
    if (was.type !== field.type) {
      changes.push({ kind: "retyped", target: "field", name: field.name, ...inPortal, from: was.type, to: field.type, breaking: true });
    }
    const attribute = (name: string, from: unknown, to: unknown, breaking: boolean) => {
      if (JSON.stringify(from) !== JSON.stringify(to)) changes.push({ kind: "changed", target: "field", name: field.name, ...inPortal, attribute: name, from: show(from), to: show(to), breaking });
    };
    attribute("repetitions", was.repetitions ?? 1, field.repetitions ?? 1, true);
    attribute("readOnly", !!was.readOnly, !!field.readOnly, !!field.readOnly);
    attribute("required", !!was.required, !!field.required, !!field.required);
    const lostValues = was.valueList ? !field.valueList || was.valueList.some((v) => !field.valueList!.includes(v)) : !!field.valueList;
    attribute("valueList", was.valueList ?? null, field.valueList ?? null, !!field.valueList && lostValues);
    attribute("valueListName", was.valueListName ?? null, field.valueListName ?? null, was.valueListName !== undefined);
    attribute("global", !!was.global, !!field.global, false);
    attribute("autoEnter", was.autoEnter ?? null, field.autoEnter ?? null, false);
    attribute("unique", !!was.unique, !!field.unique, false);
  }
  for (const field of before) {
    if (!now.has(field.name)) changes.push({ kind: "removed", target: "field", name: field.name, ...inPortal, from: fieldSummary(field), breaking: true });
  }
}

function show(value: unknown): string {
  if (value === null) return "none";
  if (Array.isArray(value)) return value.map((v) => JSON.stringify(v)).join(", ");
  return String(value);
}
