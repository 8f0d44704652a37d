/**
 * What a pull changes in a description, one record for layouts (diff.ts) and tables (odata/diff.ts), and the line
 * the report shows for it. A change is breaking when code compiled against the old description may stop compiling or
 * start failing at run time; each diff says which of its changes are.
 */

export type ChangeKind = "added" | "removed" | "renamed" | "retyped" | "changed";

export interface Change {
  kind: ChangeKind;
  /** The whole description (`layout`, `table`), or one of its fields, portals or relations. */
  target: "layout" | "table" | "field" | "portal" | "relation";
  /** The field's, portal's or relation's name (the new one for a rename); the attribute's for a change of the whole. */
  name: string;
  /** Set for fields of a portal. */
  portal?: string;
  /** For `changed`: which attribute. */
  attribute?: string;
  from?: string;
  to?: string;
  breaking: boolean;
}

/** A field's type as the report shows it: `text`, `text[3]` for repetitions. */
export function fieldSummary(field: { type: string; repetitions?: number | undefined }): string {
  return `${field.type}${(field.repetitions ?? 1) > 1 ? `[${field.repetitions}]` : ""}`;
}

/** Adds to `changes` a `changed` record of `attribute` of `subject` when `from` and `to` differ. */
export function compareAttribute(changes: Change[], subject: Pick<Change, "target" | "name" | "portal">, attribute: string, from: unknown, to: unknown, breaking: boolean): void {
  if (JSON.stringify(from) !== JSON.stringify(to)) changes.push({ kind: "changed", ...subject, attribute, from: shown(from), to: shown(to), breaking });
}

/** A value as a change shows it: `none` for none, a list's values quoted. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return value.map((v) => JSON.stringify(v)).join(", ");
  return String(value);
}

/**
 * `+ field "Note" (text)`, `- portal "Lines" (3 fields)  [breaking]`, `~ field "Amount": retyped number -> text  [breaking]`,
 * `~ field "Phone": renamed from "Tel" (same id)  [breaking]`, `~ layout table: Old -> New`.
 */
export function changeLine(change: Change): string {
  const whole = change.target === "layout" || change.target === "table";
  const what = `${change.target} ${whole ? change.name : JSON.stringify(change.name)}${change.portal !== undefined ? ` in portal ${JSON.stringify(change.portal)}` : ""}`;
  const mark = change.breaking ? "  [breaking]" : "";
  switch (change.kind) {
    case "added":
      return `+ ${what} (${change.to})${mark}`;
    case "removed":
      return `- ${what} (${change.from})${mark}`;
    case "renamed":
      return whole ? `~ ${change.target} renamed from ${JSON.stringify(change.from)} to ${JSON.stringify(change.to)}${change.target === "table" ? " (same id)" : ""}${mark}` : `~ ${what}: renamed from ${JSON.stringify(change.from)} (same id)${mark}`;
    case "retyped":
      return `~ ${what}: retyped ${change.from} -> ${change.to}${mark}`;
    case "changed":
      return `~ ${what}: ${whole ? "" : `${change.attribute} `}${change.from} -> ${change.to}${mark}`;
  }
}
