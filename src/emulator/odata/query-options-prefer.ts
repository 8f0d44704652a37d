// The `Prefer` request header (docs/emulator.md, "`Prefer`") as a typed object. Preferences
// are hints (RFC 7240): an unknown one, or a known one with a value that does not fit, is ignored and listed in
// `ignored`; parsing never throws. Several values come comma-joined in one header, or as several headers (PKS).
// OData 4.01: `odata.`-prefixed and unprefixed names are both accepted, in any case (2.1).

export interface Preferences {
  /** `odata.maxpagesize=N` (N ≥ 1); the page is min(N, 10000) (2.5's choice, the caller's). */
  readonly maxPageSize?: number;
  /** `return=minimal` / `return=representation` (3.1). */
  readonly return?: "minimal" | "representation";
  /** `odata.continue-on-error` (4): true, or `=false` to turn it off explicitly. */
  readonly continueOnError: boolean;
  readonly includeSpecialColumns: boolean;
  readonly entityIds: boolean;
  readonly basicTimestamp: boolean;
  readonly gmtOffset: boolean;
  /** Preferences not applied, as written. */
  readonly ignored: readonly string[];
}

/** Most preferences read from one request; the rest are ignored. */
const MAX_PREFERENCES = 64;

export function parsePrefer(header: string | readonly string[] | undefined): Preferences {
  const out: { -readonly [K in keyof Preferences]: Preferences[K] } = {
    continueOnError: false,
    includeSpecialColumns: false,
    entityIds: false,
    basicTimestamp: false,
    gmtOffset: false,
    ignored: [],
  };
  const ignored: string[] = [];
  const headers = header === undefined ? [] : typeof header === "string" ? [header] : header;
  let seen = 0;
  for (const h of headers) {
    for (const raw of splitPreferences(h)) {
      const item = raw.trim();
      if (item === "") continue;
      if (++seen > MAX_PREFERENCES) {
        ignored.push(item);
        continue;
      }
      // Parameters after `;` carry nothing FileMaker reads.
      const token = item.split(";", 1)[0]!.trim();
      const eq = token.indexOf("=");
      const name = (eq < 0 ? token : token.slice(0, eq)).trim().toLowerCase().replace(/^odata\./, "");
      const value = eq < 0 ? undefined : unquote(token.slice(eq + 1).trim());
      if (!apply(out, name, value)) ignored.push(item);
    }
  }
  out.ignored = ignored;
  return out;
}

function apply(out: { -readonly [K in keyof Preferences]: Preferences[K] }, name: string, value: string | undefined): boolean {
  const flag = (): boolean | undefined => {
    if (value === undefined || value.toLowerCase() === "true") return true;
    if (value.toLowerCase() === "false") return false;
    return undefined;
  };
  switch (name) {
    case "maxpagesize": {
      if (value === undefined || !/^\d{1,9}$/.test(value) || Number(value) < 1) return false;
      out.maxPageSize = Number(value);
      return true;
    }
    case "return": {
      const v = value?.toLowerCase();
      if (v !== "minimal" && v !== "representation") return false;
      out.return = v;
      return true;
    }
    case "continue-on-error": {
      const f = flag();
      if (f === undefined) return false;
      out.continueOnError = f;
      return true;
    }
    case "fmodata.include-specialcolumns":
    case "fmodata.entity-ids":
    case "fmodata.basic-timestamp":
    case "fmodata.gmtoffset": {
      const f = flag();
      if (f === undefined) return false;
      const key = ({
        "fmodata.include-specialcolumns": "includeSpecialColumns",
        "fmodata.entity-ids": "entityIds",
        "fmodata.basic-timestamp": "basicTimestamp",
        "fmodata.gmtoffset": "gmtOffset",
      } as const)[name];
      out[key] = f;
      return true;
    }
    default:
      return false;
  }
}

/** Splits at commas outside double-quoted values. */
function splitPreferences(header: string): string[] {
  const out: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < header.length; i++) {
    const c = header[i];
    if (c === '"') quoted = !quoted;
    else if (c === "," && !quoted) {
      out.push(header.slice(start, i));
      start = i + 1;
    }
  }
  out.push(header.slice(start));
  return out;
}

function unquote(v: string): string {
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;
}
