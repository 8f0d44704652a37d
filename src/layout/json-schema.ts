import { z } from "zod";
import { layoutDescriptionSchema } from "./schema.js";

/** The JSON Schema shipped as `schema/layout.schema.json`, for editor completion. */
export function layoutJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(layoutDescriptionSchema, { target: "draft-2020-12", io: "input" });
  return {
    ...schema,
    title: "fmgen layout description",
  };
}

export function layoutJsonSchemaText(): string {
  return `${JSON.stringify(layoutJsonSchema(), null, 2)}\n`;
}
