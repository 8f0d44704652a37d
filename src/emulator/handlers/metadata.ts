import type { Answer, RequestContext } from "../http/routes.js";
import type { LayoutField } from "../model.js";

/** GET /databases/{database}/layouts: the layout list in FileMaker Server's shape. */
export function listLayouts(ctx: RequestContext): Answer {
  const layouts = [...ctx.db.model.layouts.values()].map((layout) => ({ name: layout.description.layout, table: layout.table.name }));
  return { response: { layouts } };
}

/** GET /databases/{database}/layouts/{layout}: `fieldMetaData`, `portalMetaData`, `valueLists`. */
export function layoutMetadata(ctx: RequestContext): Answer {
  const layout = ctx.layout;
  const valueLists = new Map<string, readonly string[]>();
  const meta = (fields: Map<string, LayoutField>) => [...fields.values()].map((f) => fieldMetaData(f, valueLists));
  const portalMetaData: Record<string, object[]> = {};
  for (const portal of layout.portals) portalMetaData[portal.name] = meta(portal.fields);
  const fieldMeta = meta(layout.fields);
  return {
    response: {
      fieldMetaData: fieldMeta,
      portalMetaData,
      valueLists: [...valueLists].map(([name, values]) => ({
        name,
        type: "customList",
        values: values.map((value) => ({ value, displayValue: value })),
      })),
    },
  };
}

const RESULT_TYPE = { text: "text", number: "number", date: "date", time: "time", timestamp: "timeStamp", container: "container" } as const;

function fieldMetaData({ wireName, field }: LayoutField, valueLists: Map<string, readonly string[]>): object {
  // FileMaker names value lists; a description only lists values, so each field gets a list named after it.
  const valueList = field.valueList ? `${wireName} Values` : undefined;
  if (valueList && field.valueList) valueLists.set(valueList, field.valueList);
  // A read-only field that the server fills itself is a protected auto-enter field; any other is a calculation.
  const type = field.readOnly && !field.autoEnter ? "calculation" : "normal";
  return {
    name: wireName,
    type,
    displayType: field.valueList ? "popupList" : "editText",
    result: RESULT_TYPE[field.type],
    global: field.global,
    autoEnter: field.autoEnter !== undefined,
    fourDigitYear: false,
    maxRepeat: field.repetitions,
    maxCharacters: 0,
    notEmpty: field.required,
    numeric: false,
    timeOfDay: false,
    repetitionStart: 1,
    repetitionEnd: field.repetitions,
    ...(valueList ? { valueList } : {}),
  };
}

