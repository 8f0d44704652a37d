import { z } from "zod";

/**
 * The one rule for a name that travels in a URL path segment and in `$metadata`'s XML: a database, layout, table
 * occurrence, script, and a table description's fields and relations (the Data API's `/layouts/{layout}`, OData's
 * `/{db}/{T}(k)/{F}`). Such a name must survive percent-encoding and back, UTF-8, and XML 1.0, so it holds none of:
 * - a lone surrogate (UTF-8 cannot encode it: it arrives as U+FFFD, and the name no longer matches),
 * - a noncharacter (U+FDD0..U+FDEF, and U+FFFE/U+FFFF at the end of every plane: XML 1.0 refuses U+FFFE/U+FFFF
 *   and discourages the others; they are reserved for a program's own use and no interchange),
 * - a C0 control character but tab, line feed and carriage return (XML 1.0 cannot carry them, not even escaped),
 * and it is not made of dots only (`.` and `..` are the path's current and parent segment: a URL resolves them away).
 *
 * Returns why `name` breaks the rule, or undefined when it keeps it.
 */
export function carriedNameFault(name: string): string | undefined {
  if (/^\.+$/.test(name)) return "it is only dots, which a URL path reads as the current or parent segment";
  for (const char of name) {
    const code = char.codePointAt(0)!;
    const at = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
    if (code >= 0xd800 && code <= 0xdfff) return `it holds a lone surrogate ${at}, which UTF-8 cannot carry`;
    if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return `it holds a control character ${at}, which XML 1.0 cannot carry`;
    if ((code >= 0xfdd0 && code <= 0xfdef) || (code & 0xfffe) === 0xfffe) return `it holds the noncharacter ${at}, which XML and interchange refuse`;
  }
  return undefined;
}

/** How a name is quoted in a message: JSON's escapes show the characters the rule refuses. */
export function shownName(name: string): string {
  return `'${JSON.stringify(name).slice(1, -1)}'`;
}

/** A description's non-empty name of a `what`, refused (naming the rule) when carriedNameFault finds a fault. */
export function carriedNameSchema(what: string): z.ZodString {
  return z
    .string()
    .min(1)
    .superRefine((name, ctx) => {
      const fault = carriedNameFault(name);
      if (fault !== undefined) ctx.addIssue({ code: "custom", message: `${shownName(name)} cannot name a ${what}: ${fault}` });
    });
}
