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

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME = /^\d{2}:\d{2}:\d{2}$/;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

function decodedValue(spec: FieldSpec): z.ZodType {
  switch (spec.type) {
    case "text":
      return spec.valueList ? z.enum(["", ...spec.valueList] as [string, ...string[]]) : z.string();
    case "number":
      return z.number().nullable();
    case "date":
      return z.string().regex(ISO_DATE).nullable();
    case "time":
      return z.string().regex(ISO_TIME).nullable();
    case "timestamp":
      return z.string().regex(ISO_TIMESTAMP).nullable();
    case "container":
      return z.string().nullable();
  }
}

function decodedFields(specs: Readonly<Record<string, FieldSpec>>): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const value = decodedValue(spec);
    const reps = spec.repetitions ?? 1;
    shape[name] = reps === 1 ? value : z.array(value).length(reps);
  }
  return z.object(shape);
}

/**
 * The zod schema of a record as the runtime returns it (TypeScript values, DESIGN.md's table), for apps that
 * validate records they receive from elsewhere, such as a cache or a message queue.
 */
export function recordSchema(spec: LayoutSpec): z.ZodType {
  const portals: Record<string, z.ZodType> = {};
  for (const [name, portal] of Object.entries(spec.portals ?? {})) {
    portals[name] = z.array(z.intersection(z.object({ recordId: z.string(), modId: z.string() }), decodedFields(portal.fields)));
  }
  return z.object({ recordId: z.string(), modId: z.string(), fieldData: decodedFields(spec.fields), portalData: z.object(portals) });
}
