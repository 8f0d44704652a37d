import { createHash } from "node:crypto";

/**
 * Names fmgen derives from a user's name (type names, file names) are bounded, so that any layout or portal name,
 * however long, gives identifiers of a sane size and file names every file system takes (most allow 255 bytes,
 * and the writers add a temporary suffix). The full name still travels in string literals and JSDoc.
 */
export const MAX_DERIVED_NAME = 100;

/** The first 6 hex digits of the SHA-256 of `raw`: a stable, short stand-in for a name. */
export function shortHash(raw: string): string {
  return createHash("sha256").update(raw, "utf8").digest("hex").slice(0, 6);
}

/**
 * `derived` itself when it has at most `max` characters; else its start and `separator` + `shortHash(raw)`,
 * `max` characters in all, so that two long names sharing a prefix still get distinct names.
 */
export function boundName(derived: string, raw: string, separator: "_" | "-", max = MAX_DERIVED_NAME): string {
  if (derived.length <= max) return derived;
  const suffix = `${separator}${shortHash(raw)}`;
  return `${derived.slice(0, max - suffix.length)}${suffix}`;
}
