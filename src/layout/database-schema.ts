import { z } from "zod";

/**
 * The database description format (`<Database>.database.json`): what a hosted file has beyond its layouts.
 * `fmgen pull` writes it from `GET /databases/{database}/scripts`; the emulator serves its scripts (as empty
 * scripts when no handler is given for them); `schema/database.schema.json` is generated from this schema by
 * `npm run schema`.
 */

export const scriptFolderSchema = z
  .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
  .describe(
    'The folder the script is in: a folder name ("Billing"), or the path of nested folders, outermost first (["Billing", "Monthly"]). ' +
      "A name is taken whole, so it may contain any character, \"/\" included.",
  );

export const databaseScriptSchema = z
  .object({
    name: z.string().min(1).describe("The script's name, as FileMaker Server lists it."),
    folder: scriptFolderSchema.optional(),
  })
  .strict();

export const databaseDescriptionSchema = z
  .object({
    $schema: z.string().optional(),
    database: z.string().min(1).describe("Hosted file name without `.fmp12`."),
    scripts: z
      .array(databaseScriptSchema)
      .optional()
      .describe("The file's scripts, in the order of its script list; folders are made from the scripts' `folder`."),
  })
  .strict();

export type DatabaseScriptInput = z.infer<typeof databaseScriptSchema>;
export type DatabaseDescriptionInput = z.infer<typeof databaseDescriptionSchema>;

/** A script of a database description, its folder as a path (empty: at the top of the script list). */
export interface DatabaseScript {
  name: string;
  folder: string[];
}

/** A validated database description with its defaults applied. */
export interface DatabaseDescription {
  database: string;
  scripts: DatabaseScript[];
  /** Where it was read from, for error messages; absent for in-memory descriptions. */
  source?: string;
}
