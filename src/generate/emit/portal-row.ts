import { StructureKind } from "ts-morph";
import { objectType } from "../print.js";
import { docText, stringLiteral } from "../text.js";
import type { Filled, FillContext } from "./context.js";
import { readMembers } from "./field-types.js";

/** `export type <Name><Portal>Row = { ... }`: the fields of one portal row, decoded (the ids come from `PortalRow`). */
export function emitPortalRow(context: FillContext): Filled {
  if (!context.portal) throw new Error(`${context.name}: a portal row needs its portal`);
  const portal = context.portal.portal;
  return {
    statement: {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: context.name,
      docs: [docText(`A row of portal ${stringLiteral(portal.name)} (table ${stringLiteral(portal.table)}), decoded.`)],
      type: portal.fields.length ? objectType(readMembers(portal.fields)) : "Record<never, never>",
    },
  };
}
