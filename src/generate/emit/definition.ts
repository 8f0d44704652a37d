import { repetitionsOf, type FieldDescription } from "../../layout/index.js";
import type { LayoutPlan } from "../plan/layout-plan.js";
import { objectLiteral, withDocs } from "../print.js";
import { docText, literalKey, stringLiteral } from "../text.js";

/**
 * `export const <Name> = defineLayout<<Name>Fields>()({ ... });`: the layout's spec, each fact about a field stated
 * once. Its database and base table come first: the runtime's types compare them (`fm.layout()` of a client for
 * another database, a `response` layout of another table fail to compile). The fields create and edit may write are under `fields`, the read-only ones under `readOnly`, the
 * containers under `containers` (so the runtime's types need not filter fields one by one; the runtime joins them
 * again), each group in description order; portal fields say `readOnly` and `type: "container"` themselves.
 */
export function emitDefinition(plan: LayoutPlan, name: string, call: string, validateRecords: boolean): string {
  const { layout, portals } = plan;
  const group = (fields: readonly FieldDescription[], spec: (f: FieldDescription) => string) => fields.map((f) => [literalKey(f.name), spec(f)] as const);
  const containers = layout.fields.filter((f) => f.type === "container");
  const readOnly = layout.fields.filter((f) => f.type !== "container" && f.readOnly);
  const writable = layout.fields.filter((f) => f.type !== "container" && !f.readOnly);
  const entries: (readonly [string, string])[] = [
    ["database", stringLiteral(layout.database)],
    ["layout", stringLiteral(layout.layout)],
    ["table", stringLiteral(layout.table)],
    ["fields", objectLiteral(group(writable, (f) => fieldSpecText(f, false)), "  ")],
  ];
  if (readOnly.length) entries.push(["readOnly", objectLiteral(group(readOnly, (f) => fieldSpecText(f, false)), "  ")]);
  if (containers.length) entries.push(["containers", objectLiteral(group(containers, containerSpecText), "  ")]);
  if (portals.length) {
    const portalEntries = portals.map(({ portal }) => [literalKey(portal.name), objectLiteral([["fields", objectLiteral(group(portal.fields, (f) => fieldSpecText(f, true)), "      ")]], "    ")] as const);
    entries.push(["portals", objectLiteral(portalEntries, "  ")]);
  }
  if (!validateRecords) entries.push(["validate", "false"]);
  if (plan.valueLists.length) entries.push(["valueLists", `[${plan.valueLists.map(stringLiteral).join(", ")}]`]);
  return withDocs(layoutDocs(plan), `export const ${name} = ${call}${objectLiteral(entries, "")});`);
}

/**
 * A field's runtime spec (`FieldSpec`), on one line: its type, `exact` (a number field read as decimal text),
 * repetitions and value list, and where no group says so (portal fields), `readOnly`.
 */
export function fieldSpecText(field: FieldDescription, withReadOnly: boolean): string {
  const parts = [`type: ${stringLiteral(field.type)}`];
  if (field.type === "number" && field.exact) parts.push("exact: true");
  const n = repetitionsOf(field);
  if (n !== 1) parts.push(`repetitions: ${n}`);
  if (withReadOnly && field.readOnly) parts.push("readOnly: true");
  if (field.valueList && field.type !== "container") parts.push(`valueList: [${field.valueList.map(stringLiteral).join(", ")}]`);
  return `{ ${parts.join(", ")} }`;
}

/** A container's spec in `containers`: `{}`, or its repetitions. */
export function containerSpecText(field: FieldDescription): string {
  const n = repetitionsOf(field);
  return n === 1 ? "{}" : `{ repetitions: ${n} }`;
}

/** JSDoc of the definition: the layout's description, then where the layout lives. */
export function layoutDocs(plan: LayoutPlan): string {
  const { layout } = plan;
  const where = docText(`Layout ${stringLiteral(layout.layout)} of database ${stringLiteral(layout.database)} (table ${stringLiteral(layout.table)}).`);
  return layout.description && docText(layout.description) ? `${docText(layout.description)}\n\n${where}` : where;
}
