import { posixRelative, toPosixPath } from "../../project/index.js";
import { tableChangeLine } from "./diff.js";
import type { TablePullResult, TablesPullResult } from "./pull-tables.js";

/** The report of `fmgen pull --odata`, as the layout pull's (report.ts): a head line, each table and its changes. */
export function tableReportLines(result: TablesPullResult): string[] {
  const show = relativeTo(result.root);
  const lines = [`fmgen pull --odata${result.check ? " --check" : ""}: database "${result.database}" on ${result.server}`];
  for (const table of result.tables) {
    const head = `${table.table} -> ${show(table.file)}`;
    if (table.status === "failed") {
      lines.push(`${head}: FAILED: ${table.error}`);
      continue;
    }
    lines.push(`${head}: ${summary(table)}`);
    for (const change of table.changes) lines.push(`  ${tableChangeLine(change)}`);
    for (const note of table.notes) lines.push(`  note: ${note}`);
  }
  for (const file of result.skipped) lines.push(`skipped ${show(file)}: it describes another database`);
  return lines;
}

function summary(table: TablePullResult): string {
  switch (table.status) {
    case "created":
      return `new file, ${count(table.fields ?? 0, "field")}, ${count(table.relations ?? 0, "relation")}`;
    case "unchanged":
      return "up to date";
    case "reformatted":
      return "up to date (the file is rewritten in fmgen's format)";
    default:
      return changeCount(table.changes);
  }
}

/** One closing line: what was written, or for `--check` whether the descriptions match the server. */
export function tableClosingLine(result: TablesPullResult): { line: string; toStderr: boolean } {
  const show = relativeTo(result.root);
  if (result.check) {
    const drifting = result.tables.filter((t) => t.status === "created" || t.status === "updated" || t.status === "failed");
    if (drifting.length === 0) return { line: `fmgen pull --odata --check: ${count(result.tables.length, "table")} match${result.tables.length === 1 ? "es" : ""} the server`, toStderr: false };
    const what = drifting.map((t) => (t.status === "failed" ? `${t.table} (failed)` : t.status === "created" ? `${t.table} (no description file)` : `${t.table} (${changeCount(t.changes)})`));
    return { line: `fmgen pull --odata --check: the table descriptions differ from the server: ${what.join(", ")}. Run "fmgen pull --odata" and commit the result.`, toStderr: true };
  }
  const failed = result.tables.filter((t) => t.status === "failed").map((t) => t.table);
  const wrote = result.written.length ? `wrote ${result.written.map(show).join(", ")}` : undefined;
  if (failed.length === 0) return { line: `fmgen pull --odata: ${wrote ?? "nothing to write: the table descriptions match the server"}`, toStderr: false };
  return { line: `fmgen pull --odata: ${wrote ? `${wrote}; ` : ""}failed: ${failed.join(", ")}, see above`, toStderr: true };
}

/** The result as JSON for `--json`: paths relative to the project's folder. */
export function tableReportJson(result: TablesPullResult): string {
  const show = relativeTo(result.root);
  return JSON.stringify({ ...result, tables: result.tables.map((t) => ({ ...t, file: show(t.file) })), written: result.written.map(show), skipped: result.skipped.map(show) }, null, 2);
}

function changeCount(changes: readonly { breaking: boolean }[]): string {
  const breaking = changes.filter((c) => c.breaking).length;
  return `${count(changes.length, "change")}${breaking ? `, ${breaking} breaking` : ""}`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function relativeTo(root: string): (file: string) => string {
  return (file) => posixRelative(root, file) || toPosixPath(file);
}
