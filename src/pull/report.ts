import { posixRelative, toPosixPath } from "../project/index.js";
import type { Change } from "./diff.js";
import { scriptChangeLine } from "./database-file.js";
import type { DatabasePullResult, LayoutPullResult, PullResult } from "./pull.js";

/** The change report of a pull, as plain text lines (what `fmgen pull` prints without `--json`). */
export function reportLines(result: PullResult): string[] {
  const show = relativeToProject(result);
  const lines = [`fmgen pull${result.check ? " --check" : ""}: database "${result.database}" on ${result.server}`];
  for (const layout of result.layouts) lines.push(...layoutLines(layout, show));
  lines.push(...databaseLines(result.databaseFile, show));
  for (const file of result.skipped) lines.push(`skipped ${show(file)}: it describes another database`);
  return lines;
}

function layoutLines(layout: LayoutPullResult, show: (file: string) => string): string[] {
  const head = `${layout.layout} -> ${show(layout.file)}`;
  if (layout.status === "failed") return [`${head}: FAILED: ${layout.error}`];
  const source = layout.source === "sample" ? `sampled ${layout.sampled} record${layout.sampled === 1 ? "" : "s"}` : "metadata";
  const lines = [`${head} (${source}): ${summary(layout)}`];
  for (const change of layout.changes) lines.push(`  ${changeLine(change)}`);
  for (const field of layout.uncertain) {
    const where = field.portal !== undefined ? `field "${field.field}" in portal "${field.portal}"` : `field "${field.field}"`;
    const kept = field.type === field.inferred ? "" : field.confidence === "low" ? "; kept from the file" : `; the file's type is kept, the values suggest ${field.inferred}`;
    lines.push(`  ? ${where}: ${field.type} (${field.confidence} confidence: ${field.reason}${kept})`);
  }
  for (const note of layout.notes) lines.push(`  note: ${note}`);
  return lines;
}

/** `scripts of "Invoicing" -> layouts/Invoicing.database.json: up to date`, its changes, or why the list could not be read. */
function databaseLines(database: DatabasePullResult, show: (file: string) => string): string[] {
  const head = `scripts of "${database.database}" -> ${show(database.file)}`;
  if (database.status === "unread") return [`${head}: not read, so left as it is: ${database.error}`];
  if (database.status === "none") return [`scripts of "${database.database}": none on the server, so no ${show(database.file)}`];
  const what = database.status === "created" ? `new file, ${count(database.scripts ?? 0, "script")}` : summary({ status: database.status, changes: database.changes });
  return [`${head}: ${what}`, ...database.changes.map((change) => `  ${scriptChangeLine(change)}`)];
}

function summary(layout: { status: LayoutPullResult["status"]; changes: readonly { breaking: boolean }[]; fields?: number | undefined; portals?: number | undefined }): string {
  switch (layout.status) {
    case "created":
      return `new file, ${layout.fields} field${layout.fields === 1 ? "" : "s"}, ${layout.portals} portal${layout.portals === 1 ? "" : "s"}`;
    case "unchanged":
      return "up to date";
    case "reformatted":
      return "up to date (the file is rewritten in fmgen's format)";
    default: {
      const breaking = layout.changes.filter((c) => c.breaking).length;
      return `${layout.changes.length} change${layout.changes.length === 1 ? "" : "s"}${breaking ? `, ${breaking} breaking` : ""}`;
    }
  }
}

/** `+ field "Note" (text)`, `- portal "Lines" (3 fields)  [breaking]`, `~ field "Amount": number -> text  [breaking]`. */
export function changeLine(change: Change): string {
  const what = `${change.target === "layout" ? "layout" : change.target} ${change.target === "layout" ? change.name : JSON.stringify(change.name)}${change.portal !== undefined ? ` in portal ${JSON.stringify(change.portal)}` : ""}`;
  const mark = change.breaking ? "  [breaking]" : "";
  switch (change.kind) {
    case "added":
      return `+ ${what} (${change.to})${mark}`;
    case "removed":
      return `- ${what} (${change.from})${mark}`;
    case "retyped":
      return `~ ${what}: retyped ${change.from} -> ${change.to}${mark}`;
    case "changed":
      return `~ ${what}: ${change.target === "layout" ? "" : `${change.attribute} `}${change.from} -> ${change.to}${mark}`;
  }
}

/** One closing line: what was written, or for `--check` whether the descriptions match the server. */
export function closingLine(result: PullResult): { line: string; toStderr: boolean } {
  const show = relativeToProject(result);
  const drifting = result.layouts.filter((l) => l.status === "created" || l.status === "updated" || l.status === "failed");
  const database = result.databaseFile;
  const databaseDrifts = database.status === "created" || database.status === "updated";
  if (result.check) {
    if (drifting.length === 0 && !databaseDrifts) {
      const scripts =
        database.status === "unread" ? `; the scripts were not read (see ${show(database.file)} above)` : database.status === "none" ? "" : ` and so does ${show(database.file)}`;
      return { line: `fmgen pull --check: ${count(result.layouts.length, "layout")} match${result.layouts.length === 1 ? "es" : ""} the server${scripts}`, toStderr: false };
    }
    const what = [
      ...drifting.map((l) => (l.status === "failed" ? `${l.layout} (failed)` : l.status === "created" ? `${l.layout} (no description file)` : `${l.layout} (${changeCount(l.changes)})`)),
      ...(databaseDrifts ? [`${show(database.file)} (${database.status === "created" ? "no such file" : changeCount(database.changes)})`] : []),
    ].join(", ");
    return { line: `fmgen pull --check: the descriptions differ from the server: ${what}. Run "fmgen pull" and commit the result.`, toStderr: true };
  }
  const failed = result.layouts.filter((l) => l.status === "failed").map((l) => l.layout);
  const wrote = result.written.length ? `wrote ${result.written.map(show).join(", ")}` : undefined;
  if (failed.length === 0) return { line: `fmgen pull: ${wrote ?? "nothing to write: the descriptions match the server"}`, toStderr: false };
  const which = `${failed.join(", ")}, see above`;
  // When every layout failed, pull writes nothing (no description, no script list, no state).
  if (failed.length === result.layouts.length) return { line: `fmgen pull: every layout failed (${which}); nothing written`, toStderr: true };
  return {
    line: wrote ? `fmgen pull: ${wrote}; failed: ${which}` : `fmgen pull: failed: ${which}; the other descriptions match the server, nothing written`,
    toStderr: true,
  };
}

function changeCount(changes: readonly { breaking: boolean }[]): string {
  const breaking = changes.filter((c) => c.breaking).length;
  return `${count(changes.length, "change")}${breaking ? `, ${breaking} breaking` : ""}`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** Paths relative to the project's folder (where fmgen.config.json is), `/`-separated. */
function relativeToProject(result: PullResult): (file: string) => string {
  return (file) => posixRelative(result.root, file) || toPosixPath(file);
}

/** The result as JSON for `--json`: paths relative to the project's folder. */
export function reportJson(result: PullResult): string {
  const show = relativeToProject(result);
  return JSON.stringify(
    {
      ...result,
      layouts: result.layouts.map((l) => ({ ...l, file: show(l.file) })),
      databaseFile: { ...result.databaseFile, file: show(result.databaseFile.file) },
      written: result.written.map(show),
      skipped: result.skipped.map(show),
    },
    null,
    2,
  );
}
