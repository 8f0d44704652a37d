import { StructureKind, VariableDeclarationKind } from "ts-morph";
import { repetitionsOf, type FieldDescription } from "../../layout/index.js";
import { call, objectLiteral, satisfies, type ObjectLiteralEntry } from "../print.js";
import { docText, literalKey, stringLiteral } from "../text.js";
import type { Filled, FillContext } from "./context.js";
import { OBJECT_MEMBERS } from "./field-types.js";

/** A field's runtime spec (`FieldSpec`): what the codecs need, on one line. */
export function fieldSpecText(field: FieldDescription): string {
  const parts = [`type: ${stringLiteral(field.type)}`];
  const n = repetitionsOf(field);
  if (n !== 1) parts.push(`repetitions: ${n}`);
  if (field.readOnly) parts.push("readOnly: true");
  if (field.valueList) parts.push(`valueList: [${field.valueList.map(stringLiteral).join(", ")}]`);
  return `{ ${parts.join(", ")} }`;
}

/*
 * Keys named like the members of TypeScript's `Object` interface (OBJECT_MEMBERS): in an object literal typed as
 * `Record<string, FieldSpec>`, TypeScript takes such a property's contextual type from `Object` instead of the
 * index signature, so `{ type: "text" }` widens to `{ type: string }` and fails; `satisfies` restores it.
 */
const FIELD_SPEC = "FieldSpec";
const PORTAL_SPEC = "PortalSpec";

function fieldEntries(fields: readonly FieldDescription[], uses: Set<string>): ObjectLiteralEntry[] {
  return fields.map((field) => {
    const spec = fieldSpecText(field);
    if (!OBJECT_MEMBERS.has(field.name)) return { key: literalKey(field.name), value: spec };
    uses.add(FIELD_SPEC);
    return { key: literalKey(field.name), value: satisfies(spec, FIELD_SPEC) };
  });
}

/** JSDoc of the definition: the layout's description, then where the layout lives. */
export function layoutDocs(context: FillContext): string {
  const { layout } = context.plan;
  const where = docText(`Layout ${stringLiteral(layout.layout)} of database ${stringLiteral(layout.database)} (table ${stringLiteral(layout.table)}).`);
  return layout.description && docText(layout.description) ? `${docText(layout.description)}\n\n${where}` : where;
}

/** `export const <Name> = defineLayout<<Name>Types>({ database, layout, fields, portals })`. */
export function emitDefinition(context: FillContext): Filled {
  const { layout, portals } = context.plan;
  const uses = new Set<string>();
  const entries: ObjectLiteralEntry[] = [
    { key: "database", value: stringLiteral(layout.database) },
    { key: "layout", value: stringLiteral(layout.layout) },
    { key: "fields", value: objectLiteral(fieldEntries(layout.fields, uses)) },
  ];
  if (portals.length) {
    const portalEntries = portals.map(({ portal }) => {
      const spec = objectLiteral([{ key: "fields", value: objectLiteral(fieldEntries(portal.fields, uses)) }]);
      if (OBJECT_MEMBERS.has(portal.name)) uses.add(PORTAL_SPEC);
      return { key: literalKey(portal.name), value: OBJECT_MEMBERS.has(portal.name) ? satisfies(spec, PORTAL_SPEC) : spec };
    });
    entries.push({ key: "portals", value: objectLiteral(portalEntries) });
  }
  if (!context.validateRecords) entries.push({ key: "validate", value: "false" });
  const { callee, typeArguments } = context.definitionCall;
  return {
    statement: {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: [layoutDocs(context)],
      declarations: [{ name: context.name, initializer: call(callee, typeArguments, [objectLiteral(entries)]) }],
    },
    runtimeNames: [...uses].sort(),
  };
}
