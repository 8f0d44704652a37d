import { z } from "zod";
import { carriedNameSchema } from "./carried-name.js";
import { namedValueLists } from "./value-lists.js";
import { placedFields, wireKeyCollisions } from "./wire-keys.js";

/**
 * The layout description format (`*.layout.json`): the single source of truth.
 * `schema/layout.schema.json` is generated from these schemas by `npm run schema`.
 */

export const FIELD_TYPES = ["text", "number", "date", "time", "timestamp", "container"] as const;
export const AUTO_ENTER_KINDS = ["serial", "uuid", "creationTimestamp", "modificationTimestamp"] as const;
/** FileMaker's "Validate data in this field": only during data entry (its default), or always. */
export const VALIDATE_WHEN = ["dataEntry", "always"] as const;

/** A description's TypeScript `name` (and `fmgen pull --name`): ASCII letters, digits, `_` and `$`, not starting with a digit. */
export const TYPESCRIPT_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export const fieldTypeSchema = z.enum(FIELD_TYPES).describe("The field's result type.");
export const autoEnterSchema = z.enum(AUTO_ENTER_KINDS).describe("Value the server enters itself.");
export const validateSchema = z
  .enum(VALIDATE_WHEN)
  .describe(
    'When `required` and `unique` apply: "dataEntry" (the default) only on a user\'s data entry (Data API create and edit), ' +
      'not on a duplicate, a script\'s write or `options.entrymode: "script"`; "always" on every write. FileMaker\'s own option; the Data API\'s metadata does not report it.',
  );

/**
 * `exact` on a number field: FileMaker keeps up to 400 significant digits, a JavaScript number 15 to 17, so such a
 * field's values are meant to travel as decimal text, every digit. Only a number field can say it: the other types
 * travel as text already, or hold no digits to lose.
 */
export const exactSchema = z
  .boolean()
  .describe(
    "Number fields only: the field's values travel as decimal text, every digit (`\"12345678901234567890123456789.25\"`), never rounded to a JavaScript number, which keeps 15 to 17 significant digits where FileMaker keeps up to 400. " +
      "Set it on keys from `Get ( UUIDNumber )` and on amounts beyond 15 digits. `fmgen pull` keeps it and proposes it, never sets it.",
  );

/** The issue a field of another type than number gets for `"exact": true` (layouts and tables alike). */
export function exactIssue(field: { type: FieldType; exact?: boolean | undefined }): string | undefined {
  return field.exact === true && field.type !== "number"
    ? `"exact" applies to number fields only, not ${field.type}: its values travel as text already, or hold no digits to lose`
    : undefined;
}

export const fieldSchema = z
  .object({
    // Any name a server reports (fmgen generates code for all): the Data API carries field names in JSON, not in URLs.
    name: z.string().min(1).describe("Field name as it appears on the layout; related fields as `TableOccurrence::Field`."),
    type: fieldTypeSchema,
    readOnly: z.boolean().optional().describe("Calculation, summary or protected auto-enter field: never written by clients."),
    required: z.boolean().optional().describe("Validation: not empty."),
    unique: z.boolean().optional().describe("Validation: unique value."),
    validate: validateSchema.optional(),
    repetitions: z.number().int().min(1).max(32000).optional().describe("Number of repetitions (default 1)."),
    valueList: z.array(z.string()).optional().describe("Allowed values."),
    valueListName: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The name of the field's value list in the file, as the layout metadata names it (`valueList`): a sort's `sortOrder` may name it to sort in the list's order. " +
          "Value lists belong to the file: every name the file's layout descriptions give is a sort order of each of its layouts.",
      ),
    global: z.boolean().optional().describe("Global storage: one value shared by every record."),
    autoEnter: autoEnterSchema.optional(),
    exact: exactSchema.optional(),
    description: z.string().optional().describe("Documentation, emitted as JSDoc."),
  })
  .strict();

export const relationSchema = z
  .object({
    parentField: z.string().min(1).describe("Field of the layout's table that the portal rows point to."),
    childField: z.string().min(1).describe("Field of the portal's table that holds the parent's value."),
    cascadeDelete: z.boolean().optional().describe("Deleting the parent deletes its portal rows."),
  })
  .strict()
  .describe("How portal rows join to the parent record (used by the emulator; ignored by the generator).");

export const portalSchema = z
  .object({
    name: z.string().min(1).describe("Portal object name (the key in portalData)."),
    table: carriedNameSchema("table").describe("Table the portal rows live in."),
    relation: relationSchema.optional(),
    fields: z.array(fieldSchema).describe("Portal fields, each named `TableOccurrence::Field`."),
  })
  .strict();

export const layoutDescriptionSchema = z
  .object({
    $schema: z.string().optional(),
    database: carriedNameSchema("database").describe("Hosted file name without `.fmp12`."),
    layout: carriedNameSchema("layout").describe("Layout name."),
    table: carriedNameSchema("table").describe("The layout's base table."),
    name: z
      .string()
      .regex(TYPESCRIPT_IDENTIFIER, "must be a TypeScript identifier")
      .optional()
      .describe("TypeScript name; defaults to the PascalCase of `layout`."),
    description: z.string().optional(),
    folder: z
      .string()
      .regex(/^[^/]+(?:\/[^/]+)*$/, 'must be a folder name, or names joined by "/" for nested folders ("Billing/Archive")')
      .optional()
      .describe('Folder the layout sits in, in the server\'s layout list; "A/B" is folder B inside folder A. Used by the emulator; ignored by the generator.'),
    fields: z.array(fieldSchema),
    portals: z.array(portalSchema).optional(),
  })
  .strict()
  .superRefine((layout, ctx) => {
    checkFields(layout.fields, ["fields"], ctx, false);
    const portalNames = new Set<string>();
    layout.portals?.forEach((portal, i) => {
      if (portalNames.has(portal.name)) {
        ctx.addIssue({ code: "custom", path: ["portals", i, "name"], message: `duplicate portal name "${portal.name}"` });
      }
      portalNames.add(portal.name);
      checkFields(portal.fields, ["portals", i, "fields"], ctx, true);
    });
    // The message names both fields, so the issue has no path of its own.
    for (const message of wireKeyCollisions(placedFields(layout))) ctx.addIssue({ code: "custom", path: [], message });
    for (const message of namedValueLists([layout]).conflicts) ctx.addIssue({ code: "custom", path: [], message });
  });

export type FieldType = z.infer<typeof fieldTypeSchema>;
export type AutoEnter = z.infer<typeof autoEnterSchema>;
export type ValidateWhen = z.infer<typeof validateSchema>;
export type FieldDescription = z.infer<typeof fieldSchema>;
export type PortalDescription = z.infer<typeof portalSchema>;
export type LayoutDescriptionInput = z.infer<typeof layoutDescriptionSchema>;

/** The field types each auto-enter kind fits: the schema refuses others, and a pull drops a kind that no longer fits. */
export const AUTO_ENTER_TYPES: Readonly<Record<AutoEnter, readonly FieldType[]>> = {
  serial: ["number", "text"],
  uuid: ["text"],
  creationTimestamp: ["timestamp", "date", "time"],
  modificationTimestamp: ["timestamp", "date", "time"],
};

function checkFields(
  fields: readonly FieldDescription[],
  path: (string | number)[],
  ctx: z.RefinementCtx,
  inPortal: boolean,
): void {
  const seen = new Set<string>();
  fields.forEach((field, i) => {
    const at = [...path, i];
    if (seen.has(field.name)) ctx.addIssue({ code: "custom", path: [...at, "name"], message: `duplicate field name "${field.name}"` });
    seen.add(field.name);
    if (inPortal && !field.name.includes("::")) {
      ctx.addIssue({ code: "custom", path: [...at, "name"], message: `portal field "${field.name}" must be named TableOccurrence::Field` });
    }
    if (field.type === "container" && field.valueList) {
      ctx.addIssue({ code: "custom", path: [...at, "valueList"], message: "a container field cannot have a value list" });
    }
    if (field.type === "container" && field.valueListName !== undefined) {
      ctx.addIssue({ code: "custom", path: [...at, "valueListName"], message: "a container field cannot have a value list" });
    }
    if (field.autoEnter && !AUTO_ENTER_TYPES[field.autoEnter].includes(field.type)) {
      ctx.addIssue({
        code: "custom",
        path: [...at, "autoEnter"],
        message: `autoEnter "${field.autoEnter}" needs a field of type ${AUTO_ENTER_TYPES[field.autoEnter].join(" or ")}, not ${field.type}`,
      });
    }
    const exact = exactIssue(field);
    if (exact !== undefined) ctx.addIssue({ code: "custom", path: [...at, "exact"], message: exact });
    if (field.global && (field.unique || field.autoEnter)) {
      ctx.addIssue({ code: "custom", path: at, message: "a global field cannot be unique or auto-entered" });
    }
  });
}
