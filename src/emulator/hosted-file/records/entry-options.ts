import { EmulatorError } from "../fm-error.js";
import { describeInput } from "../input/input-text.js";
import { unknownParameters } from "../input/unknown-parameters.js";
import type { TableField } from "../model.js";

/**
 * `options: { entrymode, prohibitmode }` on create and edit (docs/emulator.md, "7. Duplicate, delete related rows, edit
 * portal rows, options, upload modId"): whether the write counts as a user's data entry ("user", the default) or as a
 * script's ("script").
 *
 * - `entrymode` decides whether `required` (509) and `unique` (504) apply, with each field's `validate`
 *   (FileMaker's "Validate data in this field"): a field that validates "always" is checked on every write; one
 *   that validates during data entry ("dataEntry", FileMaker's default and the description's) only on a user's
 *   data entry. See {@link appliesValidation}, the one place that decides it, and the kind of each write below.
 *   A value that does not fit the field's type (500/501/502) cannot be stored at all, whoever writes it.
 *   Value-list membership is never validated by the emulator (accepted in either mode).
 * - `prohibitmode: "script"` allows writing fields that prohibit modification: in a description, a `readOnly`
 *   field with `autoEnter` (a serial, a UUID, a creation or modification stamp). A `readOnly` field without
 *   `autoEnter` is a calculation or summary and is never writable. Either refusal is code 201.
 *
 * Which writes are data entry:
 * - a Data API create or edit, with its portal rows: as its `options.entrymode` says (default "user": data entry);
 * - a duplicate: not data entry (FileMaker's Duplicate Record), {@link SCRIPT_ENTRY};
 * - a script handler's `records.create` / `records.edit`: not data entry (a script's New Record and Set Field),
 *   {@link SCRIPT_ENTRY};
 * - seed data: not data entry (the file's records as they are, as an import, which validates only "always"
 *   fields), {@link SCRIPT_ENTRY};
 * - an upload writes one container field with a file: nothing `required` or `unique` checks can refuse, so it is
 *   not validated.
 */
export type EntryMode = "user" | "script";

export interface EntryOptions {
  entryMode: EntryMode;
  prohibitMode: EntryMode;
}

/** A user's data entry: every validation, no protected field written. The default of create and edit. */
export const USER_ENTRY: EntryOptions = Object.freeze({ entryMode: "user", prohibitMode: "user" });

/**
 * A write that is not data entry (a duplicate, a script handler's write, seed data): only "always" validation
 * applies; fields that prohibit modification are entered by their auto-enter options, never from a client's value.
 */
export const SCRIPT_ENTRY: EntryOptions = Object.freeze({ entryMode: "script", prohibitMode: "user" });

const OPTION_KEYS: Record<string, keyof EntryOptions> = { entrymode: "entryMode", prohibitmode: "prohibitMode" };

/** A create or edit body's `options`: an object with `entrymode` and/or `prohibitmode`, each "user" or "script". */
export function entryOptions(raw: unknown): EntryOptions {
  if (raw === undefined) return USER_ENTRY;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new EmulatorError(400, "1708", `options must be an object such as { "entrymode": "script" }, got ${describeInput(raw)}`);
  }
  const given = raw as Record<string, unknown>;
  // No parameter silently ignored: an option the emulator does not know is an unknown parameter, named in full.
  const unknown = Object.keys(given).filter((key) => !Object.hasOwn(OPTION_KEYS, key));
  if (unknown.length > 0) throw unknownParameters(unknown.map((key) => `options.${key}`));
  const options: EntryOptions = { ...USER_ENTRY };
  for (const [key, member] of Object.entries(OPTION_KEYS)) {
    const value = given[key];
    if (value === undefined) continue;
    if (value !== "user" && value !== "script") throw new EmulatorError(400, "1708", `options.${key} must be "user" or "script", got ${describeInput(value)}`);
    options[member] = value;
  }
  return options;
}

/**
 * Whether a field's `required` (509) and `unique` (504) apply to this write: always for a field that validates
 * "always"; for one that validates during data entry, only when the write is a user's data entry.
 */
export function appliesValidation(field: TableField, options: EntryOptions): boolean {
  return field.validate === "always" || options.entryMode === "user";
}

/** Throws 201 when a client may not write this field under these options. */
export function checkWritable(field: TableField, key: string, options: EntryOptions): void {
  if (field.computed?.kind === "related") {
    throw new EmulatorError(400, "201", `"${key}" is a related field, joined through ${field.computed.describe}; write it through a layout or portal of its own table`);
  }
  if (!field.readOnly) return;
  if (field.autoEnter === undefined) {
    throw new EmulatorError(400, "201", `"${key}" is a calculation or summary field (readOnly without autoEnter); no option makes it writable`);
  }
  if (options.prohibitMode !== "script") {
    throw new EmulatorError(400, "201", `"${key}" prohibits modification (readOnly ${field.autoEnter}); send options: { "prohibitmode": "script" } to write it`);
  }
}
