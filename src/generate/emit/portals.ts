import { StructureKind } from "ts-morph";
import { objectType } from "../print.js";
import { propertyKey } from "../text.js";
import type { Filled, FillContext } from "./context.js";

/** The runtime type a read portal row is wrapped in (it adds the row's recordId and modId). */
const PORTAL_ROW = "PortalRow";

/** `export type <Name>Portals = { ... }`: portalData as read, portal name -> rows. */
export function emitPortals(context: FillContext): Filled {
  const { portals } = context.plan;
  const members = portals.map((p) => ({ key: propertyKey(p.portal.name), type: `${PORTAL_ROW}<${context.nameOf("portalRow", p)}>[]` }));
  return {
    statement: {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: context.name,
      docs: ["portalData of a record: each portal's rows."],
      type: members.length ? objectType(members) : "Record<never, never>",
    },
    runtimeNames: members.length ? [PORTAL_ROW] : [],
  };
}
