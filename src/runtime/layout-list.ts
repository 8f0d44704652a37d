import { broken } from "./answer-shape.js";
import type { Session } from "./session.js";
import { segment } from "./transport.js";

/** One layout of the file; folders of the server's list are flattened, in order. */
export interface LayoutEntry {
  name: string;
  /** The layout's table occurrence, when the server says (FileMaker Server 19 and later do). */
  table?: string;
}

export interface LayoutListing {
  /** `GET /databases/{database}/layouts`: every layout of the file. */
  layouts(options?: { signal?: AbortSignal }): Promise<LayoutEntry[]>;
}

interface ListEntry {
  name?: unknown;
  table?: unknown;
  isFolder?: unknown;
  folderLayoutNames?: unknown;
}

/** `fm.layouts()`, through the client's session. */
export function layoutListing(session: Session, database: string): LayoutListing {
  const base = `/databases/${segment(database)}/layouts`;
  return {
    async layouts(options = {}) {
      const req = { method: "GET", path: base } as const;
      const envelope = await session.call(() => req, { idempotent: true, signal: options.signal });
      const out: LayoutEntry[] = [];
      const walk = (entries: unknown) => {
        if (!Array.isArray(entries)) throw broken(envelope, req, "response.layouts (or a folder's folderLayoutNames) is not an array");
        for (const entry of entries as (ListEntry | null)[]) {
          if (typeof entry?.name !== "string") throw broken(envelope, req, "a layout or folder has no name");
          if (entry.isFolder === true) walk(entry.folderLayoutNames);
          else out.push(typeof entry.table === "string" && entry.table ? { name: entry.name, table: entry.table } : { name: entry.name });
        }
      };
      walk(envelope.response.layouts);
      return out;
    },
  };
}
