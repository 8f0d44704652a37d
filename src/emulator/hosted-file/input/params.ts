import { EmulatorError } from "../fm-error.js";
import { describeInput } from "./input-text.js";
import type { DatabaseModel, LayoutModel } from "../model.js";
import type { SortKey } from "../sorting.js";
import { sortableValueLists } from "../value-lists.js";

// What a call on a layout names, from the Data API or a script's records steps (scripts/handler-api.ts): its sort
// keys and record ids. The Data API's own query values (counts, URL-encoded JSON) are data-api/wire/params.ts.

/**
 * A list of SortSpec objects naming fields on the layout (102 when a field is not on it). `sortOrder` is optional
 * (default `ascend`) and may name one of the file's value lists: the records then follow that list's order
 * (docs/emulator.md, "1. Requests every client sends").
 */
export function sortKeys(raw: unknown, name: string, layout: LayoutModel, file: DatabaseModel): SortKey[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new EmulatorError(400, "1708", `${name} must be an array of { fieldName, sortOrder? }`);
  const valueLists = sortableValueLists(file, layout);
  return raw.map((spec, i) => {
    if (typeof spec !== "object" || spec === null || typeof spec.fieldName !== "string") {
      throw new EmulatorError(400, "1708", `${name}[${i}] must be { fieldName, sortOrder? }`);
    }
    const order: unknown = spec.sortOrder;
    const valueList = typeof order === "string" ? valueLists.get(order) : undefined;
    if (order !== undefined && order !== "ascend" && order !== "descend" && valueList === undefined) {
      throw new EmulatorError(400, "1708", `${name}[${i}].sortOrder must be "ascend", "descend" or the name of a value list of file "${file.name}", got ${describeInput(order)}`);
    }
    const field = layout.fields.get(spec.fieldName);
    if (!field) throw new EmulatorError(400, "102", `cannot sort on "${spec.fieldName}": not on layout "${layout.description.layout}"`);
    return { field: field.field, descending: order === "descend", ...(valueList ? { valueList } : {}) };
  });
}

/** Record ids are whole numbers; anything else names no record (101). */
export function recordIdParam(raw: string | undefined): number {
  if (raw === undefined || !/^\d{1,15}$/.test(raw)) throw new EmulatorError(404, "101", `no record with id "${raw ?? ""}"`);
  return Number(raw);
}
