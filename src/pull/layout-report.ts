import type { PullResult } from "./pull.js";
import { count, type PullReport } from "./report.js";

/** A layout pull's result as the report shows it (report.ts): each layout, how it was read, its uncertain fields and notes, and the database's scripts. */
export function layoutReport(result: PullResult): PullReport {
  return {
    ...result,
    command: "fmgen pull",
    noun: "layout",
    files: result.layouts.map((layout) => ({
      name: layout.layout,
      askedAs: layout.askedAs,
      file: layout.file,
      status: layout.status,
      source: layout.source === "sample" ? `sampled ${count(layout.sampled ?? 0, "record")}` : "metadata",
      contents: `${count(layout.fields ?? 0, "field")}, ${count(layout.portals ?? 0, "portal")}`,
      changes: layout.changes,
      details: [
        ...layout.uncertain.map((field) => {
          const where = field.portal !== undefined ? `field "${field.field}" in portal "${field.portal}"` : `field "${field.field}"`;
          const kept = field.type === field.inferred ? "" : field.confidence === "low" ? "; kept from the file" : `; the file's type is kept, the values suggest ${field.inferred}`;
          return `? ${where}: ${field.type} (${field.confidence} confidence: ${field.reason}${kept})`;
        }),
        ...layout.notes.map((note) => `note: ${note}`),
      ],
      error: layout.error,
      missing: layout.missing,
    })),
  };
}
