import { FileMakerError } from "./errors.js";
import { NetworkError, ProtocolError } from "../core/protocol-errors.js";

/**
 * Keeps secrets out of errors. A proxy that echoes the request (its headers, its body) into an error page or a
 * FileMaker message would otherwise put the session token or the Basic credentials into an error's message,
 * its properties, its stack and its causes, and from there into logs.
 *
 * Secrets are taken out where they can appear, never from what the client decides on: the runtime's own errors are
 * made from text already scrubbed (the server's message, the start of a body that is not an envelope, a connection
 * fault's message, a server's names), so their code, HTTP status, call (a path built from layout names) and script
 * results stay exact; what others made (a cause from the connection, a token store, a callback) is scrubbed whole.
 */

// The secrets' forms and scrubbing are in secrets.ts (shared with the OData client); re-exported for the Data API.
import { scrub, type SecretForms } from "../core/secrets.js";
export { scrub, secretForms } from "../core/secrets.js";

/**
 * Scrubs, in place, every string what others made carries (an error's message, stack and properties other than its
 * `code`, the plain objects and arrays it holds, its causes), at any depth, walked without recursion. The runtime's
 * own errors are left as they are but for their cause; objects that are neither errors nor plain (a socket, a
 * caller's abort reason that is not an error) are left alone. Returns `error`.
 */
export function redact<T>(error: T, forms: SecretForms): T {
  const seen = new Set<unknown>();
  for (const todo: unknown[] = [error]; todo.length; ) {
    const value = todo.pop() as Record<PropertyKey, unknown>;
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    if (value instanceof FileMakerError || value instanceof ProtocolError || value instanceof NetworkError) {
      todo.push(value.cause);
      continue;
    }
    const prototype: unknown = Object.getPrototypeOf(value);
    if (!(value instanceof Error) && prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null) continue;
    // "stack" also where it is an accessor rather than an own value.
    for (const key of [...Reflect.ownKeys(value), "stack"]) {
      try {
        const before = value[key];
        const after = typeof before === "string" && key !== "code" ? scrub(before, forms) : todo.push(before) && before;
        if (after !== before) Object.defineProperty(value, key, { value: after });
      } catch {
        // A getter that throws, a frozen property: left as it is (nothing the runtime makes is either).
      }
    }
  }
  return error;
}
