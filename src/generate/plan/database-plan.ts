import { boundName, defaultTypeName, descriptionsByDatabase, namedValueLists, repetitionsOf, type DatabaseDescription, type FieldDescription, type LayoutDescription } from "../../layout/index.js";
import { compareCodeUnits } from "../../project/index.js";
import type { LayoutModuleTemplate } from "../template.js";
import { RESERVED_WORDS } from "../text.js";
import { describeLayout, type LayoutPlan } from "./layout-plan.js";
import { hashSuffix, moduleFileBase } from "./module-names.js";
import type { NameRegistry } from "./name-registry.js";

/**
 * Planning database modules: one per database that has layout descriptions or a database description, after the
 * layouts and tables' explicit names, so that a database never renames them.
 *
 * - Its export name is the first free choice of name-registry.ts's rule 4c: the PascalCase of the database name
 *   (`defaultTypeName`: "Contacts" -> `Contacts`), else `<Name>Database`, else `<Name>Database_<hash of the database
 *   name>`, whose name and file (`moduleFileBase`: `contacts.ts`, `contacts-database.ts`) are both free. Databases
 *   are planned in order of their names, so the result depends only on the set of inputs.
 * - Its scripts are its database description's script names, in order, each once (none without a description).
 * - Its globals are the fields with `global: true` on its layouts, portals included, but for read-only ones
 *   (calculations, which setGlobals cannot set), each once, by their fully qualified name (`TO::Field`, as setGlobals takes it; a field of the layout's own table is qualified with the
 *   layout's `table`), sorted by name. Two layouts that disagree on a global's type or repetitions are an error
 *   naming both files.
 */

export interface GlobalPlan {
  /** `TO::Field`. */
  name: string;
  field: FieldDescription;
}

export interface DatabasePlan {
  kind: "database";
  database: string;
  /** The export name (`Contacts`). */
  typeName: string;
  /** The module's file name, relative to the output folder (`contacts.ts`). */
  fileName: string;
  scripts: readonly string[];
  globals: readonly GlobalPlan[];
}

/** The runtime name a database module imports. */
export const DATABASE_IMPORT = "defineDatabase";

/** The database descriptions and layouts cannot make database modules: a database described twice, globals that disagree. */
export class DatabasePlanError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`cannot generate the database modules:\n  ${problems.join("\n  ")}`);
    this.name = "DatabasePlanError";
  }
}

/** Names each database module by the first free choice of rule 4c and claims it in `registry`. Sorted by database. */
export function planDatabases(databases: readonly DatabaseDescription[], layoutPlans: readonly LayoutPlan[], template: LayoutModuleTemplate, registry: NameRegistry): DatabasePlan[] {
  const layouts = layoutPlans.map((p) => p.layout);
  const { byDatabase: described, twice } = descriptionsByDatabase(databases);
  const problems = twice.map(([first, again]) => `database "${again.database}" is described twice: in ${first.source ?? "<database>"} and in ${again.source ?? "<database>"}`);

  // What a database module imports, or could not declare as a const.
  const reserved = new Set<string>([...template.imports.map((i) => i.name), DATABASE_IMPORT, ...RESERVED_WORDS]);
  const free = (name: string) => !reserved.has(name) && !registry.hasExport(name) && !registry.hasFile(`${moduleFileBase(name)}.ts`);

  const plans: DatabasePlan[] = [];
  for (const database of [...new Set([...layouts.map((l) => l.database), ...described.keys()])].sort(compareCodeUnits)) {
    const base = defaultTypeName(database);
    const choices = [base, `${base}Database`, `${base}Database${hashSuffix(database)}`].map((name) => boundName(name, `${database}\u0000${name}`, "_"));
    const typeName = choices.find(free);
    if (typeName === undefined) {
      problems.push(`database "${database}": the names ${choices.join(", ")} (or their files) are all taken by layouts; rename a layout ("name")`);
      continue;
    }
    const fileName = `${moduleFileBase(typeName)}.ts`;
    registry.claim(`the database module of "${database}" (${fileName})`, fileName, [typeName]);
    const own = layouts.filter((l) => l.database === database);
    // The file's value lists are one set, named once across its layouts (the layout modules take their names).
    problems.push(...namedValueLists(own).conflicts.map((conflict) => `database "${database}": ${conflict}`));
    plans.push({
      kind: "database",
      database,
      typeName,
      fileName,
      scripts: [...new Set(described.get(database)?.scripts.map((s) => s.name))],
      globals: planGlobals(own, problems),
    });
  }
  if (problems.length) throw new DatabasePlanError(problems.sort(compareCodeUnits));
  return plans;
}

function planGlobals(layouts: readonly LayoutDescription[], problems: string[]): GlobalPlan[] {
  const found = new Map<string, { field: FieldDescription; layout: LayoutDescription }>();
  const add = (name: string, field: FieldDescription, layout: LayoutDescription) => {
    const seen = found.get(name);
    if (!seen) found.set(name, { field, layout });
    else if (seen.field.type !== field.type || repetitionsOf(seen.field) !== repetitionsOf(field)) {
      const what = (f: FieldDescription, l: LayoutDescription) => `${f.type}${repetitionsOf(f) > 1 ? ` with ${repetitionsOf(f)} repetitions` : ""} in ${describeLayout(l)}`;
      problems.push(`global field "${name}" is ${what(seen.field, seen.layout)} but ${what(field, layout)}; make the descriptions agree`);
    }
  };
  for (const layout of layouts) {
    // A read-only global is a calculation: setGlobals cannot set it.
    for (const field of layout.fields) if (field.global && !field.readOnly) add(field.name.includes("::") ? field.name : `${layout.table}::${field.name}`, field, layout);
    for (const portal of layout.portals) for (const field of portal.fields) if (field.global && !field.readOnly) add(field.name, field, layout);
  }
  return [...found].map(([name, { field }]) => ({ name, field })).sort((a, b) => compareCodeUnits(a.name, b.name));
}
