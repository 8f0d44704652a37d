import type { ImportExtension } from "../../project/index.js";
import type { TableFieldDescription } from "../../table/index.js";
import { importStatement, objectLiteral, objectType, withDocs, type PrintedFile, type PrintedStatement } from "../print.js";
import { TABLE_IMPORTS, TABLE_RUNTIME_MODULE, type TablePlan } from "../table-plan.js";
import { docText, literalKey, propertyKey, stringLiteral } from "../text.js";
import { readType } from "./field-types.js";

/**
 * One table's module (OData), statement by statement, each fact about the table stated once:
 * - `<N>`: `defineTable<<N>Row, <N>Relations>()({ database, table, id?, key?, fields, relations? })`, the value passed
 *   to `od.table()`. The spec says what the runtime needs of each field (kind, read-only, repetitions, notNull,
 *   auto-enter, FMFID) and of each relation (its table, `many`, and its target's definition as a typed thunk, so that
 *   two modules may name each other).
 * - `<N>Row`: the read shape, each field's TypeScript type and its JSDoc (description, what its strings hold, global,
 *   maximum length): the one place the types are written.
 * - `<N>Relations`: relation name -> `typeof <Target>`. An interface, never an inline type: two tables that relate
 *   both ways would otherwise each have a type "referenced in its own initializer".
 * - `<N>Insert`, `<N>Update`: interfaces that extend what the runtime derives from the definition (InsertOf, UpdateOf)
 *   and a second, empty base (`Record<never, never>`), so that the compiler prints their names, not the derivation
 *   (an interface with one base and no members of its own is shown as its base).
 * - `<N>FieldName`, `<N>Filter`: aliases of FieldNameOf and FilterOf.
 * Imports: the runtime names used, from `@fmgen/runtime/odata` only (an OData app loads none of the Data API), then
 * each related table's module, by its definition's name, in file order.
 */
export function emitTableModule(plan: TablePlan, header: string, importExtension: ImportExtension = ".js"): PrintedFile {
  const n = plan.typeName;
  const { table } = plan;
  const used = new Set<string>(["defineTable", "InsertOf", "UpdateOf", "FieldNameOf", "FilterOf"]);
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

  const statements = [
    withDocs(definitionDocs, `export const ${n} = defineTable<${n}Row, ${n}Relations>()(${objectLiteral(entries, "")});`),
    withDocs(
      docText(`A row of table ${stringLiteral(table.table)} as read: every field, decoded (\`select\` narrows it).`),
      `export interface ${n}Row ${objectType(
        table.fields.map((field) => ({ key: propertyKey(field.name), type: readType(field), docs: fieldDocs(field) })),
        "",
      )}`,
    ),
    withDocs(
      docText(`The tables related to ${stringLiteral(table.table)}, by relation name: what \`expand\` and \`related\` reach.`),
      `export interface ${n}Relations ${objectType(
        plan.relations.map(({ relation, target }) => ({ key: propertyKey(relation.name), type: `typeof ${target.typeName}` })),
        "",
      )}`,
    ),
    withDocs(
      docText("What create() takes: writable fields (not read-only, no containers); not-empty ones without auto-enter required."),
      `export interface ${n}Insert extends InsertOf<typeof ${n}>, Record<never, never> {}`,
    ),
    withDocs(docText("What update() takes: the writable fields, each optional; `null` clears one."), `export interface ${n}Update extends UpdateOf<typeof ${n}>, Record<never, never> {}`),
    withDocs(docText("A field name of the table: what `select`, `orderBy` and filters name."), `export type ${n}FieldName = FieldNameOf<typeof ${n}>;`),
    withDocs(docText("A `$filter` of the table, built with `f`: what list, count, all, updateWhere and deleteWhere take."), `export type ${n}Filter = FilterOf<typeof ${n}>;`),
  ];

  const runtimeNames = TABLE_IMPORTS.filter((name) => used.has(name)).map((name) => (name === "defineTable" ? name : `type ${name}`));
  const imports = [importStatement(runtimeNames, TABLE_RUNTIME_MODULE)];
  const related = new Map<string, string>();
  for (const { target } of plan.relations) if (target !== plan) related.set(target.fileName, target.typeName);
  for (const [fileName, typeName] of [...related].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    imports.push(importStatement([typeName], `./${fileName.replace(/\.ts$/, importExtension)}`));
  }
  return {
    header: `${header}\n\n`,
    statements: [
      ...imports.map((text): PrintedStatement => ({ text, blankLineBefore: false })),
      ...statements.map((text): PrintedStatement => ({ text, blankLineBefore: true })),
    ],
  };
}

/** A field's spec, on one line: its kind, then only what differs from the default (read-only, repetitions, notNull, auto-enter, FMFID). */
export function fieldSpecText(field: TableFieldDescription): string {
  const parts = [`type: ${stringLiteral(field.type)}`];
  // A global field is never written through OData, as a calculation is not.
  if (field.readOnly || field.global) parts.push("readOnly: true");
  if ((field.repetitions ?? 1) !== 1) parts.push(`repetitions: ${field.repetitions}`);
  if (field.notNull) parts.push("notNull: true");
  if (field.autoEnter !== undefined) parts.push(`autoEnter: ${stringLiteral(field.autoEnter)}`);
  if (field.id !== undefined) parts.push(`id: ${stringLiteral(field.id)}`);
  return `{ ${parts.join(", ")} }`;
}

const FORMAT_HINTS: Partial<Record<TableFieldDescription["type"], string>> = {
  date: 'ISO date "YYYY-MM-DD".',
  time: 'Time "HH:MM:SS".',
  timestamp: 'ISO timestamp "YYYY-MM-DDTHH:MM:SS", local time.',
  container: "Container: base64 when a `select` names it; write it with upload(), read it with download().",
};

/** JSDoc of a field: its description, what its strings hold, and what the spec does not say (global, maximum length). */
export function fieldDocs(field: TableFieldDescription): string | undefined {
  const facts = [field.global ? "Global: one value shared by every row." : "", field.maxLength !== undefined ? `At most ${field.maxLength} characters.` : ""].filter(Boolean).join(" ");
  const parts = [field.description ? docText(field.description) : "", FORMAT_HINTS[field.type] ?? "", facts].filter(Boolean);
  return parts.length ? parts.join("\n\n") : undefined;
}
