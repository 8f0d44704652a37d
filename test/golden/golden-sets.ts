import { fileURLToPath } from "node:url";
import { loadDatabaseDescriptionsBeside, loadLayouts, type DatabaseDescription, type LayoutDescription } from "../../src/layout/index.js";
import { loadTables, type TableDescription } from "../../src/table/index.js";

/**
 * The golden sets: description files in, generated files committed in `out`. Each set is generated exactly as
 * `fmgen generate --layouts <layouts...> --tables <tables...>` would write it (database descriptions among the layout
 * entries and beside them included: `loadSet`). The odata set puts table modules (a torture table, tables that relate
 * both ways and to themselves, names that clash) beside a layout and a database module that want the same names. The contacts set is the example's own committed
 * generated code, so there is one copy of it, checked here and run by the example; it is generated with the example's
 * `options.schemas` (true: its schemas.ts is what the runtime's schema tests import). The torture set writes schemas.ts
 * too; the odata set shows the default, without it.
 */
export const GOLDEN_SETS = {
  contacts: { layouts: ["../../examples/contacts/layouts"], out: "../../examples/contacts/generated", schemas: true },
  torture: { layouts: ["./torture.layout.json", "./torture.database.json", "./punctuation"], out: "./generated/torture", schemas: true },
  odata: { layouts: ["./odata/Contacts.layout.json"], tables: ["./odata"], out: "./generated/odata" },
} as const satisfies Record<string, GoldenSet>;

export interface GoldenSet {
  layouts: readonly string[];
  tables?: readonly string[];
  out: string;
  /** `options.schemas`: whether the set has a schemas.ts (default false, as generate's). */
  schemas?: boolean;
}

export const goldenPath = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

/** A set's descriptions, as `fmgen generate` loads them: the layouts, the database descriptions the entries give, the tables. */
export async function loadSet(set: GoldenSet): Promise<{ layouts: LayoutDescription[]; databases: DatabaseDescription[]; tables: TableDescription[] }> {
  const entries = set.layouts.map(goldenPath);
  const [layouts, databases, tables] = await Promise.all([loadLayouts(entries), loadDatabaseDescriptionsBeside(entries), loadTables((set.tables ?? []).map(goldenPath))]);
  return { layouts, databases, tables };
}
