import { StructureKind } from "ts-morph";
import { objectType, type ObjectTypeMember } from "../print.js";
import { docText, stringLiteral } from "../text.js";
import type { Filled, FillContext } from "./context.js";
import { inputMembers } from "./field-types.js";

const ROW_IDS: readonly ObjectTypeMember[] = [
  { key: "recordId", optional: true, type: "string", docs: "The row to edit; without it, create and edit add a new row." },
  { key: "modId", optional: true, type: "string", docs: "The row's modId when read: the edit fails if the row changed since." },
];

/**
 * `export type <Name><Portal>RowInput = { ... }`: one portal row in create or edit, its writable fields
 * optional, plus the ids of an existing row. Portal fields are always `TableOccurrence::Field`, so they never
 * collide with `recordId` and `modId`.
 */
export function emitPortalRowInput(context: FillContext): Filled {
  if (!context.portal) throw new Error(`${context.name}: a portal row input needs its portal`);
  const portal = context.portal.portal;
  return {
    statement: {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: context.name,
      docs: [docText(`A row of portal ${stringLiteral(portal.name)} to create or edit.`)],
      type: objectType([...inputMembers(portal.fields), ...ROW_IDS]),
    },
  };
}
