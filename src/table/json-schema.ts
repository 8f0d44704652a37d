import { z } from "zod";
import { tableDescriptionSchema } from "./schema.js";

/** The JSON Schema shipped as `schema/table.schema.json` (`<Name>.table.json` files), for editor completion. */
export function tableJsonSchema(): Record<string, unknown> {
  return { ...z.toJSONSchema(tableDescriptionSchema, { target: "draft-2020-12", io: "input" }), title: "fmgen table description" };
}

export function tableJsonSchemaText(): string {
  return `${JSON.stringify(tableJsonSchema(), null, 2)}\n`;
}
