/**
 * Keeps secrets out of errors. A proxy that echoes the request (its headers, its body) into an error page or a
 * FileMaker message would otherwise put the session token or the Basic credentials into an error's message,
 * its properties, its stack and its causes, and from there into logs. The session, which knows its secrets,
 * passes every error it throws through `redact`.
 */

const REDACTED = "[redacted]";

/** Each secret as it may appear in an echo: as is, JSON-escaped, percent-encoded; longest first. */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set(secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s)]));
  forms.delete("");
  return [...forms].sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of every secret form replaced. */
export function scrub(text: string, forms: readonly string[]): string {
  return forms.reduce((out, form) => out.replaceAll(form, REDACTED), text);
}

/**
 * Scrubs, in place, every string an error carries: its own properties (message, stack, bodyStart, serverMessage),
 * the plain objects and arrays it holds (its call) and its causes, at any depth. Other objects (a socket, a
 * caller's abort reason that is not an error) are left alone. Returns the error.
 */
export function redact<T>(value: T, forms: readonly string[], seen = new Set<object>()): T {
  if (typeof value !== "object" || value === null || seen.has(value)) return value;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (!(value instanceof Error) && prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null) return value;
  seen.add(value);
  // "stack" also where it is an accessor rather than an own value.
  for (const key of [...Reflect.ownKeys(value), "stack"]) {
    try {
      const before: unknown = (value as Record<PropertyKey, unknown>)[key];
      const after = typeof before === "string" ? scrub(before, forms) : redact(before, forms, seen);
      if (after !== before) Object.defineProperty(value, key, { value: after });
    } catch {
      // A getter that throws, a frozen property: left as it is (nothing the runtime makes is either).
    }
  }
  return value;
}
