import { parseJsonExactly } from "../../../runtime/core/json-numbers.js";
import { EmulatorError } from "../../hosted-file/fm-error.js";
import { describeInput } from "../../hosted-file/input/input-text.js";
import { NumberToken } from "../../../runtime/core/json-numbers.js";
import { assertJsonDepth, assertNoDuplicateKeys } from "./json-depth.js";

/** A whole number >= 1 given as text (query parameters, find's offset/limit) or as a JSON number. */
export function positiveInteger(raw: unknown, name: string, fallback: number): number {
  if (raw === undefined || raw === null) return fallback;
  const text = typeof raw === "number" ? String(raw) : raw instanceof NumberToken ? raw.text : raw;
  if (typeof text !== "string" || !/^\d+$/.test(text.trim())) {
    throw new EmulatorError(400, "1708", `${name} must be a whole number >= 1, got ${describeInput(raw)}`);
  }
  const n = Number(text.trim());
  if (n < 1) throw new EmulatorError(400, "1708", `${name} must be a whole number >= 1, got ${describeInput(raw)}`);
  // Any count past the largest safe integer means "all of them"; it is valid, just larger than any table.
  return Math.min(n, Number.MAX_SAFE_INTEGER);
}

/** `_sort` travels as URL-encoded JSON (its number tokens read as a body's are: parseJson). */
export function jsonParam(raw: string | null, name: string): unknown {
  if (raw === null) return undefined;
  let parsed: unknown;
  try {
    parsed = parseJsonExactly(raw);
  } catch {
    throw new EmulatorError(400, "1708", `${name} must be URL-encoded JSON`);
  }
  assertJsonDepth(parsed, name, name);
  assertNoDuplicateKeys(raw, name);
  return parsed;
}
