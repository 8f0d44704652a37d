import { StructureKind } from "ts-morph";
import { stringLiteral } from "../text.js";
import type { Filled, FillContext } from "./context.js";

/** `export type <Name>Container = "Photo" | ...`: the fields upload() accepts; `never` when there is none. */
export function emitContainers(context: FillContext): Filled {
  const names = context.plan.layout.fields.filter((f) => f.type === "container").map((f) => stringLiteral(f.name));
  return {
    statement: {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: context.name,
      docs: ["The container fields: the only ones upload() takes."],
      type: names.length ? names.join(" | ") : "never",
    },
  };
}
