import { z } from "zod";
import { carriedNameSchema } from "./carried-name.js";

/**
 * The database description format (`<Database>.database.json`): what a hosted file has beyond its layouts.
 * `fmgen pull` writes it from `GET /databases/{database}/scripts`; the emulator serves its scripts (as empty
 * scripts when no handler is given for them); `schema/database.schema.json` is generated from this schema by
 * `npm run schema`.
 */

/** How deep a folder `fmgen pull` writes as its path; deeper, as its index in `folders` (see below). */
export const MAX_FOLDER_PATH = 8;

export const scriptFolderSchema = z
  .union([z.string().min(1), z.array(z.string().min(1)).min(1), z.number().int().min(0)])
  .describe(
    'The folder the script is in: a folder name ("Billing"), or the path of nested folders, outermost first (["Billing", "Monthly"]); ' +
      "or the index of the folder in `folders` (how fmgen pull writes a folder more than 8 deep). " +
      "A name is taken whole, so it may contain any character, \"/\" included.",
  );

export const databaseFolderSchema = z
  .object({
    name: z.string().min(1).describe("The folder's name."),
    in: z.number().int().min(0).optional().describe("The index in `folders` of the folder it is in, an earlier entry; absent at the top of the script list."),
  })
  .strict();

export const databaseScriptSchema = z
  .object({
    name: carriedNameSchema("script").describe("The script's name, as FileMaker Server lists it."),
    folder: scriptFolderSchema.optional(),
  })
  .strict();

export const databaseDescriptionSchema = z
  .object({
    $schema: z.string().optional(),
    database: carriedNameSchema("database").describe("Hosted file name without `.fmp12`."),
    scripts: z
      .array(databaseScriptSchema)
      .optional()
      .describe("The file's scripts, in the order of its script list; folders are made from the scripts' `folder`."),
    folders: z
      .array(databaseFolderSchema)
      .optional()
      .describe(
        "Folders a script's `folder` names by index, each once, with the folder it is in: so that scripts in folders nested thousands deep take " +
          "a line each, not their whole path each (fmgen pull writes it only for folders more than 8 deep).",
      ),
  })
  .strict()
  .superRefine(({ scripts = [], folders = [] }, context) => {
    folders.forEach((folder, i) => {
      if (folder.in !== undefined && folder.in >= i) context.addIssue({ code: "custom", path: ["folders", i, "in"], message: `must be the index of an earlier folder (below ${i})` });
    });
    scripts.forEach(({ folder }, i) => {
      if (typeof folder === "number" && folder >= folders.length) context.addIssue({ code: "custom", path: ["scripts", i, "folder"], message: `folders has no index ${folder} (it has ${folders.length} folders)` });
    });
  });

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
