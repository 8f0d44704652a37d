import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { posixRelative } from "./paths.js";

/**
 * The `$schema` reference from a file in `fromDir` to fmgen's own copy of a JSON Schema (`schema/<name>`), when
 * that copy lives inside the project `root` (in its node_modules); undefined when it does not, so that no file
 * points outside the project.
 */
export function schemaReference(name: "layout.schema.json" | "config.schema.json" | "database.schema.json" | "table.schema.json", fromDir: string, root: string): string | undefined {
  const schema = fileURLToPath(new URL(`../../schema/${name}`, import.meta.url));
  const inProject = relative(root, schema);
  if (inProject.startsWith("..") || isAbsolute(inProject)) return undefined;
  return posixRelative(fromDir, schema);
}
