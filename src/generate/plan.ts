import { boundName, defaultTypeName, descriptionsByDatabase, namedValueLists, repetitionsOf, shortHash, type DatabaseDescription, type FieldDescription, type LayoutDescription, type PortalDescription } from "../layout/index.js";
import { compareCodeUnits } from "../project/index.js";
import type { LayoutModuleTemplate } from "./template.js";
import { RESERVED_WORDS } from "./text.js";

/**
 * Planning identifiers: every name a generated file declares, decided before anything is emitted.
 *
 * The rule:
 * 1. A layout's type name `N` is its description's `name`, or else the PascalCase of its layout name
 *    (`defaultTypeName`: "Contacts Web" -> `ContactsWeb`). A portal's identifier `P` is the PascalCase of its
 *    portal name the same way (`Portal` when nothing is left).
 * 2. A layout module exports `N` + each layout-level suffix of the template ("", `Types`, `Fields`, `Input`, ...)
 *    and, per portal, `N` + `P` + each per-portal suffix (`Row`, `RowInput`). Its file is the kebab-case of `N`
 *    (`ContactsWeb` -> `contacts-web.ts`). Derived names are bounded (`MAX_DERIVED_NAME` characters): a longer
 *    `N`, `P` or file name keeps its start and ends in `_` (`-` in file names) + 6 hex digits of the SHA-256 of
 *    the whole name it comes from, so any layout name, however long, generates.
 * 3. All these names share one namespace across the whole generation, together with the runtime names the
 *    template imports (`defineLayout`, `FmRecord`, ...); file names share another (compared in lower case, as
 *    on case-insensitive disks), with `index.ts` taken by the barrel and `schemas.ts` by the schemas module.
 * 4. Every derived identifier that takes part in a clash gets a suffix `_` + the first 6 hex digits of the
 *    SHA-256 of its own raw name (a layout: its database and layout names; a portal: its portal name). Both
 *    sides of a clash between derived names are suffixed, so a name depends only on which clashes exist, never
 *    on the order of the inputs, and the suffix only on the identifier's own raw name. "Contacts-Web" and
 *    "Contacts Web" become `ContactsWeb_1a2b3c` and `ContactsWeb_4d5e6f`.
 * 5. A clash that no suffix can resolve is an error naming both description files: two explicit `name`s, an
 *    explicit `name` that equals a name another layout exports (`ContactInput` beside a layout `Contact`) or a
 *    runtime import, or the same layout described twice. A layout's `name` that equals its derived name counts
 *    as derived. An explicit `name` that is a reserved word (`class`, `eval`) is an error too.
 */

export interface PortalPlan {
  portal: PortalDescription;
  /** `P`: the portal's part of its type names. */
  identifier: string;
}

export interface LayoutPlan {
  layout: LayoutDescription;
  /** `N`: the definition's name and the prefix of every other name of the module. */
  typeName: string;
  /** The module's file name, relative to the output folder (`contacts-web.ts`). */
  fileName: string;
  portals: readonly PortalPlan[];
  /** The names of the value lists of the layout's file (every layout of its database), sorted: the sort orders it takes. */
  valueLists: readonly string[];
}

export class IdentifierClashError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`cannot name the generated code:\n  ${problems.join("\n  ")}`);
    this.name = "IdentifierClashError";
  }
}

/** The name of a declaration of a planned module: `N` + suffix, or `N` + `P` + suffix per portal. */
export function declarationName(plan: LayoutPlan, suffix: string, portal?: PortalPlan): string {
  return `${plan.typeName}${portal ? portal.identifier : ""}${suffix}`;
}

/** `ContactsWeb` -> `contacts-web`, `_2024Invoices` -> `2024-invoices`, `HTMLPage_a1b2c3` -> `html-page-a1b2c3`. */
export function kebabCase(identifier: string): string {
  const words = identifier.split(/[_$]+/).flatMap((part) => part.match(/[A-Z]+(?![a-z])[0-9]*|[A-Z]?[a-z0-9]+|[0-9]+/g) ?? []);
  return words.length ? words.join("-").toLowerCase() : "layout";
}

/** A stable suffix from an identifier's own raw name. */
export function hashSuffix(raw: string): string {
  return `_${shortHash(raw)}`;
}

/** The module file of a layout whose type name is `typeName`, without `.ts`: its kebab-case, bounded. */
export function moduleFileBase(typeName: string): string {
  return boundName(kebabCase(typeName), typeName, "-");
}

function portalIdentifier(name: string): string {
  const derived = defaultTypeName(name);
  // defaultTypeName falls back to "Layout" and guards leading digits with "_"; inside `N` + `P` neither fits.
  if (derived === "Layout" && !/layout/i.test(name)) return "Portal";
  const trimmed = derived.replace(/^_+/, "");
  return trimmed ? trimmed.charAt(0).toUpperCase() + trimmed.slice(1) : "Portal";
}

interface Candidate {
  layout: LayoutDescription;
  explicit: boolean;
  suffixed: boolean;
  typeName: string;
  portals: { portal: PortalDescription; identifier: string; suffixed: boolean }[];
}

/** Who declares a name: a layout's own names, one of its portals, or the runtime/barrel. */
type Owner = { layout: number; portal?: number } | { reserved: string };

export function planIdentifiers(layouts: readonly LayoutDescription[], template: LayoutModuleTemplate): LayoutPlan[] {
  const problems: string[] = [];
  const candidates: Candidate[] = layouts.map((layout) => {
    const explicit = layout.name !== defaultTypeName(layout.layout);
    if (explicit && RESERVED_WORDS.has(layout.name)) problems.push(`${describe(layout)}: "${layout.name}" is a reserved word; choose another "name"`);
    return {
      layout,
      explicit,
      suffixed: false,
      typeName: layout.name,
      portals: layout.portals.map((portal) => ({ portal, identifier: portalIdentifier(portal.name), suffixed: false })),
    };
  });
  if (problems.length) throw new IdentifierClashError(problems.sort(compareCodeUnits));

  const layoutSuffixes = template.declarations.filter((d) => !d.perPortal).map((d) => d.suffix);
  const portalSuffixes = template.declarations.filter((d) => d.perPortal).map((d) => d.suffix);
  const reserved = new Map<string, string>(template.imports.map((i) => [i.name, `the runtime import "${i.name}"`]));

  const clashes = () => {
    const names = new Map<string, Owner[]>();
    const add = (name: string, owner: Owner) => {
      const owners = names.get(name);
      if (owners) owners.push(owner);
      else names.set(name, [owner]);
    };
    for (const [name, what] of reserved) add(name, { reserved: what });
    add("file:index", { reserved: "the barrel index.ts" });
    add("file:schemas", { reserved: "the schemas module schemas.ts" });
    candidates.forEach((c, layout) => {
      for (const suffix of layoutSuffixes) add(c.typeName + suffix, { layout });
      add(`file:${moduleFileBase(c.typeName)}`, { layout });
      c.portals.forEach((p, portal) => {
        for (const suffix of portalSuffixes) add(c.typeName + p.identifier + suffix, { layout, portal });
      });
    });
    return [...names].filter(([, owners]) => owners.length > 1);
  };

  // Round 1 suffixes every derived identifier in a clash; round 2 only checks.
  for (const [, owners] of clashes()) {
    for (const owner of owners) {
      if ("reserved" in owner) continue;
      const c = candidates[owner.layout]!;
      if (owner.portal !== undefined) {
        const p = c.portals[owner.portal]!;
        if (!p.suffixed) Object.assign(p, { identifier: p.identifier + hashSuffix(p.portal.name), suffixed: true });
      } else if (!c.explicit && !c.suffixed) {
        c.typeName += hashSuffix(`${c.layout.database}\u0000${c.layout.layout}`);
        c.suffixed = true;
      }
    }
  }
  for (const [name, owners] of clashes()) {
    const who = owners.map((o) => ("reserved" in o ? o.reserved : describe(candidates[o.layout]!.layout, o.portal)));
    const what = name.startsWith("file:") ? `the file name "${name.slice(5)}.ts"` : `"${name}"`;
    problems.push(`${what} is claimed by ${[...new Set(who)].join(" and ")}; give ${owners.length > 2 ? "all but one" : "one"} of them another "name"`);
  }
  if (problems.length) throw new IdentifierClashError([...new Set(problems)].sort(compareCodeUnits));

  const valueLists = valueListsByDatabase(layouts);
  return candidates
    .map((c) => ({
      layout: c.layout,
      typeName: c.typeName,
      fileName: `${moduleFileBase(c.typeName)}.ts`,
      portals: c.portals.map((p) => ({ portal: p.portal, identifier: p.identifier })),
      valueLists: valueLists.get(c.layout.database) ?? [],
    }))
    .sort((a, b) => compareCodeUnits(a.fileName, b.fileName));
}

/** Per database, the names of the value lists its layouts' descriptions give (`namedValueLists`), sorted. */
function valueListsByDatabase(layouts: readonly LayoutDescription[]): Map<string, string[]> {
  const byDatabase = new Map<string, LayoutDescription[]>();
  for (const layout of layouts) {
    const own = byDatabase.get(layout.database);
    if (own) own.push(layout);
    else byDatabase.set(layout.database, [layout]);
  }
  return new Map([...byDatabase].map(([database, own]) => [database, [...namedValueLists(own).lists.keys()].sort(compareCodeUnits)]));
}

/**
 * Every name the planned layout modules export, each with the description that exports it (for messages): what other
 * kinds of module (tables) must not declare again beside them in `index.ts`.
 */
export function layoutExports(plans: readonly LayoutPlan[], template: LayoutModuleTemplate): Map<string, string> {
  const names = new Map<string, string>();
  for (const plan of plans) {
    for (const d of template.declarations) {
      for (const portal of d.perPortal ? plan.portals : [undefined]) names.set(declarationName(plan, d.suffix, portal), describe(plan.layout));
    }
  }
  return names;
}

function describe(layout: LayoutDescription, portal?: number): string {
  const where = `${layout.source ?? "<layout>"} (layout "${layout.layout}"${layout.name !== defaultTypeName(layout.layout) ? `, name "${layout.name}"` : ""})`;
  return portal === undefined ? where : `${where} portal "${layout.portals[portal]!.name}"`;
}

/**
 * Planning database modules: one per database that has layout descriptions or a database description, after the
 * layouts are planned, so that a database never renames a layout's exports.
 *
 * - Its export name is the PascalCase of the database name (`defaultTypeName`: "Contacts" -> `Contacts`), or, when
 *   that name or its file is taken (by a layout's exports or module, a runtime import, the barrel, or a database
 *   planned before it, or a table module's explicit `name`: `claimed`), `<Name>Database`, else `<Name>Database_<hash of the database name>`: the first of these
 *   whose name and file (`moduleFileBase`: `contacts.ts`, `contacts-database.ts`) are both free. Databases are
 *   planned in order of their names, so the result depends only on the set of inputs.
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

export function planDatabases(
  databases: readonly DatabaseDescription[],
  layoutPlans: readonly LayoutPlan[],
  template: LayoutModuleTemplate,
  claimed: ReadonlySet<string> = new Set(),
): DatabasePlan[] {
  const layouts = layoutPlans.map((p) => p.layout);
  const { byDatabase: described, twice } = descriptionsByDatabase(databases);
  const problems = twice.map(([first, again]) => `database "${again.database}" is described twice: in ${first.source ?? "<database>"} and in ${again.source ?? "<database>"}`);

  const names = new Set<string>([...template.imports.map((i) => i.name), DATABASE_IMPORT, ...RESERVED_WORDS, ...claimed]);
  const files = new Set<string>(["index", "schemas"]);
  for (const plan of layoutPlans) {
    files.add(plan.fileName.replace(/\.ts$/, ""));
    for (const d of template.declarations) {
      for (const portal of d.perPortal ? plan.portals : [undefined]) names.add(declarationName(plan, d.suffix, portal));
    }
  }

  const plans: DatabasePlan[] = [];
  for (const database of [...new Set([...layouts.map((l) => l.database), ...described.keys()])].sort(compareCodeUnits)) {
    const base = defaultTypeName(database);
    const choices = [base, `${base}Database`, `${base}Database${hashSuffix(database)}`].map((name) => boundName(name, `${database}\u0000${name}`, "_"));
    const typeName = choices.find((name) => !names.has(name) && !files.has(moduleFileBase(name)));
    if (typeName === undefined) {
      problems.push(`database "${database}": the names ${choices.join(", ")} (or their files) are all taken by layouts; rename a layout ("name")`);
      continue;
    }
    names.add(typeName);
    files.add(moduleFileBase(typeName));
    const own = layouts.filter((l) => l.database === database);
    // The file's value lists are one set, named once across its layouts (the layout modules take their names).
    problems.push(...namedValueLists(own).conflicts.map((conflict) => `database "${database}": ${conflict}`));
    plans.push({
      database,
      typeName,
      fileName: `${moduleFileBase(typeName)}.ts`,
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
      const what = (f: FieldDescription, l: LayoutDescription) => `${f.type}${repetitionsOf(f) > 1 ? ` with ${repetitionsOf(f)} repetitions` : ""} in ${describe(l)}`;
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
