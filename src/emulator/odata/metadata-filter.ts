// The `$filter` checker's view of the entity sets (filter-schema.ts), from the same model as `$metadata`, so that a
// filter names fields by the names and FMFIDs the document states, and navigates the relations it lists.

import { NameMap } from "../hosted-file/name-map.js";
import type { FilterField, FilterTable } from "./filter-schema.js";
import type { ODataModel } from "./metadata-model.js";

/** Every entity set as a FilterTable, by its name; navigation properties lead to the related sets' tables. */
export function filterTablesOf(model: ODataModel): Map<string, FilterTable> {
  const tables = new Map<string, { name: string; fields: FilterField[]; navigation: Map<string, FilterTable> }>();
  for (const t of model.entityTypes) {
    const fields = t.properties.map((p): FilterField => ({ name: p.name, type: p.type, ...(p.fieldId ? { id: p.fieldId } : {}) }));
    // Navigations by name as FileMaker matches names (name-map.ts): `notes/Text` is `Notes/Text`.
    tables.set(t.set, { name: t.set, fields, navigation: new NameMap() });
  }
  for (const t of model.entityTypes) {
    const navigation = tables.get(t.set)!.navigation;
    for (const n of t.navigation) navigation.set(n.name, tables.get(n.name)!);
  }
  return tables;
}
