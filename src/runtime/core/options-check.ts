// The options checks of both APIs' clients (createClient and createODataClient, each entry): a TypeError naming the
// entry, the option, what it wants and what it was given (its type, never a text's value: it may be a secret), so that
// a forgotten --env-file is told as such, not as a TypeError from inside ("Cannot read properties of undefined"). The
// token stores and the metadata entry check theirs in fewer bytes (their budgets have no room for this module).

/** What a value is, for a message: its type, or the falsy value itself (a text's value is never shown: it may be a secret). */
const given = (value: unknown): unknown => (value === "" ? '""' : value && typeof value);

/**
 * `<where> must be <want>, got <what it is>`; with `env`, an undefined or empty value adds that an unset environment
 * variable is the usual cause.
 */
export const optionError = (where: string, want: string, value: unknown, env?: 1): TypeError =>
  new TypeError(`${where} must be ${want}, got ${given(value)}${env && (value === undefined || value === "") ? ": an unset environment variable? (node --env-file=.env ...)" : ""}`);

/** A required text option (from the environment, usually), checked: a non-empty string. */
export function textOption(where: string, value: unknown, want = "a non-empty string"): string {
  if (typeof value != "string" || !value) throw optionError(where, want, value, 1);
  return value;
}

/**
 * Checks that `options` is an object and that each optional option named in `wants` is absent or as it says: "a
 * number" (not NaN), "an object", "a boolean", "a function", "a string", or the values it may take as `v1|v2|vLatest`
 * (told as "one of v1|v2|vLatest").
 */
export function checkOptions(entry: string, options: unknown, wants: Record<string, string>): void {
  if (typeof options != "object" || !options) throw optionError(`${entry}: options`, "an object", options);
  for (const name in wants) {
    const value = (options as Record<string, unknown>)[name];
    const want = wants[name]!;
    const values = want.split("|");
    if (value === undefined) continue;
    if (values[1] ? !values.includes(value as string) : typeof value != want.slice(want.indexOf(" ") + 1) || value === null || value !== value) {
      throw optionError(`${entry}: options.${name}`, values[1] ? `one of ${want}` : want, value);
    }
  }
}
