import { z } from "zod";
import { databaseDescriptionSchema } from "./database-schema.js";
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

/** The JSON Schema shipped as `schema/database.schema.json` (`<Database>.database.json` files). */
export function databaseJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(databaseDescriptionSchema, { target: "draft-2020-12", io: "input" });
  return { ...schema, title: "fmgen database description" };
}

export function databaseJsonSchemaText(): string {
  return `${JSON.stringify(databaseJsonSchema(), null, 2)}\n`;
}
