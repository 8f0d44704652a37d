// Writes schema/layout.schema.json from the zod schema (run after `npm run build`).
import { writeFile } from "node:fs/promises";
import { layoutJsonSchemaText } from "../dist/layout/json-schema.js";

await writeFile(new URL("../schema/layout.schema.json", import.meta.url), layoutJsonSchemaText());
console.log("wrote schema/layout.schema.json");
