import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { describeIssue, formatJson, parseJsonText, type JsonFileErrorClass } from "../project/index.js";

/**
 * What a pull does with one description file, a layout's (`*.layout.json`) or the database's
 * (`<Database>.database.json`) alike: read the file there is, validated, and, once the server's view is merged into
 * it, decide its outcome (created, updated, reformatted or unchanged) and the text to write.
 */

/** A description file on disk: where, its text as read (to tell a reformatting), and its validated contents. */
export interface ExistingDescription<T> {
  file: string;
  text: string;
  description: T;
}

/**
 * Reads and validates a description file: a syntax error or a schema complaint is an `ErrorClass` naming the file
 * and the path inside it.
 */
export async function readDescriptionFile<S extends z.ZodType>(file: string, schema: S, ErrorClass: JsonFileErrorClass): Promise<ExistingDescription<z.output<S>>> {
  const text = await readFile(file, "utf8");
  const parsed = schema.safeParse(parseJsonText(text, file, ErrorClass));
  if (!parsed.success) throw new ErrorClass(file, parsed.error.issues.map(describeIssue));
  return { file, text, description: parsed.data };
}

/** `created`: there was no file. `updated`: the server changed what it says. `reformatted`: only its text changes. */
export type DescriptionStatus = "created" | "updated" | "reformatted" | "unchanged";

export interface DescriptionOutcome<C> {
  status: DescriptionStatus;
  /** What the merge changed, against the file there was (none for a new file). */
  changes: C[];
  /** The file to write; none when it is unchanged. */
  write?: { file: string; contents: string };
}

/** The outcome for `file` of writing `merged` where `existing` is (or is not): `diff` lists what changed. */
export function descriptionOutcome<T, C>(file: string, existing: ExistingDescription<T> | undefined, merged: T, diff: (before: T, after: T) => C[]): DescriptionOutcome<C> {
  const text = formatJson(merged);
  const changes = existing ? diff(existing.description, merged) : [];
  const status: DescriptionStatus = !existing ? "created" : changes.length > 0 ? "updated" : text !== existing.text ? "reformatted" : "unchanged";
  return status === "unchanged" ? { status, changes } : { status, changes, write: { file, contents: text } };
}
