import type { z } from "zod";
import { ENCODERS, exactProblem, INVALID, ISO_FORM } from "./codecs.js";
import type { FieldSpec, LayoutSpec } from "./definition.js";

type Zod = typeof z;

/**
 * The zod schema of a record as the runtime returns it (TypeScript values: docs/reading-and-writing.md, "Value types"),
 * for apps that validate records they receive from elsewhere, such as a cache or a message queue; built on first use.
 * zod is passed in: how it is loaded (at once, or only when a schema is first used) is the schema entry's business
 * (schema.ts, schema-node.ts).
 */
export function buildRecordSchema(z: Zod, spec: LayoutSpec): z.ZodType {
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

  function decodedValue(field: FieldSpec): z.ZodType {
    switch (field.type) {
      case "text":
        return field.valueList ? z.enum(["", ...field.valueList] as [string, ...string[]]) : z.string();
      case "number":
        // An exact field reads as decimal text: what its writes take is what its reads give (canonical text is such).
        return field.exact ? z.string().refine((value) => exactProblem(value) === undefined, 'expected decimal text (an exact number, such as "-1200.05")').nullable() : z.number().nullable();
      case "container":
        return z.string().nullable();
      default: {
        // The ISO forms the decoders produce are exactly what the encoders accept.
        const encode = ENCODERS[field.type];
        return z.string().refine((value) => encode(value) !== INVALID, `expected an ISO ${field.type} (${ISO_FORM[field.type]})`).nullable();
      }
    }
  }

  function decodedFields(specs: Readonly<Record<string, FieldSpec>>): z.ZodType {
    return fieldsObject(
      Object.entries(specs).map(([name, field]) => {
        const value = decodedValue(field);
        const reps = field.repetitions ?? 1;
        return [name, reps === 1 ? value : z.array(value).length(reps)] as const;
      }),
    );
  }

  const rowIds = z.object({ recordId: z.string(), modId: z.string() });
  const portals = () => fieldsObject(Object.entries(spec.portals ?? {}).map(([name, portal]) => [name, z.array(z.intersection(rowIds, decodedFields(portal.fields)))] as const));
  return z.lazy(() => z.object({ recordId: z.string(), modId: z.string(), fieldData: decodedFields(spec.fields), portalData: portals() }));
}
