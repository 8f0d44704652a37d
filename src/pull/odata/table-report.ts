import { count, type PullReport } from "../report.js";
import type { TablesPullResult } from "./pull-tables.js";

/** A table pull's result as the report shows it (report.ts): each table, its changes and notes. */
export function tableReport(result: TablesPullResult): PullReport {
  return {
    ...result,
    command: "fmgen pull --odata",
    noun: "table",
    files: result.tables.map((table) => ({
      name: table.table,
      askedAs: table.askedAs,
      file: table.file,
      status: table.status,
      contents: `${count(table.fields ?? 0, "field")}, ${count(table.relations ?? 0, "relation")}`,
      changes: table.changes,
      details: table.notes.map((note) => `note: ${note}`),
      error: table.error,
    })),
  };
}
