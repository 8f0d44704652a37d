import { z } from "zod";
import type { FieldSpec, LayoutSpec } from "./definition.js";

const wireValue = z.union([z.string(), z.number()]);

function fieldsShape(specs: Readonly<Record<string, FieldSpec>>): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const value = spec.valueList ? z.union([z.enum(["", ...spec.valueList] as [string, ...string[]]), z.number()]) : wireValue;
    for (let i = 0; i < (spec.repetitions ?? 1); i++) shape[i === 0 ? name : `${name}(${i + 1})`] = value;
  }
  return z.looseObject(shape);
}

/**
 * The zod schema of one wire record of a layout: every field present with a wire value (value-list fields
 * holding one of their values), each portal row with its ids. Built once per layout.
 */
export function wireRecordSchema(spec: LayoutSpec): z.ZodType {
  const portals: Record<string, z.ZodType> = {};
  for (const [name, portal] of Object.entries(spec.portals ?? {})) {
    portals[name] = z.array(z.intersection(z.object({ recordId: z.string(), modId: z.string() }), fieldsShape(portal.fields)));
  }
  return z.object({
    recordId: z.string(),
    modId: z.string(),
    fieldData: fieldsShape(spec.fields),
    portalData: z.looseObject(portals).optional(),
  });
}
