/**
 * A query option's value as real servers read it (wire contract 2.8): percent-encoded as UTF-8, except that `:` (in a
 * timestamp) and `,` (between `$select` items) must stay literal, and `~` must be encoded. Spaces are `%20`, never `+`
 * (a `+` is encoded too: `%2B`). A string with a lone surrogate has no UTF-8 form: refused with a TypeError that says
 * so (encodeURIComponent's own error is a bare "URI malformed").
 */
export function queryValue(text: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    throw new TypeError(`a query value holds a lone surrogate (half of a UTF-16 pair), which no URL can carry: ${JSON.stringify(text.slice(0, 80))}`);
  }
  return encoded.replace(/%3A|%2C|~/g, (m) => (m === "~" ? "%7E" : m === "%2C" ? "," : ":"));
}

/** `$name=value&…` from the options that are set, in the order given; the `$` stays literal (`%24top` is ignored by servers). */
export function queryString(options: readonly (readonly [name: string, value: string | undefined])[]): string {
  return options
    .filter((option): option is readonly [string, string] => option[1] !== undefined)
    .map(([name, value]) => `${name}=${queryValue(value)}`)
    .join("&");
}
