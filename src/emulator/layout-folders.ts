import type { DatabaseModel } from "./model.js";

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
 * `GET /databases/{database}/layouts` (data-api-server.md, section 8): the layouts as servers list them, in the
 * order the descriptions were loaded. A description's `folder` puts the layout in that folder ("A/B": folder B
 * inside folder A); a folder appears where its first layout would, and holds its layouts and subfolders in order.
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
