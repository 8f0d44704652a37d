// What both APIs say about a field's values: its kind (the Data API's layouts and OData's tables have the same six)
// and what a write takes for a value read as `T`.

/**
 * A field's kind on the wire and in TypeScript: `text` (string), `number` (number or null; decimal text or null when
 * its spec says `exact`), `date`, `time` and `timestamp` (ISO strings or null), `container` (its URL).
 */
export type FieldKind = "text" | "number" | "date" | "time" | "timestamp" | "container";

/** What create and edit take for a field read as `T`: `null` clears it; a repetition left out or `undefined` is not sent. */
export type InputValue<T> = [T] extends [readonly unknown[]] ? { readonly [I in keyof T]?: T[I] | null | undefined } : T | null;
