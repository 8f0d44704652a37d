import { broken } from "./answer-shape.js";
import type { Session } from "./session.js";
import { segment } from "./transport.js";

/** One layout of the file. */
export interface LayoutEntry {
  /** The layout's name, as `fm.layout()` and the calls' `layout` options take it. */
  name: string;
  /** The layout's table occurrence, when the server says (FileMaker Server 19 and later do). */
  table?: string;
  /** With `folders: true`: the folders the layout is in, outermost first (`[]` at the top). */
  folder?: string[];
}

/** One script of the file. */
export interface ScriptEntry {
  /** The script's name, as the calls' script options take it. */
  name: string;
  /** With `folders: true`: the folders the script is in, outermost first (`[]` at the top). */
  folder?: string[];
}

/**
 * A list call's options. The list is flat, in the server's order, folders left out; `folders: true` gives each
 * entry the path of the folders it is in.
 */
export interface ListingOptions {
  /** Aborts the call. */
  signal?: AbortSignal;
  /** Give each entry the folders it is in (`folder`). */
  folders?: boolean;
}

type InFolders<E> = E & { folder: string[] };

/** `fm.layouts()` and `fm.scripts()`: what the file has, as the server lists it. */
export interface LayoutListing {
  /** `GET /databases/{database}/layouts`: every layout of the file. */
  layouts(options: ListingOptions & { folders: true }): Promise<InFolders<LayoutEntry>[]>;
  /** `GET /databases/{database}/layouts`: every layout of the file, folders left out. */
  layouts(options?: ListingOptions): Promise<LayoutEntry[]>;
  /** `GET /databases/{database}/scripts`: every script of the file. */
  scripts(options: ListingOptions & { folders: true }): Promise<InFolders<ScriptEntry>[]>;
  /** `GET /databases/{database}/scripts`: every script of the file, folders left out. */
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
  /**
   * The `list` of `GET .../{list}` (`layouts`, `scripts`): entries in the server's order, each folder's (its
   * `folder...Names`) where the folder is. Walked with a stack of the open folders, not by recursion: the server
   * decides how deep folders go.
   */
  const listing = async (list: string, inner: string, options?: ListingOptions): Promise<LayoutEntry[]> => {
    const req = { method: "GET", path: `/databases/${segment(database)}/${list}` } as const;
    const envelope = await session.call(() => req, { ...options, idempotent: true });
    const out: LayoutEntry[] = [];
    // What is still to read, the next entry last, each with its depth; `folder` the path of the entry read, cut to
    // that depth. A loop, not a recursion: the server decides how deep folders go.
    const todo: unknown[] = [];
    const folder: string[] = [];
    const read = (entries: unknown, depth: number) => {
      if (!Array.isArray(entries) || entries.some((entry: ListEntry | null) => typeof entry?.name !== "string")) {
        throw broken(envelope, req, `response.${list} (or a folder's ${inner}) is not an array of named entries`);
      }
      for (let i = entries.length; i; ) todo.push(entries[--i], depth);
    };
    read(envelope.response[list], 0);
    while (todo.length) {
      folder.length = todo.pop() as number;
      const entry = todo.pop() as ListEntry & { name: string };
      if (entry.isFolder === true) read(entry[inner], folder.push(entry.name));
      else out.push({ name: entry.name, ...(typeof entry.table === "string" && entry.table && { table: entry.table }), ...(options?.folders && { folder: [...folder] }) });
    }
    return out;
  };
  return {
    layouts: (options?: ListingOptions) => listing("layouts", "folderLayoutNames", options),
    scripts: (options?: ListingOptions) => listing("scripts", "folderScriptNames", options),
  } as LayoutListing;
}
