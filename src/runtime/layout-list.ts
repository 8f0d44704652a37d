import { broken } from "./answer-shape.js";
import type { Session } from "./session.js";
import { segment } from "./transport.js";

/** One layout of the file. */
export interface LayoutEntry {
  name: string;
  /** The layout's table occurrence, when the server says (FileMaker Server 19 and later do). */
  table?: string;
  /** With `folders: true`: the folders the layout is in, outermost first (`[]` at the top). */
  folder?: string[];
}

/** One script of the file. */
export interface ScriptEntry {
  name: string;
  /** With `folders: true`: the folders the script is in, outermost first (`[]` at the top). */
  folder?: string[];
}

/**
 * A list call's options. The list is flat, in the server's order, folders left out; `folders: true` gives each
 * entry the path of the folders it is in.
 */
export interface ListingOptions {
  signal?: AbortSignal;
  folders?: boolean;
}

type InFolders<E> = E & { folder: string[] };

export interface LayoutListing {
  /** `GET /databases/{database}/layouts`: every layout of the file. */
  layouts(options: ListingOptions & { folders: true }): Promise<InFolders<LayoutEntry>[]>;
  layouts(options?: ListingOptions): Promise<LayoutEntry[]>;
  /** `GET /databases/{database}/scripts`: every script of the file. */
  scripts(options: ListingOptions & { folders: true }): Promise<InFolders<ScriptEntry>[]>;
  scripts(options?: ListingOptions): Promise<ScriptEntry[]>;
}

interface ListEntry {
  name?: unknown;
  table?: unknown;
  isFolder?: unknown;
  [inner: string]: unknown;
}

/** `fm.layouts()` and `fm.scripts()`, through the client's session. */
export function layoutListing(session: Session, database: string): LayoutListing {
  /** The `list` of `GET .../{list}` (`layouts`, `scripts`): entries walked depth first, each folder's in its `folder...Names`. */
  const listing = async (list: string, inner: string, options: ListingOptions = {}): Promise<LayoutEntry[]> => {
    const req = { method: "GET", path: `/databases/${segment(database)}/${list}` } as const;
    const envelope = await session.call(() => req, { idempotent: true, signal: options.signal });
    const out: LayoutEntry[] = [];
    const walk = (entries: unknown, folder: string[]) => {
      if (!Array.isArray(entries)) throw broken(envelope, req, `response.${list} (or a folder's ${inner}) is not an array`);
      for (const entry of entries as (ListEntry | null)[]) {
        if (typeof entry?.name !== "string") throw broken(envelope, req, `a ${list.slice(0, -1)} or folder has no name`);
        if (entry.isFolder === true) walk(entry[inner], [...folder, entry.name]);
        else out.push({ name: entry.name, ...(typeof entry.table === "string" && entry.table ? { table: entry.table } : {}), ...(options.folders ? { folder } : {}) });
      }
    };
    walk(envelope.response[list], []);
    return out;
  };
  return {
    layouts: (options?: ListingOptions) => listing("layouts", "folderLayoutNames", options),
    scripts: (options?: ListingOptions) => listing("scripts", "folderScriptNames", options),
  } as LayoutListing;
}
