import { StructureKind } from "ts-morph";
import { objectType } from "../print.js";
import { propertyKey, stringLiteral } from "../text.js";
import type { Filled, FillContext } from "./context.js";
import { OBJECT_MEMBERS } from "./field-types.js";

/** `export type <Name>PortalInput = { ... }`: what create and edit accept in portalData, every portal optional. */
export function emitPortalInput(context: FillContext): Filled {
  const { portals } = context.plan;
  const members = portals.map((p) => {
    const rows = `${context.nameOf("portalRowInput", p)}[]`;
    // See OBJECT_MEMBERS: without the inherited member's type, every portalData would have to name this portal.
    const type = OBJECT_MEMBERS.has(p.portal.name) ? `${rows} | Object[${stringLiteral(p.portal.name)}]` : rows;
    return { key: propertyKey(p.portal.name), optional: true, type };
  });
  return {
    statement: {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: context.name,
      docs: ["portalData for create and edit: rows to add or change, per portal."],
      type: members.length ? objectType(members) : "Record<string, never>",
    },
  };
}
