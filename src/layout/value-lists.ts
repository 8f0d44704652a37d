/**
 * The value lists layout descriptions name (a field's `valueListName`). FileMaker keeps value lists per file, while
 * the Data API's metadata states them per layout, so a file's lists are the union of what its layouts' descriptions
 * name: the generator types a sort's `sortOrder` with those names, and the emulator sorts by them on every layout
 * of the file. One name is one list: two fields giving it different values contradict each other.
 */

interface ListedField {
  name: string;
  valueList?: readonly string[] | undefined;
  valueListName?: string | undefined;
}

interface ListingLayout {
  layout: string;
  fields: readonly ListedField[];
  portals?: readonly { fields: readonly ListedField[] }[] | undefined;
}

export interface NamedValueLists {
  /** Each name, in the order the descriptions first give it, with its values (undefined: no field states them). */
  lists: Map<string, readonly string[] | undefined>;
  /** One message per name given two different sets of values, naming both fields. */
  conflicts: string[];
}

/** The value lists `layouts` (the layouts of one file) name, and the names they contradict themselves on. */
export function namedValueLists(layouts: readonly ListingLayout[]): NamedValueLists {
  const lists = new Map<string, readonly string[] | undefined>();
  const statedBy = new Map<string, string>();
  const conflicts: string[] = [];
  for (const layout of layouts) {
    for (const field of [...layout.fields, ...(layout.portals ?? []).flatMap((p) => p.fields)]) {
      const name = field.valueListName;
      if (name === undefined) continue;
      if (!lists.has(name)) lists.set(name, undefined);
      if (field.valueList === undefined) continue;
      const where = `field "${field.name}" of layout "${layout.layout}"`;
      const stated = lists.get(name);
      if (stated === undefined) {
        lists.set(name, field.valueList);
        statedBy.set(name, where);
      } else if (stated.length !== field.valueList.length || stated.some((value, i) => value !== field.valueList![i])) {
        conflicts.push(`value list "${name}" has other values on ${where} than on ${statedBy.get(name)}: one name is one list of the file`);
      }
    }
  }
  return { lists, conflicts };
}
