import type { DatabaseModel } from "./model.js";

/**
 * How deeply folders may nest in the layout and script lists the emulator serves. The lists are built without
 * recursion, but an answer is JSON, and serializing nests a call per level: a description nesting folders
 * thousands deep would make every list call fail with no answer. No real file comes near this depth.
 */
export const MAX_FOLDER_DEPTH = 64;

/** Refuses, at start, a layout's or script's folder path deeper than {@link MAX_FOLDER_DEPTH}, naming where. */
export function checkFolderDepth(path: readonly string[], where: string): void {
  if (path.length > MAX_FOLDER_DEPTH) {
    throw new Error(`${where}: its folder nests ${path.length} folders deep; the emulator serves folders at most ${MAX_FOLDER_DEPTH} deep`);
  }
}

/** A layout in FileMaker Server's layout list. */
export interface LayoutLeaf {
  name: string;
  table: string;
}

/** A folder in it: the layouts (and folders) inside, in order. */
export interface LayoutFolder {
  name: string;
  isFolder: true;
  folderLayoutNames: LayoutCatalogEntry[];
}

export type LayoutCatalogEntry = LayoutLeaf | LayoutFolder;

/**
 * `GET /databases/{database}/layouts` (docs/emulator.md, "8. Server and database metadata"): the layouts as servers
 * list them, in the order the descriptions were loaded. A description's `folder` puts the layout in that folder ("A/B":
 * folder B inside folder A); a folder appears where its first layout would, and holds its layouts and subfolders in
 * order.
 */
export function layoutCatalog(model: DatabaseModel): LayoutCatalogEntry[] {
  const root: LayoutCatalogEntry[] = [];
  // Keyed by the folder's whole path, so two folders of one name in different parents stay apart.
  const folders = new Map<string, LayoutFolder>();
  for (const layout of model.layouts.values()) {
    let into = root;
    let path = "";
    for (const name of layout.description.folder?.split("/") ?? []) {
      path = `${path}/${name}`;
      let folder = folders.get(path);
      if (!folder) {
        folder = { name, isFolder: true, folderLayoutNames: [] };
        folders.set(path, folder);
        into.push(folder);
      }
      into = folder.folderLayoutNames;
    }
    into.push({ name: layout.description.layout, table: layout.table.name });
  }
  return root;
}
