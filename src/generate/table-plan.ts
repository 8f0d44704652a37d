import { boundName } from "../layout/index.js";
import { compareCodeUnits } from "../project/index.js";
import { defaultTableTypeName, tableSource, type TableDescription, type TableRelationDescription } from "../table/index.js";
import { hashSuffix, kebabCase } from "./plan.js";
import { RESERVED_WORDS } from "./text.js";

/**
 * Planning table modules (OData): every name a table module declares, decided before anything is emitted, beside the
 * layout and database modules in the same output folder and the same `index.ts`.
 *
 * The rule:
 * 1. A table's base name `B` is its description's `name`, or else the PascalCase of its table occurrence
 *    (`defaultTableTypeName`: "Contacts Web" -> `ContactsWeb`). Its module declares `N` + each of `TABLE_SUFFIXES`
 *    ("", `Spec`, `Definition`, `Types`, `Row`, `Relations`, `Insert`, `Update`, `FieldName`, `Kinds`, `Filter`,
 *    `Expand`), where `N` is `B` unless rule 4 says otherwise.
 * 2. Its file is `<kebab-case of B>.table.ts` (`contacts-web.table.ts`): layout and database modules are named
 *    `<kebab-case>.ts`, which holds no dot, so a table's file never meets theirs, nor `index.ts` or `schemas.ts`.
 * 3. Among tables, names and files clash as layouts' do (planIdentifiers): every derived name that takes part in a
 *    clash gets `_` + 6 hex digits of the SHA-256 of its database and table names (both sides, so that the result
 *    never depends on the order of the inputs); a clash no suffix resolves (two explicit `name`s, an explicit `name`
 *    equal to a name another table exports or to one of the runtime names a table module imports, `TABLE_IMPORTS`) is
 *    an error naming both description files. An explicit `name` that is a reserved word is an error.
 * 4. Across kinds, layouts come first: adding table descriptions never renames a layout's export or a database
 *    module. A table with an explicit `name` claims its names before database modules are planned (a database module
 *    then yields, as it yields to layouts: `<Database>Database`); such a name equal to a name a layout module exports is an
 *    error naming both files. A table whose derived names meet a layout's or database module's export yields: `N` is
 *    `B` + `Table` (`ContactsTable`, file still `contacts.table.ts`), else `B` + `Table` + `_<hash>`, the first whose
 *    names are all free; tables yield in the order of their database and table names, after every table that keeps
 *    its name is placed, so that a table keeps `B` whenever it can.
 *
 * A relation must reach a described table of the same database: else it is an error naming the description and the
 * missing table (a module cannot type the rows of a table it knows nothing of; `fmgen pull --odata` the table, or
 * drop the relation from the description).
 */

/** What a table module declares per table, after its name `N` (all exported but `Spec`). */
export const TABLE_SUFFIXES = ["", "Spec", "Definition", "Types", "Row", "Relations", "Insert", "Update", "FieldName", "Kinds", "Filter", "Expand"] as const;
/** The runtime's names a table module may import (from `TABLE_RUNTIME_MODULE`). */
export const TABLE_IMPORTS = ["defineTable", "ExpandOf", "Filter", "InsertOf", "KindsOf", "TableDefinition", "TableSpec", "TableTypesOf", "UpdateOf"] as const;
export const TABLE_RUNTIME_MODULE = "@fmgen/runtime/odata";
/** The end of a table module's file name. */
export const TABLE_MODULE_SUFFIX = ".table.ts";
/** The suffix a table's derived name takes to yield to a layout's or database's export. */
export const TABLE_YIELD_SUFFIX = "Table";

export interface TableRelationPlan {
  relation: TableRelationDescription;
  /** The target table's plan (this table's own for a relation to itself). */
  target: TablePlan;
}

export interface TablePlan {
  table: TableDescription;
  /** `N`: the definition's name and the prefix of every other name of the module. */
  typeName: string;
  /** The module's file name, relative to the output folder (`contacts.table.ts`). */
  fileName: string;
  /** In description order. */
  relations: readonly TableRelationPlan[];
}

/** The table descriptions cannot be named or related: the message names every description concerned. */
export class TablePlanError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`cannot generate the table modules:\n  ${problems.join("\n  ")}`);
    this.name = "TablePlanError";
  }
}

/** Who else declares a name: a layout module, a database module, a runtime import. Keyed by the name. */
export type NameOwners = ReadonlyMap<string, string>;

interface Candidate {
  table: TableDescription;
  explicit: boolean;
  suffixed: boolean;
  base: string;
  typeName: string;
}

/** The table's file base (`contacts-web`), bounded as a layout's is. */
function tableFileBase(base: string): string {
  return boundName(kebabCase(base), base, "-");
}

const exportsOf = (name: string) => TABLE_SUFFIXES.map((suffix) => `${name}${suffix}`);
const rawName = (table: TableDescription) => `${table.database}\u0000${table.table}`;

/**
 * Stage 1 (before database modules are planned): names among tables (rules 1-3) and explicit names against the
 * layouts' exports (`layoutNames`: name -> the description that exports it). Returns the candidates, to be finished
 * by `finishTablePlans` once the database modules are named; `claimed` are the explicit names, which databases yield to.
 */
export function planTableNames(tables: readonly TableDescription[], layoutNames: NameOwners): { pending: PendingTables; claimed: ReadonlySet<string> } {
  const problems: string[] = [];
  const candidates: Candidate[] = [...tables]
    .sort((a, b) => compareCodeUnits(rawName(a), rawName(b)))
    .map((table) => {
      const explicit = table.name !== defaultTableTypeName(table.table);
      if (explicit && RESERVED_WORDS.has(table.name)) problems.push(`${describe(table)}: "${table.name}" is a reserved word; choose another "name"`);
      return { table, explicit, suffixed: false, base: table.name, typeName: table.name };
    });
  checkRelations(candidates.map((c) => c.table), problems);
  if (problems.length) throw new TablePlanError(problems.sort(compareCodeUnits));

  // Reserved words too: a derived name may be one (a table "NaN").
  const reserved = new Map<string, string>([...[...RESERVED_WORDS].map((name) => [name, `the reserved word "${name}"`] as const), ...TABLE_IMPORTS.map((name) => [name, `the runtime import "${name}"`] as const)]);
  const clashes = () => {
    const names = new Map<string, (number | string)[]>();
    const add = (name: string, owner: number | string) => names.set(name, [...(names.get(name) ?? []), owner]);
    for (const [name, what] of reserved) add(name, what);
    candidates.forEach((c, i) => {
      for (const name of exportsOf(c.base)) add(name, i);
      add(`file:${tableFileBase(c.base)}`, i);
    });
    return [...names].filter(([, owners]) => owners.length > 1);
  };
  // Round 1 suffixes every derived base in a clash; round 2 only checks.
  for (const [, owners] of clashes()) {
    for (const owner of owners) {
      const c = typeof owner === "number" ? candidates[owner]! : undefined;
      if (c && !c.explicit && !c.suffixed) {
        c.base = boundName(`${c.base}${hashSuffix(rawName(c.table))}`, rawName(c.table), "_");
        c.typeName = c.base;
        c.suffixed = true;
      }
    }
  }
  for (const [name, owners] of clashes()) {
    const who = [...new Set(owners.map((o) => (typeof o === "number" ? describe(candidates[o]!.table) : o)))];
    const what = name.startsWith("file:") ? `the file name "${name.slice(5)}${TABLE_MODULE_SUFFIX}"` : `"${name}"`;
    problems.push(`${what} is claimed by ${who.join(" and ")}; give ${owners.length > 2 ? "all but one" : "one"} of them another "name"`);
  }
  // An explicit name takes no suffix: a layout's export it meets is an error.
  for (const c of candidates.filter((c) => c.explicit)) {
    for (const name of exportsOf(c.typeName)) {
      const owner = layoutNames.get(name);
      if (owner !== undefined) problems.push(`"${name}" is claimed by ${describe(c.table)} and ${owner}; give one of them another "name"`);
    }
  }
  if (problems.length) throw new TablePlanError([...new Set(problems)].sort(compareCodeUnits));
  return { pending: { candidates }, claimed: new Set(candidates.filter((c) => c.explicit).flatMap((c) => exportsOf(c.typeName))) };
}

/** Tables named among themselves, waiting for the database modules' names (`finishTablePlans`). */
export interface PendingTables {
  readonly candidates: readonly Candidate[];
}

/**
 * Stage 2: derived names that meet a layout's or database module's export (`taken`: name -> who declares it) yield
 * (rule 4); then relations are resolved to their targets' plans. Sorted by file name.
 */
export function finishTablePlans(pending: PendingTables, taken: NameOwners): TablePlan[] {
  const { candidates } = pending;
  const used = new Set<string>(taken.keys());
  const meets = (name: string) => exportsOf(name).some((n) => used.has(n));
  const yielding = candidates.filter((c) => !c.explicit && meets(c.base));
  for (const c of candidates) if (!yielding.includes(c)) for (const name of exportsOf(c.typeName)) used.add(name);
  const problems: string[] = [];
  for (const c of yielding) {
    const raw = rawName(c.table);
    const choices = [`${c.base}${TABLE_YIELD_SUFFIX}`, `${c.base}${TABLE_YIELD_SUFFIX}${hashSuffix(raw)}`].map((name) => boundName(name, `${raw}\u0000${name}`, "_"));
    const free = choices.find((name) => !meets(name) && !RESERVED_WORDS.has(name));
    if (free === undefined) {
      const owners = [...new Set(exportsOf(c.base).flatMap((n) => taken.get(n) ?? []))];
      problems.push(`${describe(c.table)}: the names ${[c.base, ...choices].join(", ")} are all taken (${owners.join(", ") || "by other tables"}); give it a "name"`);
      continue;
    }
    c.typeName = free;
    for (const name of exportsOf(free)) used.add(name);
  }
  if (problems.length) throw new TablePlanError(problems.sort(compareCodeUnits));

  const plans = new Map<TableDescription, TablePlan>();
  for (const c of candidates) plans.set(c.table, { table: c.table, typeName: c.typeName, fileName: `${tableFileBase(c.base)}${TABLE_MODULE_SUFFIX}`, relations: [] });
  const byTable = new Map(candidates.map((c) => [rawName(c.table), plans.get(c.table)!]));
  for (const plan of plans.values()) {
    const relations = (plan.table.relations ?? []).map((relation) => ({ relation, target: byTable.get(`${plan.table.database}\u0000${relation.table}`)! }));
    Object.assign(plan, { relations });
  }
  return [...plans.values()].sort((a, b) => compareCodeUnits(a.fileName, b.fileName));
}

/** Each relation reaches a described table of its own database; each table occurrence is described once. */
function checkRelations(tables: readonly TableDescription[], problems: string[]): void {
  const described = new Map<string, TableDescription>();
  for (const table of tables) {
    const first = described.get(rawName(table));
    if (first) problems.push(`table "${table.table}" of database "${table.database}" is described twice: in ${tableSource(first)} and in ${tableSource(table)}`);
    else described.set(rawName(table), table);
  }
  for (const table of tables) {
    table.relations?.forEach((relation, i) => {
      if (!described.has(`${table.database}\u0000${relation.table}`)) {
        problems.push(
          `${describe(table)} relations[${i}] ("${relation.name}") reaches table "${relation.table}" of database "${table.database}", which no table description describes; describe it too (fmgen pull --odata) or remove the relation`,
        );
      }
    });
  }
}

function describe(table: TableDescription): string {
  const named = table.name !== defaultTableTypeName(table.table) ? `, name "${table.name}"` : "";
  return `${tableSource(table)} (table "${table.table}"${named})`;
}
