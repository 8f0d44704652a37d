import { StructureKind } from "ts-morph";
import { objectType } from "../print.js";
import { propertyKey, stringLiteral } from "../text.js";
import type { Filled, FillContext } from "./context.js";

/**
 * `export type <Name>Kinds = { "First Name": "text"; ... }`: the type of every field a find may name, the
 * layout's and then each portal's, in description order. The runtime's find types key off it: which `q` helpers
 * a field takes. A name that appears twice keeps its first kind, as the runtime looks fields up in that order.
 */
export function emitKinds(context: FillContext): Filled {
  const { layout } = context.plan;
  const kinds = new Map<string, string>();
  for (const field of [...layout.fields, ...layout.portals.flatMap((p) => p.fields)]) if (!kinds.has(field.name)) kinds.set(field.name, field.type);
  const members = [...kinds].map(([name, kind]) => ({ key: propertyKey(name), type: stringLiteral(kind) }));
  return {
    statement: {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: context.name,
      docs: ["Each field's kind, portal fields included: which `q` helpers a find may use on it."],
      type: members.length ? objectType(members) : "Record<never, never>",
    },
  };
}
