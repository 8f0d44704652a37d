import type { Answer, RequestContext } from "../routes.js";
import type { AutoEnter, FieldDescription, FieldType } from "../../../layout/schema.js";
import type { LayoutField } from "../../hosted-file/model.js";
import { valueListName } from "../../hosted-file/value-lists.js";
import { recordIdParam } from "../../hosted-file/input/params.js";
import { layoutCatalog } from "../../hosted-file/layout-folders.js";
import { currentRecord } from "../../hosted-file/records/record-transaction.js";
import { tableOf } from "../../hosted-file/store.js";

/** GET /databases/{database}/layouts: the layout list in FileMaker Server's shape. */
export function listLayouts(ctx: RequestContext): Answer {
  // Layouts a description puts in a folder are listed inside it (layout-folders.ts).
  return { response: { layouts: layoutCatalog(ctx.db.model) } };
}

/**
 * GET /databases/{database}/layouts/{layout}: `fieldMetaData`, `portalMetaData` (`{}` without portals) and, only when
 * the layout's fields use value lists, `valueLists`: a real layout with none answers no `valueLists` key at all
 * (docs/emulator.md, "Layout metadata"), and clients read its absence as no lists. Each layout's
 * metadata says what its own description says: several descriptions may show one table field with different
 * options (records are then validated with the options combined), and reading a layout's metadata back gives
 * that layout's description, as `fmgen pull` does. Value lists belong to the layout in FileMaker too.
 */
export function layoutMetadata(ctx: RequestContext): Answer {
  metadataRecord(ctx);
  const layout = ctx.layout;
  const valueLists = new Map<string, readonly string[]>();
  const meta = (fields: Map<string, LayoutField>, declared: readonly FieldDescription[]) => {
    const byName = new Map(declared.map((f) => [f.name, f]));
    return [...fields.values()].map((f) => fieldMetaData(f.wireName, byName.get(f.wireName) ?? f.field, valueLists));
  };
  // Keyed by portal names: a null-prototype object, so a portal named "__proto__" stays a key.
  const portalMetaData: Record<string, object[]> = Object.create(null);
  for (const portal of layout.portals) {
    portalMetaData[portal.name] = meta(portal.fields, layout.description.portals.find((p) => p.name === portal.name)?.fields ?? []);
  }
  const fieldMeta = meta(layout.fields, layout.description.fields);
  const response: Record<string, unknown> = { fieldMetaData: fieldMeta, portalMetaData };
  if (valueLists.size > 0) {
    response.valueLists = [...valueLists].map(([name, values]) => ({
      name,
      type: "customList",
      values: values.map((value) => ({ value, displayValue: value })),
    }));
  }
  return { response };
}

/**
 * `?recordId=N` (docs/emulator.md, "8. Server and database metadata"): real servers answer the metadata as seen from
 * that record (value lists that depend on it). The emulator's value lists are the descriptions' fixed lists, so the
 * answer is the same; the record must exist, as for a get: 101 when it does not (404, or 500 with real servers'
 * statuses).
 */
function metadataRecord(ctx: RequestContext): void {
  const given = ctx.query.get("recordId");
  if (given === null) return;
  currentRecord(tableOf(ctx.db, ctx.layout), recordIdParam(given));
}

const RESULT_TYPE = { text: "text", number: "number", date: "date", time: "time", timestamp: "timeStamp", container: "container" } as const;

/** The options FileMaker's metadata reflects, as a description or the table model states them. */
interface DeclaredField {
  type: FieldType;
  repetitions?: number | undefined;
  readOnly?: boolean | undefined;
  required?: boolean | undefined;
  global?: boolean | undefined;
  autoEnter?: AutoEnter | undefined;
  valueList?: readonly string[] | undefined;
  valueListName?: string | undefined;
}

function fieldMetaData(wireName: string, field: DeclaredField, valueLists: Map<string, readonly string[]>): object {
  // FileMaker names value lists: the description's name, else one after the field (value-lists.ts).
  const valueList = field.valueList || field.valueListName !== undefined ? valueListName(wireName, field) : undefined;
  if (valueList !== undefined && !valueLists.has(valueList)) valueLists.set(valueList, field.valueList ?? []);
  // A read-only field that the server fills itself is a protected auto-enter field; any other is a calculation.
  const type = field.readOnly && !field.autoEnter ? "calculation" : "normal";
  const repetitions = field.repetitions ?? 1;
  return {
    name: wireName,
    type,
    displayType: valueList !== undefined ? "popupList" : "editText",
    result: RESULT_TYPE[field.type],
    global: field.global ?? false,
    autoEnter: field.autoEnter !== undefined,
    fourDigitYear: false,
    maxRepeat: repetitions,
    maxCharacters: 0,
    notEmpty: field.required ?? false,
    numeric: false,
    timeOfDay: false,
    repetitionStart: 1,
    repetitionEnd: repetitions,
    ...(valueList !== undefined ? { valueList } : {}),
  };
}
