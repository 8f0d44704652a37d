import { StructureKind } from "ts-morph";
import { objectType } from "../print.js";
import type { Filled, FillContext } from "./context.js";
import { inputMembers } from "./field-types.js";

/**
 * `export type <Name>Input = { ... }`: what create and edit accept in fieldData. The writable fields only (no
 * read-only, no container field), all optional; `null` clears a field. With no writable field, an object
 * that takes no key.
 */
export function emitInput(context: FillContext): Filled {
  const members = inputMembers(context.plan.layout.fields);
  return {
    statement: {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: context.name,
      docs: ["fieldData for create and edit: the writable fields, each optional; `null` clears a field."],
      type: members.length ? objectType(members) : "Record<string, never>",
    },
  };
}
