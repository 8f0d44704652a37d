import { DATABASE_IMPORT, type DatabasePlan } from "../plan/database-plan.js";
import { importStatement, objectLiteral, printedModule, withDocs, type PrintedFile } from "../print.js";
import type { LayoutModuleTemplate } from "../template.js";
import { docText, literalKey, stringLiteral } from "../text.js";
import { fieldSpecText } from "./definition.js";

/**
 * A database's module: `export const <Database> = defineDatabase({ database, scripts, globals });`, what an app
 * passes to `createClient({ database: <Database> })` so that script names and globals are checked by the compiler.
 * The scripts are the database description's, in its order; the globals' specs (as a layout's definition writes
 * them) per fully qualified name. Its header and the runtime it imports from are the layout modules' (the template's).
 */
export function emitDatabaseModule(plan: DatabasePlan, template: Pick<LayoutModuleTemplate, "header" | "runtimeModule">): PrintedFile {
  const globals = plan.globals.map(({ name, field }) => [literalKey(name), fieldSpecText(field, false)] as const);
  const spec = objectLiteral(
    [
      ["database", stringLiteral(plan.database)],
      ["scripts", `[${plan.scripts.map(stringLiteral).join(", ")}]`],
      ["globals", objectLiteral(globals, "  ")],
    ],
    "",
  );
  const docs = docText(
    `Database ${stringLiteral(plan.database)}: its scripts and the global fields of its layouts.\n` +
      `Pass it to createClient({ database: ${plan.typeName} }): a script name or global it lacks then fails to compile.`,
  );
  return printedModule(template.header, [importStatement([DATABASE_IMPORT], template.runtimeModule)], [withDocs(docs, `export const ${plan.typeName} = ${DATABASE_IMPORT}(${spec});`)]);
}
