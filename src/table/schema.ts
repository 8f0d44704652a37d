import { z } from "zod";
import { carriedNameSchema } from "../layout/carried-name.js";
import { AUTO_ENTER_TYPES, autoEnterSchema, exactIssue, exactSchema, fieldTypeSchema, TYPESCRIPT_IDENTIFIER } from "../layout/schema.js";

/**
 * The table description format (`<Name>.table.json`): one table occurrence as FileMaker Server's OData API states it
 * (`$metadata`), the single source of truth for OData's typed tables. `schema/table.schema.json` is generated from
 * this schema by `npm run schema`. Field types and auto-enter kinds are the layout description's.
 */

/** `FMTID:n` as `$metadata` writes a table occurrence's id: a 32-bit number (it is the low word of its FMFIDs). */
export const TABLE_ID = /^FMTID:[1-9][0-9]{0,9}$/;
/** `FMFID:n` as `$metadata` writes a field's id (`fieldNo·2^32 + FMTID`). */
export const FIELD_ID = /^FMFID:[1-9][0-9]{0,15}$/;
const MAX_TABLE_ID = 2 ** 32 - 1;

/** The number of an `FMTID:n` or `FMFID:n` id. */
export function idNumber(id: string): number {
  return Number(id.slice(id.indexOf(":") + 1));
}

export const tableFieldSchema = z
  .object({
    name: carriedNameSchema("field")
      .refine((name) => !name.includes("::"), "a table's own field cannot be named with \"::\" (related fields are reached through `relations`)")
      .describe("Field name, as the table (and OData) names it."),
    type: fieldTypeSchema,
    readOnly: z.boolean().optional().describe("Calculation, summary or protected auto-enter field: never written by clients."),
    global: z.boolean().optional().describe("Global storage: one value shared by every record."),
    repetitions: z.number().int().min(1).max(32000).optional().describe("Number of repetitions (default 1; `MaxRepetitions` in `$metadata`)."),
    notNull: z.boolean().optional().describe('Validation: not empty (`Nullable="false"` in `$metadata`); writes that leave it empty are refused.'),
    maxLength: z.number().int().min(1).max(1_000_000_000).optional().describe("Most characters the text field holds (`MaxLength` in `$metadata`; `VARCHAR(n)`)."),
    autoEnter: autoEnterSchema.optional(),
    exact: exactSchema.optional(),
    id: z
      .string()
      .regex(FIELD_ID, 'must be a field id "FMFID:<number>"')
      .refine((id) => Number.isSafeInteger(idNumber(id)), `must be at most FMFID:${Number.MAX_SAFE_INTEGER}`)
      .optional()
      .describe("The field's FileMaker id as `$metadata` states it (`FMFID:4296032403`): it stays when the field is renamed."),
    description: z.string().optional().describe("Documentation (the field's comment, `FMComment` in `$metadata`), emitted as JSDoc."),
  })
  .strict();

export const tableRelationSchema = z
  .object({
    name: carriedNameSchema("relation").describe("The navigation property's name, as `$metadata` and `$expand` name it."),
    table: carriedNameSchema("table").describe("The table occurrence (entity set) the relation reaches."),
    many: z.boolean().describe("Whether a record has a collection of related records (every FileMaker Server navigation is one) or at most one."),
    match: z
      .object({
        field: z.string().min(1).describe("The match field of this table."),
        relatedField: z.string().min(1).describe("The match field of the related table that equals it."),
      })
      .strict()
      .optional()
      .describe("The match fields the relationship joins by, which `$metadata` does not state: the emulator joins the related records by them (both ways). `fmgen pull --odata` keeps what you write here."),
  })
  .strict();

export const tableDescriptionSchema = z
  .object({
    $schema: z.string().optional(),
    database: carriedNameSchema("database").describe("Hosted file name without `.fmp12`."),
    table: carriedNameSchema("table").describe("Table occurrence name: the OData entity set."),
    name: z
      .string()
      .regex(TYPESCRIPT_IDENTIFIER, "must be a TypeScript identifier")
      .optional()
      .describe("TypeScript name; defaults to the PascalCase of `table`."),
    description: z.string().optional().describe("Documentation (the table's comment, `FMComment` in `$metadata`), emitted as JSDoc."),
    id: z
      .string()
      .regex(TABLE_ID, 'must be a table id "FMTID:<number>"')
      .refine((id) => idNumber(id) <= MAX_TABLE_ID, `must be at most FMTID:${MAX_TABLE_ID}`)
      .optional()
      .describe("The table occurrence's FileMaker id as `$metadata` states it (`FMTID:1065107`): it stays when the table is renamed."),
    key: z.string().min(1).optional().describe("The primary key field (`<Key>` in `$metadata`); absent: rows are addressed by ROWID."),
    fields: z.array(tableFieldSchema).min(1).describe("The table occurrence's fields, in creation order."),
    relations: z.array(tableRelationSchema).optional().describe("Navigation properties: the table occurrences related to this one."),
  })
  .strict()
  .superRefine((table, ctx) => {
    const names = new Map<string, number>();
    const ids = new Map<string, number>();
    table.fields.forEach((field, i) => {
      const at = ["fields", i];
      if (names.has(field.name)) ctx.addIssue({ code: "custom", path: [...at, "name"], message: `duplicate field name "${field.name}" (also fields[${names.get(field.name)}])` });
      else names.set(field.name, i);
      if (field.id !== undefined) {
        if (ids.has(field.id)) ctx.addIssue({ code: "custom", path: [...at, "id"], message: `duplicate field id "${field.id}" (also fields[${ids.get(field.id)}])` });
        else ids.set(field.id, i);
      }
      if (field.autoEnter && !AUTO_ENTER_TYPES[field.autoEnter].includes(field.type)) {
        ctx.addIssue({
          code: "custom",
          path: [...at, "autoEnter"],
          message: `autoEnter "${field.autoEnter}" needs a field of type ${AUTO_ENTER_TYPES[field.autoEnter].join(" or ")}, not ${field.type}`,
        });
      }
      if (field.global && field.autoEnter) ctx.addIssue({ code: "custom", path: at, message: "a global field cannot be auto-entered" });
      const exact = exactIssue(field);
      if (exact !== undefined) ctx.addIssue({ code: "custom", path: [...at, "exact"], message: exact });
      if (field.maxLength !== undefined && field.type !== "text") {
        ctx.addIssue({ code: "custom", path: [...at, "maxLength"], message: `maxLength applies to text fields only, not ${field.type}` });
      }
    });
    if (table.key !== undefined) {
      const at = names.get(table.key);
      const field = at === undefined ? undefined : table.fields[at]!;
      if (!field) ctx.addIssue({ code: "custom", path: ["key"], message: `names no field of the table: "${table.key}"` });
      else if (field.type === "container" || field.global || (field.repetitions ?? 1) > 1) {
        ctx.addIssue({ code: "custom", path: ["key"], message: `"${table.key}" cannot be the key: a key is a stored, non-repeating, non-container field` });
      }
    }
    const relations = new Map<string, number>();
    table.relations?.forEach((relation, i) => {
      if (relations.has(relation.name)) ctx.addIssue({ code: "custom", path: ["relations", i, "name"], message: `duplicate relation name "${relation.name}" (also relations[${relations.get(relation.name)}])` });
      else relations.set(relation.name, i);
      // A navigation property and a property of one entity type share one namespace (CSDL).
      if (names.has(relation.name)) ctx.addIssue({ code: "custom", path: ["relations", i, "name"], message: `"${relation.name}" is also a field's name (fields[${names.get(relation.name)}])` });
    });
  });

export type TableFieldDescription = z.infer<typeof tableFieldSchema>;
export type TableRelationDescription = z.infer<typeof tableRelationSchema>;
/**
 * A table description as written (`<Name>.table.json`, or an object): the table occurrence, its key, fields and
 * relations; defaults not yet filled in.
 */
export type TableDescriptionInput = z.infer<typeof tableDescriptionSchema>;
