import { objectType, withDocs } from "../print.js";
import { docText, stringLiteral } from "../text.js";
import type { LayoutPlan } from "../plan/layout-plan.js";
import { fieldDocs, readMembers } from "./field-types.js";

/** `export interface <Name>Fields { ... }`: the read shape of fieldData, every field in description order. */
export function emitFields(plan: LayoutPlan, name: string): string {
  const docs = docText(`fieldData of a record of layout ${stringLiteral(plan.layout.layout)}, decoded.`);
  return withDocs(docs, `export interface ${name} ${objectType(readMembers(plan.layout.fields, fieldDocs), "")}`);
}
