import { posixRelative, toPosixPath } from "../project/index.js";
import { changeLine, type Change } from "./change.js";
import { scriptChangeLine } from "./database-file.js";
import type { DescriptionStatus } from "./description-file.js";
import type { PullHead, PullTotals } from "./finish.js";
import type { DatabasePullResult } from "./pull.js";
import { likelyName } from "./errors.js";

/**
 * The report of a pull, layouts' (`fmgen pull`) and tables' (`fmgen pull --odata`) alike, as plain text lines (what
 * the command prints without `--json`): a head line, each description file with its changes and notes, the skipped
 * files, and one closing line. Each pull says what its result holds as a PullReport (layout-report.ts,
 * odata/table-report.ts).
 */

/** One description file of a pull, as the report shows it. */
export interface ReportedFile {
  /** The layout's or the table's name, as the server spells it. */
  name: string;
  /** The name as asked, when the server spells it otherwise (case aside, it matched): shown beside the server's. */
  askedAs?: string | undefined;
  /** The file, absolute. */
  file: string;
  status: DescriptionStatus | "failed";
  /** How it was read, after the file: `metadata`, `sampled 3 records`; none when there is one way only. */
  source?: string | undefined;
  /** What a new file holds: `3 fields, 1 portal`. */
  contents?: string | undefined;
  changes: readonly Change[];
  /** Lines after the changes, indented: uncertain fields, then notes. */
  details: readonly string[];
  error?: string | undefined;
  /** Failed because the server has no such layout or table: the names it has, closest first. */
  missing?: { closest: readonly string[] } | undefined;
}

export interface PullReport extends PullHead, PullTotals {
  /** `fmgen pull` or `fmgen pull --odata`: the command that prints the report, and the one to run on drift. */
  command: string;
  /** What each file describes, as the closing line counts them: `layout`, `table`. */
  noun: string;
  files: readonly ReportedFile[];
  /** The database description of a layout pull (its scripts). */
  databaseFile?: DatabasePullResult | undefined;
  skipped: readonly string[];
}

export function reportLines(report: PullReport): string[] {
  const show = relativeToProject(report.root);
  const lines = [`${report.command}${report.check ? " --check" : ""}: database "${report.database}" on ${report.server}`];
  for (const file of report.files) lines.push(...fileLines(file, show));
  if (report.databaseFile) lines.push(...databaseLines(report.databaseFile, show));
  for (const file of report.skipped) lines.push(`skipped ${show(file)}: it describes another database`);
  return lines;
}

function fileLines(file: ReportedFile, show: (file: string) => string): string[] {
  const head = `${file.name}${file.askedAs !== undefined ? ` (asked as ${JSON.stringify(file.askedAs)})` : ""} -> ${show(file.file)}`;
  const { status } = file;
  if (status === "failed") return [`${head}: FAILED: ${file.error}`];
  return [`${head}${file.source !== undefined ? ` (${file.source})` : ""}: ${summary({ status, changes: file.changes, contents: file.contents })}`, ...file.changes.map((change) => `  ${changeLine(change)}`), ...file.details.map((line) => `  ${line}`)];
}

/** `scripts of "Invoicing" -> layouts/Invoicing.database.json: up to date`, its changes, or why the list could not be read. */
function databaseLines(database: DatabasePullResult, show: (file: string) => string): string[] {
  const head = `scripts of "${database.database}" -> ${show(database.file)}`;
  if (database.status === "unread") return [`${head}: not read, so left as it is: ${database.error}`];
  if (database.status === "none") return [`scripts of "${database.database}": none on the server, so no ${show(database.file)}`];
  const what = database.status === "created" ? `new file, ${count(database.scripts ?? 0, "script")}` : summary({ status: database.status, changes: database.changes });
  return [`${head}: ${what}`, ...database.changes.map((change) => `  ${scriptChangeLine(change)}`)];
}

function summary(file: { status: DescriptionStatus; changes: readonly { breaking: boolean }[]; contents?: string | undefined }): string {
  switch (file.status) {
    case "created":
      return `new file, ${file.contents}`;
    case "unchanged":
      return "up to date";
    case "reformatted":
      return "up to date (the file is rewritten in fmgen's format)";
    case "updated":
      return changeCount(file.changes);
  }
}

/** One closing line: what was written, or for `--check` whether the descriptions match the server. */
export function closingLine(report: PullReport): { line: string; toStderr: boolean } {
  const show = relativeToProject(report.root);
  const { command, noun, files } = report;
  const drifting = files.filter((f) => f.status === "created" || f.status === "updated" || f.status === "failed");
  const database = report.databaseFile;
  const databaseDrifts = database?.status === "created" || database?.status === "updated";
  if (report.check) {
    if (drifting.length === 0 && !databaseDrifts) {
      const scripts = !database || database.status === "none" ? "" : database.status === "unread" ? `; the scripts were not read (see ${show(database.file)} above)` : ` and so does ${show(database.file)}`;
      return { line: `${command} --check: ${count(files.length, noun)} match${files.length === 1 ? "es" : ""} the server${scripts}`, toStderr: false };
    }
    // A name the server does not have is a wrong name, not drift: said apart, with the name most likely meant.
    const missing = drifting.filter((f) => f.missing);
    const notThere = missing.length
      ? `no ${noun}${missing.length > 1 ? "s" : ""} named ${missing
          .map((f) => {
            const likely = likelyName(f.name, f.missing!.closest);
            return `"${f.name}"${likely ? ` (did you mean "${likely}"?)` : ""}`;
          })
          .join(", ")} on the server`
      : "";
    if (missing.length === drifting.length && !databaseDrifts) {
      return { line: `${command} --check: ${notThere}; check the name: ${command} --list shows the server's ${noun}s`, toStderr: true };
    }
    const what = [
      ...drifting.filter((f) => !f.missing).map((f) => (f.status === "failed" ? `${f.name} (failed)` : f.status === "created" ? `${f.name} (no description file)` : `${f.name} (${changeCount(f.changes)})`)),
      ...(database && databaseDrifts ? [`${show(database.file)} (${database.status === "created" ? "no such file" : changeCount(database.changes)})`] : []),
    ].join(", ");
    return { line: `${command} --check: ${notThere ? `${notThere}; ` : ""}the descriptions differ from the server: ${what}. Run "${command}" and commit the result.`, toStderr: true };
  }
  const failed = files.filter((f) => f.status === "failed").map((f) => f.name);
  const wrote = report.written.length ? `wrote ${report.written.map(show).join(", ")}` : undefined;
  if (failed.length === 0) return { line: `${command}: ${wrote ?? "nothing to write: the descriptions match the server"}`, toStderr: false };
  const which = `${failed.join(", ")}, see above`;
  // When every one failed, a pull writes nothing (no description, no script list, no state).
  if (failed.length === files.length && !wrote) return { line: `${command}: every ${noun} failed (${which}); nothing written`, toStderr: true };
  return {
    line: wrote ? `${command}: ${wrote}; failed: ${which}` : `${command}: failed: ${which}; the other descriptions match the server, nothing written`,
    toStderr: true,
  };
}

function changeCount(changes: readonly { breaking: boolean }[]): string {
  const breaking = changes.filter((c) => c.breaking).length;
  return `${count(changes.length, "change")}${breaking ? `, ${breaking} breaking` : ""}`;
}

export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** Paths relative to the project's folder (where fmgen.config.json is), `/`-separated. */
function relativeToProject(root: string): (file: string) => string {
  return (file) => posixRelative(root, file) || toPosixPath(file);
}

/** A pull's result as JSON for `--json`: every `file`, `written` and `skipped` path relative to the project's folder. */
export function reportJson(result: PullHead & { written: readonly string[]; skipped: readonly string[] }): string {
  const show = relativeToProject(result.root);
  return JSON.stringify(
    result,
    (key, value: unknown) => (key === "file" && typeof value === "string" ? show(value) : (key === "written" || key === "skipped") && Array.isArray(value) ? value.map((file: string) => show(file)) : value),
    2,
  );
}
