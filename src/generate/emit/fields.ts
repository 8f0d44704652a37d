import { StructureKind } from "ts-morph";
import { objectType } from "../print.js";
import { docText, stringLiteral } from "../text.js";
import type { Filled, FillContext } from "./context.js";
import { readMembers } from "./field-types.js";

/** `export type <Name>Fields = { ... }`: the read shape of fieldData, every field in description order. */
export function emitFields(context: FillContext): Filled {
  const { layout } = context.plan;
  return {
    statement: {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: context.name,
      docs: [docText(`fieldData of a record of layout ${stringLiteral(layout.layout)}, decoded.`)],
      type: layout.fields.length ? objectType(readMembers(layout.fields)) : "Record<never, never>",
    },
  };
}
