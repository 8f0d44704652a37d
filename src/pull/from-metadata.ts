import type { FieldMetadata, LayoutMetadata } from "@fmgen/runtime/metadata";
import type { FieldType } from "../layout/index.js";
import type { LiveField, LiveLayout } from "./live.js";

/** FileMaker's `result` names -> description types. */
const RESULT_TYPES: Readonly<Record<string, FieldType>> = {
  text: "text",
  number: "number",
  date: "date",
  time: "time",
  timeStamp: "timestamp",
  timestamp: "timestamp",
  container: "container",
};

/**
 * Maps FileMaker Server's layout metadata to what the server says about the layout: the result type,
 * calculation and summary fields as read-only, `maxRepeat`, `notEmpty`, `global`, whether a value is
 * auto-entered, and each value list's name and values (a list whose values the server does not send, such as a
 * dynamic one read without a record id, keeps its name; its values stay unknown).
 */
export function liveFromMetadata(database: string, layout: string, metadata: LayoutMetadata, table: string | undefined): LiveLayout {
  const notes: string[] = [];
  const lists = new Map(metadata.valueLists.map((list) => [list.name, list.values.map((v) => v.value)]));
  const field = (meta: FieldMetadata, where: string): LiveField => {
    // Own keys only: a result named like an Object member ("constructor") is unknown, not Object itself.
    let type = Object.hasOwn(RESULT_TYPES, meta.result) ? RESULT_TYPES[meta.result] : undefined;
    if (!type) {
      notes.push(`${where}"${meta.name}": unknown result type "${meta.result}", taken as text`);
      type = "text";
    }
    let valueList: readonly string[] | null | undefined = null;
    if (meta.valueList !== undefined) {
      const values = lists.get(meta.valueList);
      valueList = values && values.length > 0 ? values : undefined;
      if (valueList === undefined) notes.push(`${where}"${meta.name}": value list "${meta.valueList}" has no values in the metadata (a dynamic list?); the file's valueList is kept`);
    }
    return {
      name: meta.name,
      type,
      repetitions: meta.maxRepeat,
      calculated: meta.type === "calculation" || meta.type === "summary",
      required: meta.notEmpty,
      global: meta.global,
      autoEnter: meta.autoEnter,
      valueList: type === "container" ? null : valueList,
      valueListName: type === "container" ? null : (meta.valueList ?? null),
    };
  };
  return {
    database,
    layout,
    source: "metadata",
    ...(table ? { table } : {}),
    fields: metadata.fieldMetaData.map((f) => field(f, "field ")),
    portals: Object.entries(metadata.portalMetaData).map(([name, fields]) => ({ name, fields: fields.map((f) => field(f, `portal "${name}" field `)) })),
    notes,
  };
}
