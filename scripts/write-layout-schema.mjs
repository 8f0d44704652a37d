// Writes schema/layout.schema.json, schema/database.schema.json, schema/table.schema.json and schema/config.schema.json from their zod schemas (run after `npm run build`).
import { writeFile } from "node:fs/promises";
import { databaseJsonSchemaText, layoutJsonSchemaText } from "../dist/layout/json-schema.js";
import { configJsonSchemaText } from "../dist/project/config.js";
import { tableJsonSchemaText } from "../dist/table/json-schema.js";

await writeFile(new URL("../schema/layout.schema.json", import.meta.url), layoutJsonSchemaText());
console.log("wrote schema/layout.schema.json");
await writeFile(new URL("../schema/database.schema.json", import.meta.url), databaseJsonSchemaText());
console.log("wrote schema/database.schema.json");
await writeFile(new URL("../schema/table.schema.json", import.meta.url), tableJsonSchemaText());
console.log("wrote schema/table.schema.json");
await writeFile(new URL("../schema/config.schema.json", import.meta.url), configJsonSchemaText());
console.log("wrote schema/config.schema.json");
