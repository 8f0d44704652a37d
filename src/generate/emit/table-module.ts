import { compareCodeUnits, type ImportExtension } from "../../project/index.js";
import type { TableFieldDescription } from "../../table/index.js";
import { TABLE_IMPORTS, TABLE_RUNTIME_MODULE, type TablePlan } from "../plan/table-plan.js";
import { importStatement, importStatements, objectLiteral, objectType, printedModule, relativeSpecifier, withDocs, type ImportedName, type PrintedFile } from "../print.js";
import type { LayoutModuleTemplate } from "../template.js";
import { docText, literalKey, propertyKey, stringLiteral } from "../text.js";
import { formatHint, readMembers, TEMPORAL_HINTS } from "./field-types.js";

/** What a table module may import from the runtime: its one value, `defineTable`, and types. */
const RUNTIME_IMPORTS: readonly ImportedName[] = TABLE_IMPORTS.map((name) => ({ name, isTypeOnly: name !== "defineTable", from: TABLE_RUNTIME_MODULE }));

/**
 * One table's module (OData), statement by statement, each fact about the table stated once:
 * - `<N>Spec`: `defineTable<<N>Row, <N>Relations>()({ database, table, id?, key?, fields, relations? })`, not
 *   exported (an app passes `<N>`, the same value, to `od.table()`; one export per table). The spec says what the
 *   runtime needs of each field (kind, read-only, repetitions, notNull, auto-enter, FMFID) and of each relation (its
 *   table, `many`, and its target's definition as a typed thunk, so that two modules may name each other); the
 *   runtime derives every other shape from it.
 * - `<N>`: the same value typed `<N>Definition`, what is passed to `od.table()`. `<N>Definition` (an interface with
 *   the shapes' second base, below) carries `<N>Types`, the spec's shapes each by its name below (as a layout
 *   module's `<N>Layout` does), so that a compiler message about a call names `ContactsInsert` or
 *   `ContactsFieldName`, not the derivation with the whole spec.
 * - `<N>Row`: the read shape, each field's TypeScript type and its JSDoc (description, what its strings hold, global,
 *   maximum length): the one place the types are written.
 * - `<N>Relations`: relation name -> `typeof <Target>`. An interface, never an inline type: two tables that relate
 *   both ways would otherwise each have a type "referenced in its own initializer".
 * - `<N>Insert`, `<N>Update`, `<N>Kinds`, `<N>Expand`: interfaces that extend what the runtime derives from the spec
 *   and a second, empty base (`Record<never, never>`), so that the compiler prints their names, not the derivation
 *   (an interface with one base and no members of its own is shown as its base).
 * - `<N>FieldName`: the union of the row's field names, an alias (which the compiler prints by name).
 * - `<N>Filter`: `Filter<<N>Kinds>`, an alias, not an interface: a filter of other needs is then compared with it as
 *   one instance of `Filter` with another, and the message says which field `<N>Kinds` lacks or has of another kind
 *   in two lines (an interface's would walk through the filter's phantom member in five).
 * Imports: the runtime names used, from `@fmgen/runtime/odata` only (an OData app loads none of the Data API), then
 * each related table's module, by its definition's name, in file order. The header is the layout template's.
 * Printed here with print.ts's helpers rather than filled from a template as layout modules are: template.ts reads
 * layout templates (the placeholder `Layout`, two fill roles, exported declarations only), while a table module has
 * three filled declarations (spec, row, relations), an unexported spec and imports that depend on its relations; and
 * a template would not make it faster: 200 tables of 60 fields emit in about 30-40 ms.
 */
export function emitTableModule(plan: TablePlan, template: Pick<LayoutModuleTemplate, "header">, importExtension: ImportExtension = ".js"): PrintedFile {
  const n = plan.typeName;
  const { table } = plan;
  const used = new Set<string>(["defineTable", "ExpandOf", "Filter", "InsertOf", "KindsOf", "TableDefinition", "TableTypesOf", "UpdateOf"]);
  if (plan.relations.length) used.add("TableSpec");

  const fields = table.fields.map((field) => [literalKey(field.name), fieldSpecText(field)] as const);
  const entries: (readonly [string, string])[] = [
    ["database", stringLiteral(table.database)],
    ["table", stringLiteral(table.table)],
  ];
  if (table.id !== undefined) entries.push(["id", stringLiteral(table.id)]);
  if (table.key !== undefined) entries.push(["key", stringLiteral(table.key)]);
  entries.push(["fields", objectLiteral(fields, "  ")]);
  if (plan.relations.length) {
    const relations = plan.relations.map(
      ({ relation, target }) =>
        [literalKey(relation.name), `{ table: ${stringLiteral(relation.table)}, many: ${relation.many}, target: (): TableSpec => ${target.typeName} }`] as const,
    );
    entries.push(["relations", objectLiteral(relations, "  ")]);
  }
  const where = docText(`Table ${stringLiteral(table.table)} of database ${stringLiteral(table.database)}${table.id !== undefined ? ` (${table.id})` : ""}: pass it to od.table().`);
  const definitionDocs = table.description && docText(table.description) ? `${docText(table.description)}\n\n${where}` : where;

  const spec = `typeof ${n}Spec`;
  /** `interface <N><suffix> extends <base>, Record<never, never> {}`: a derived shape, by its name. */
  const named = (suffix: string, base: string) => `export interface ${n}${suffix} extends ${base}, Record<never, never> {}`;
  const statements = [
    withDocs(
      docText(`The spec of table ${stringLiteral(table.table)}: the runtime derives its shapes from it. od.table() takes ${n}.`),
      `const ${n}Spec = defineTable<${n}Row, ${n}Relations>()(${objectLiteral(entries, "")});`,
    ),
    withDocs(definitionDocs, `export const ${n}: ${n}Definition = ${n}Spec;`),
    withDocs(docText("The type of the table definition: the table's shapes, by name."), named("Definition", `TableDefinition<${n}Types>`)),
    withDocs(
      docText("Every TypeScript shape of the table, derived by the runtime from the spec; the declarations below name them."),
      `export interface ${n}Types extends TableTypesOf<${spec}> ${objectType(
        [
          ["insert", "Insert"],
          ["update", "Update"],
          ["names", "FieldName"],
          ["kinds", "Kinds"],
          ["filter", "Filter"],
          ["expand", "Expand"],
        ].map(([key, suffix]) => ({ key: key!, type: `${n}${suffix}` })),
        "",
      )}`,
    ),
    withDocs(
      docText(`A row of table ${stringLiteral(table.table)} as read: every field, decoded (\`select\` narrows it).`),
      `export interface ${n}Row ${objectType(readMembers(table.fields, fieldDocs), "")}`,
    ),
    withDocs(
      docText(`The tables related to ${stringLiteral(table.table)}, by relation name: what \`expand\` and \`related\` reach.`),
      `export interface ${n}Relations ${objectType(
        plan.relations.map(({ relation, target }) => ({ key: propertyKey(relation.name), type: `typeof ${target.typeName}` })),
        "",
      )}`,
    ),
    withDocs(docText("What create() takes: writable fields (not read-only, no containers); not-empty ones without auto-enter required."), named("Insert", `InsertOf<${spec}>`)),
    withDocs(docText("What update() takes: the writable fields, each optional; `null` clears one."), named("Update", `UpdateOf<${spec}>`)),
    withDocs(docText("A field name of the table: what `select`, `orderBy` and filters name."), `export type ${n}FieldName = keyof ${n}Row & string;`),
    withDocs(docText("Each field's kind: what the `f` helpers check a filter's fields and values against."), named("Kinds", `KindsOf<${spec}>`)),
    withDocs(docText("A `$filter` of the table, built with `f`: what list, count, all, updateWhere and deleteWhere take."), `export type ${n}Filter = Filter<${n}Kinds>;`),
    withDocs(docText("What `expand` takes: per relation, `true` or the related rows' own select, filter, orderBy, top and expand."), named("Expand", `ExpandOf<${spec}>`)),
  ];

  const related = new Map<string, string>();
  for (const { target } of plan.relations) if (target !== plan) related.set(target.fileName, target.typeName);
  const relatedImports = [...related].sort(([a], [b]) => compareCodeUnits(a, b)).map(([fileName, typeName]) => importStatement([typeName], relativeSpecifier(fileName, importExtension)));
  return printedModule(template.header, [...importStatements(RUNTIME_IMPORTS, used), ...relatedImports], statements);
}

/**
 * A field's spec, on one line: its kind, then only what differs from the default (exact, read-only, repetitions,
 * notNull, auto-enter, FMFID).
 */
export function fieldSpecText(field: TableFieldDescription): string {
  const parts = [`type: ${stringLiteral(field.type)}`];
  if (field.type === "number" && field.exact) parts.push("exact: true");
  // A global field is never written through OData, as a calculation is not.
  if (field.readOnly || field.global) parts.push("readOnly: true");
  if ((field.repetitions ?? 1) !== 1) parts.push(`repetitions: ${field.repetitions}`);
  if (field.notNull) parts.push("notNull: true");
  if (field.autoEnter !== undefined) parts.push(`autoEnter: ${stringLiteral(field.autoEnter)}`);
  if (field.id !== undefined) parts.push(`id: ${stringLiteral(field.id)}`);
  return `{ ${parts.join(", ")} }`;
}

const FORMAT_HINTS: Partial<Record<TableFieldDescription["type"], string>> = {
  ...TEMPORAL_HINTS,
  container: "Container: base64 when a `select` names it; write it with upload(), read it with download().",
};

/** JSDoc of a field: its description, what its strings hold, and what the spec does not say (global, maximum length). */
export function fieldDocs(field: TableFieldDescription): string | undefined {
  const facts = [field.global ? "Global: one value shared by every row." : "", field.maxLength !== undefined ? `At most ${field.maxLength} characters.` : ""].filter(Boolean).join(" ");
  const parts = [field.description ? docText(field.description) : "", formatHint(field, FORMAT_HINTS), facts].filter(Boolean);
  return parts.length ? parts.join("\n\n") : undefined;
}
