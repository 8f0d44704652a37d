import { fileURLToPath } from "node:url";
import { loadDatabaseDescriptionsBeside, loadLayouts, type DatabaseDescription, type LayoutDescription } from "../../src/layout/index.js";

/**
 * The golden sets: description files in, generated files committed in `out`. Each set is generated exactly as
 * `fmgen generate --layouts <layouts...>` would write it (database descriptions among the entries and beside them
 * included: `loadSet`). The contacts set is the example's own committed
 * generated code, so there is one copy of it, checked here and run by the example.
 */
export const GOLDEN_SETS = {
  contacts: { layouts: ["../../examples/contacts/layouts"], out: "../../examples/contacts/generated" },
  torture: { layouts: ["./torture.layout.json", "./torture.database.json", "./punctuation"], out: "./generated/torture" },
} as const satisfies Record<string, { layouts: readonly string[]; out: string }>;

export const goldenPath = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

/** A set's descriptions, as `fmgen generate` loads them: the layouts, and the database descriptions the entries give. */
export async function loadSet(set: { layouts: readonly string[] }): Promise<{ layouts: LayoutDescription[]; databases: DatabaseDescription[] }> {
  const entries = set.layouts.map(goldenPath);
  const [layouts, databases] = await Promise.all([loadLayouts(entries), loadDatabaseDescriptionsBeside(entries)]);
  return { layouts, databases };
}
