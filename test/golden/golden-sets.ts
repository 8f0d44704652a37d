import { fileURLToPath } from "node:url";

/**
 * The golden sets: description files in, generated files committed in `out`. Each set is generated exactly as
 * `fmgen generate --layouts <layouts...>` would write it. The contacts set is the example's own committed
 * generated code, so there is one copy of it, checked here and run by the example.
 */
export const GOLDEN_SETS = {
  contacts: { layouts: ["../../examples/contacts/layouts"], out: "../../examples/contacts/generated" },
  torture: { layouts: ["./torture.layout.json", "./punctuation"], out: "./generated/torture" },
} as const satisfies Record<string, { layouts: readonly string[]; out: string }>;

export const goldenPath = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));
