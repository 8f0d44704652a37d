import { boundName } from "../../layout/index.js";
import { compareCodeUnits } from "../../project/index.js";
import { defaultTableTypeName, tableSource, type TableDescription, type TableRelationDescription } from "../../table/index.js";
import { RESERVED_WORDS } from "../text.js";
import { resolveKindClashes, type Claim } from "./kind-clashes.js";
import { hashSuffix, moduleFileBase } from "./module-names.js";
import type { NameRegistry } from "./name-registry.js";

/**
 * Planning table modules (OData), beside the layout and database modules in the same output folder and the same
 * `index.ts`: their names in two steps of name-registry.ts's rule, explicit ones before database modules are named
 * (`nameTables`), derived ones after (`finishTables`).
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
  kind: "table";
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

interface Candidate {
  table: TableDescription;
  explicit: boolean;
  suffixed: boolean;
  base: string;
  typeName: string;
}

/** Tables named among themselves, explicit ones claimed, derived ones waiting for the database modules (`finishTables`). */
export interface NamedTables {
  readonly candidates: readonly Candidate[];
}

const exportsOf = (name: string) => TABLE_SUFFIXES.map((suffix) => `${name}${suffix}`);
const rawName = (table: TableDescription) => `${table.database}\u0000${table.table}`;
/** The table's file (`contacts-web.table.ts`), by its base, bounded as a layout's is. */
const tableFileName = (c: Candidate) => `${moduleFileBase(c.base)}${TABLE_MODULE_SUFFIX}`;

/**
 * Rules 3 and 4b: names among tables, then the explicit names, which take no suffix, against the layouts' exports
 * (an error naming both files); the explicit names are claimed in `registry`, so that database modules yield to them.
 */
export function nameTables(tables: readonly TableDescription[], registry: NameRegistry): NamedTables {
  const problems: string[] = [];
  const candidates: Candidate[] = [...tables]
    .sort((a, b) => compareCodeUnits(rawName(a), rawName(b)))
    .map((table) => {
      const explicit = table.name !== defaultTableTypeName(table.table);
      if (explicit && RESERVED_WORDS.has(table.name)) problems.push(`${describeTable(table)}: "${table.name}" is a reserved word; choose another "name"`);
      return { table, explicit, suffixed: false, base: table.name, typeName: table.name };
    });
  checkRelations(candidates.map((c) => c.table), problems);
  if (problems.length) throw new TablePlanError(problems.sort(compareCodeUnits));

  // Reserved words too: a derived name may be one (a table "NaN").
  const fixed: Claim<number>[] = [
    ...[...RESERVED_WORDS].map((name) => [name, { fixed: `the reserved word "${name}"` }] as const),
    ...TABLE_IMPORTS.map((name) => [name, { fixed: `the runtime import "${name}"` }] as const),
  ];
  function* claims(): Iterable<Claim<number>> {
    yield* fixed;
    for (const [i, c] of candidates.entries()) {
      for (const name of exportsOf(c.base)) yield [name, i];
      yield [`file:${tableFileName(c)}`, i];
    }
  }
  const suffix = (i: number) => {
    const c = candidates[i]!;
    if (c.explicit || c.suffixed) return;
    c.base = boundName(`${c.base}${hashSuffix(rawName(c.table))}`, rawName(c.table), "_");
    c.typeName = c.base;
    c.suffixed = true;
  };
  problems.push(...resolveKindClashes(claims, suffix, (i) => describeTable(candidates[i]!.table)));
  for (const c of candidates.filter((c) => c.explicit)) {
    for (const name of exportsOf(c.typeName)) {
      const owner = registry.exportOwner(name);
      if (owner !== undefined) problems.push(`"${name}" is claimed by ${describeTable(c.table)} and ${owner}; give one of them another "name"`);
    }
  }
  if (problems.length) throw new TablePlanError([...new Set(problems)].sort(compareCodeUnits));
  for (const c of candidates.filter((c) => c.explicit)) registry.claim(describeTable(c.table), tableFileName(c), exportsOf(c.typeName));
  return { candidates };
}

/**
 * Rule 4d, once the database modules are named: a derived name that meets no export in `registry` is kept; the others
 * yield. Then relations are resolved to their targets' plans. Sorted by file name.
 */
export function finishTables({ candidates }: NamedTables, registry: NameRegistry): TablePlan[] {
  const meets = (name: string) => exportsOf(name).some((n) => registry.hasExport(n));
  const derived = candidates.filter((c) => !c.explicit);
  const yielding = derived.filter((c) => meets(c.base));
  for (const c of derived) if (!yielding.includes(c)) registry.claim(describeTable(c.table), tableFileName(c), exportsOf(c.typeName));
  const problems: string[] = [];
  for (const c of yielding) {
    const raw = rawName(c.table);
    const choices = [`${c.base}${TABLE_YIELD_SUFFIX}`, `${c.base}${TABLE_YIELD_SUFFIX}${hashSuffix(raw)}`].map((name) => boundName(name, `${raw}\u0000${name}`, "_"));
    const free = choices.find((name) => !meets(name) && !RESERVED_WORDS.has(name));
    if (free === undefined) {
      const owners = [...new Set(exportsOf(c.base).flatMap((n) => registry.exportOwner(n) ?? []))];
      problems.push(`${describeTable(c.table)}: the names ${[c.base, ...choices].join(", ")} are all taken (${owners.join(", ")}); give it a "name"`);
      continue;
    }
    c.typeName = free;
    registry.claim(describeTable(c.table), tableFileName(c), exportsOf(free));
  }
  if (problems.length) throw new TablePlanError(problems.sort(compareCodeUnits));

  const plans = new Map<TableDescription, TablePlan>();
  for (const c of candidates) plans.set(c.table, { kind: "table", table: c.table, typeName: c.typeName, fileName: tableFileName(c), relations: [] });
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
          `${describeTable(table)} relations[${i}] ("${relation.name}") reaches table "${relation.table}" of database "${table.database}", which no table description describes; describe it too (fmgen pull --odata) or remove the relation`,
        );
      }
    });
  }
}

function describeTable(table: TableDescription): string {
  const named = table.name !== defaultTableTypeName(table.table) ? `, name "${table.name}"` : "";
  return `${tableSource(table)} (table "${table.table}"${named})`;
}
