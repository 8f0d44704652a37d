import { z } from "zod";
import { ENCODERS, INVALID, ISO_FORM } from "./codecs.js";
import type { FieldSpec, LayoutSpec } from "./definition.js";

/**
 * Checks an object field by field against per-key schemas. Used instead of `z.object` because zod builds its
 * output with plain assignment, which turns a field named `__proto__` into a prototype change and drops it;
 * this returns the input itself, own keys intact.
 */
function fieldsObject(entries: readonly (readonly [string, z.ZodType])[]): z.ZodType<Record<string, unknown>> {
  return z.custom<Record<string, unknown>>((value) => typeof value === "object" && value !== null && !Array.isArray(value), "expected an object").superRefine((value, ctx) => {
    for (const [key, schema] of entries) {
      const result = schema.safeParse(Object.getOwnPropertyDescriptor(value, key)?.value);
      if (!result.success) {
        for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: [key, ...issue.path] });
      }
    }
  });
}

const rowIds = z.object({ recordId: z.string(), modId: z.string() });

function portalsObject(spec: LayoutSpec, rows: (fields: Readonly<Record<string, FieldSpec>>) => z.ZodType): z.ZodType {
  return fieldsObject(Object.entries(spec.portals ?? {}).map(([name, portal]) => [name, z.array(z.intersection(rowIds, rows(portal.fields)))] as const));
}

function decodedValue(spec: FieldSpec): z.ZodType {
  switch (spec.type) {
    case "text":
      return spec.valueList ? z.enum(["", ...spec.valueList] as [string, ...string[]]) : z.string();
    case "number":
      return z.number().nullable();
    case "container":
      return z.string().nullable();
    default: {
      // The ISO forms the decoders produce are exactly what the encoders accept.
      const encode = ENCODERS[spec.type];
      return z.string().refine((value) => encode(value) !== INVALID, `expected an ISO ${spec.type} (${ISO_FORM[spec.type]})`).nullable();
    }
  }
}

function decodedFields(specs: Readonly<Record<string, FieldSpec>>): z.ZodType {
  return fieldsObject(
    Object.entries(specs).map(([name, spec]) => {
      const value = decodedValue(spec);
      const reps = spec.repetitions ?? 1;
      return [name, reps === 1 ? value : z.array(value).length(reps)] as const;
    }),
  );
}

/**
 * The zod schema of a record as the runtime returns it (TypeScript values, DESIGN.md's table), for apps that
 * validate records they receive from elsewhere, such as a cache or a message queue. Built on first use, so
 * importing a generated module costs nothing.
 */
export function recordSchema(spec: LayoutSpec): z.ZodType {
  return z.lazy(() =>
    z.object({ recordId: z.string(), modId: z.string(), fieldData: decodedFields(spec.fields), portalData: portalsObject(spec, decodedFields) }),
  );
}
