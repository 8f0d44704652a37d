import { defaultTypeName, type FieldDescription, type LayoutDescriptionInput, type PortalDescription } from "../layout/index.js";
import { compareAttribute, fieldSummary, type Change } from "./change.js";

/**
 * What a pull changes in one layout description, for the report and for `--check` (change.ts). Breaking: a field or
 * portal removed, any retype, a different number of repetitions, a field becoming read-only or required (an added
 * required field that is not auto-entered too), a value list added or losing values, a value list's name changed or
 * gone (a sort naming it stops compiling).
 * `exact` has no change of its own: the file owns it and a pull never sets it (it only proposes it); the one change a
 * pull makes to it, dropping it from a field retyped away from number, is that field's retype.
 */

export function diffDescriptions(before: LayoutDescriptionInput, after: LayoutDescriptionInput): Change[] {
  const changes: Change[] = [];
  // A new TypeScript name renames every generated export, so code that imports the old ones stops compiling.
  const nameOf = (d: LayoutDescriptionInput) => d.name ?? defaultTypeName(d.layout);
  if (nameOf(before) !== nameOf(after)) changes.push({ kind: "changed", target: "layout", name: "name", attribute: "name", from: nameOf(before), to: nameOf(after), breaking: true });
  // The server's spelling of the layout changed (renamed in case only, as FileMaker finds it either way): the client
  // sends the new spelling; code compiled against the old one still runs (a new TypeScript name is the change above).
  if (before.layout !== after.layout) changes.push({ kind: "renamed", target: "layout", name: after.layout, from: before.layout, to: after.layout, breaking: false });
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
    const attribute = (name: string, from: unknown, to: unknown, breaking: boolean) => compareAttribute(changes, { target: "field", name: field.name, ...inPortal }, name, from, to, breaking);
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
