import type { LayoutModel } from "./model.js";

/**
 * FileMaker names its value lists; a description only lists a field's allowed values, so the emulator names each
 * list after its field: the layout metadata's `valueList` / `valueLists[].name`, and a sort's `sortOrder` naming a
 * value list (data-api-server.md, section 1), use this one name.
 */
export function valueListName(wireName: string): string {
  return `${wireName} Values`;
}

/** The value lists a layout shows (its fields' and its portals' fields'), by name, as its own description states them. */
export function layoutValueLists(layout: LayoutModel): Map<string, readonly string[]> {
  const lists = new Map<string, readonly string[]>();
  const add = (fields: readonly { name: string; valueList?: readonly string[] | undefined }[]) => {
    for (const field of fields) if (field.valueList) lists.set(valueListName(field.name), field.valueList);
  };
  add(layout.description.fields);
  for (const portal of layout.description.portals) add(portal.fields);
  return lists;
}
