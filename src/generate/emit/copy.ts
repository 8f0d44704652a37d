import { StructureKind, VariableDeclarationKind, type TypeAliasDeclarationStructure, type VariableStatementStructure } from "ts-morph";
import { objectType, type Value } from "../print.js";
import { fillTemplateText, type TemplateDeclaration } from "../template.js";

/**
 * A declaration of the template that no emitter fills (`<Name>Record`, `<Name>Sort`, ...), copied with its
 * JSDoc and with the template's names replaced through `rename`.
 */
export function emitCopy(
  declaration: TemplateDeclaration,
  name: string,
  rename: (templateName: string) => string,
): TypeAliasDeclarationStructure | VariableStatementStructure {
  const body = declaration.body;
  if (!body) throw new Error(`template declaration ${declaration.templateName} has nothing to copy`);
  const value: Value =
    body.kind === "text"
      ? fillTemplateText(body.text, rename)
      : objectType(
          body.members.map((m) => ({
            key: m.key,
            type: fillTemplateText(m.type, rename),
            ...(m.optional ? { optional: true } : {}),
            ...(m.docs !== undefined ? { docs: m.docs } : {}),
          })),
        );
  const docs = declaration.docs !== undefined ? [declaration.docs] : [];
  if (declaration.kind === "type") return { kind: StructureKind.TypeAlias, isExported: true, name, docs, type: value };
  return { kind: StructureKind.VariableStatement, isExported: true, declarationKind: VariableDeclarationKind.Const, docs, declarations: [{ name, initializer: value }] };
}
