// The arguments of the metadata entry's calls, checked in a few bytes (that entry's budget has no room for the clients'
// checker of options-check.ts): the first one that is wrong is named, with what it was given (its type).

/**
 * Refuses a `layout` (unless it is `0`: the call takes none) that is no name, options that are no object, a `signal`
 * that is no AbortSignal, an `offset` or `limit` that is no number.
 */
export function checkCall(entry: string, options: unknown, layout: unknown): void {
  const o = Object(options) as Record<string, unknown>;
  const { offset = 1, limit = 1 } = o;
  const name =
    layout !== 0 && (typeof layout != "string" || !layout)
      ? "layout"
      : typeof options != "object" || !options
        ? "options"
        : o.signal !== undefined && !(o.signal instanceof AbortSignal)
          ? "options.signal"
          : typeof offset != "number"
            ? "options.offset"
            : typeof limit != "number" && "options.limit";
  const value = name == "layout" ? layout : name == "options" ? options : o[(name || "").slice(8)];
  if (name) throw new TypeError(`${entry}: ${name} cannot be ${value === "" ? '""' : value && typeof value}`);
}
