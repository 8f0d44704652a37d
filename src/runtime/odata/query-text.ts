/**
 * A query option's value as real servers read it (wire contract 2.8): percent-encoded, except that `:` (in a timestamp)
 * and `,` (between `$select` items) must stay literal, and `~` must be encoded. Spaces are `%20`, never `+`.
 */
export function queryValue(text: string): string {
  return encodeURIComponent(text).replace(/%3A|%2C|~/gi, (m) => (m === "~" ? "%7E" : m === "%2C" || m === "%2c" ? "," : ":"));
}

/** `$name=value&…` from the options that are set, in the order given; the `$` stays literal (`%24top` is ignored by servers). */
export function queryString(options: readonly (readonly [name: string, value: string | undefined])[]): string {
  return options
    .filter((option): option is readonly [string, string] => option[1] !== undefined)
    .map(([name, value]) => `${name}=${queryValue(value)}`)
    .join("&");
}
