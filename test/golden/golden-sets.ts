import { fileURLToPath } from "node:url";

/**
 * The golden sets: description files in, generated files committed under `generated/<set>/`. Each set is
 * generated exactly as `fmgen generate --layouts <layouts...>` would write it.
 */
export const GOLDEN_SETS = {
  contacts: ["../../examples/contacts/layouts"],
  torture: ["./torture.layout.json", "./punctuation"],
} as const satisfies Record<string, readonly string[]>;

export const goldenPath = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));
