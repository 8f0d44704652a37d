import { namedValueLists } from "../../layout/value-lists.js";
import type { DatabaseModel, LayoutModel } from "./model.js";
import { NameMap } from "./name-map.js";

/**
 * FileMaker names its value lists, and they belong to the file. A description names a field's list with
 * `valueListName`; a field that lists values without naming them gets a list named after it. The layout metadata's
 * `valueList` / `valueLists[].name`, and a sort's `sortOrder` naming a value list (docs/emulator.md, "1. Requests every
 * client sends"), use this one name.
 */
export function valueListName(wireName: string, field: { valueListName?: string | undefined }): string {
  return field.valueListName ?? `${wireName} Values`;
}

interface ListedField {
  name: string;
  valueList?: readonly string[] | undefined;
  valueListName?: string | undefined;
}

/** The value lists a layout shows (its fields' and its portals' fields'), by name, as its own description states them. */
export function layoutValueLists(layout: LayoutModel): NameMap<readonly string[]> {
  const lists = new NameMap<readonly string[]>();
  const add = (fields: readonly ListedField[]) => {
    for (const field of fields) {
      // A named list whose values the description does not give (a dynamic list) is empty: sorting by it keeps each value's own order.
      if (field.valueList || field.valueListName !== undefined) lists.set(valueListName(field.name, field), field.valueList ?? []);
    }
  };
  add(layout.description.fields);
  for (const portal of layout.description.portals) add(portal.fields);
  return lists;
}

/**
 * The value lists a sort on `layout` may name, matched as FileMaker matches names (name-map.ts): the layout's own, then every list the file's other layouts name
 * (value lists belong to the file; the emulator knows those its descriptions name).
 */
export function sortableValueLists(file: DatabaseModel, layout: LayoutModel): NameMap<readonly string[]> {
  const lists = layoutValueLists(layout);
  const named = namedValueLists([...file.layouts.values()].map((l) => l.description)).lists;
  for (const [name, values] of named) if (!lists.has(name)) lists.set(name, values ?? []);
  return lists;
}
