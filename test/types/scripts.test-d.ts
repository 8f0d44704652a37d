/**
 * Compile-time guarantees of script options, duplicate and the entry modes, checked by `npm run typecheck`: every
 * `@ts-expect-error` below must be an error, everything else must compile. Never run.
 */
import { expectTypeOf } from "vitest";
import { assertScripts, createClient, defineDatabase, type FmRecord, type Page, type ScriptResult, type ScriptResults } from "@fmgen/runtime";
import { Contact, type ContactFields, type ContactPortals } from "../../examples/contacts/generated/index.js";

const Contacts = defineDatabase({ database: "Contacts", scripts: ["Log Find", "Prepare", "Mark"], globals: {} });
const typed = createClient({ server: "http://127.0.0.1:1", database: Contacts, auth: { username: "u", password: "p" } }).layout(Contact);
const untyped = createClient({ server: "http://127.0.0.1:1", database: "Contacts", auth: { username: "u", password: "p" } }).layout(Contact);
type ContactRecord = FmRecord<ContactFields, ContactPortals>;

export async function resultsCarryScriptsWhenAsked(): Promise<void> {
  // The example of docs/scripts-and-globals.md, "Scripts on calls".
  const found = await typed.find({ query: [{ Status: "Active" }], script: { name: "Log Find", param: "x" }, prerequest: { name: "Prepare" }, presort: { name: "Mark" } });
  expectTypeOf(found.scripts.after?.result).toEqualTypeOf<string | undefined>();
  expectTypeOf(found.scripts.after?.error).toEqualTypeOf<string | undefined>();
  expectTypeOf(found.scripts).toEqualTypeOf<ScriptResults>();
  expectTypeOf(found.data).toEqualTypeOf<ContactRecord[]>();

  const page = await typed.list({ limit: 5, sort: [{ fieldName: "First Name", sortOrder: "ascend" }], presort: { name: "Mark" } });
  expectTypeOf(page.scripts.presort).toEqualTypeOf<ScriptResult | undefined>();
  const record = await typed.get(1, { script: { name: "Log Find" } });
  expectTypeOf(record.fieldData).toEqualTypeOf<ContactFields>();
  expectTypeOf(record.scripts).toEqualTypeOf<ScriptResults>();
  expectTypeOf(await typed.create({ fieldData: { "First Name": "A" } }, { prerequest: { name: "Prepare" } })).toEqualTypeOf<{ recordId: string; modId: string } & { scripts: ScriptResults }>();
  expectTypeOf((await typed.edit(1, { fieldData: {} }, { script: { name: "Mark" } })).scripts).toEqualTypeOf<ScriptResults>();
  expectTypeOf(await typed.delete(1, { script: { name: "Mark" } })).toEqualTypeOf<{ scripts: ScriptResults }>();
  expectTypeOf(await typed.duplicate(1, { script: { name: "Mark", param: "p" } })).toEqualTypeOf<{ recordId: string; modId: string } & { scripts: ScriptResults }>();
  expectTypeOf(assertScripts(found)).toEqualTypeOf(found);
}

export async function resultsWithoutScriptOptionsAreUnchanged(): Promise<void> {
  expectTypeOf(await typed.list()).toEqualTypeOf<Page<ContactRecord>>();
  expectTypeOf(await typed.list({ limit: 1 })).toEqualTypeOf<Page<ContactRecord>>();
  expectTypeOf(await typed.get(1)).toEqualTypeOf<ContactRecord>();
  expectTypeOf(await typed.create({ fieldData: {} }, { entryMode: "script" })).toEqualTypeOf<{ recordId: string; modId: string }>();
  expectTypeOf(await typed.delete(1)).toEqualTypeOf<void>();
  expectTypeOf(await typed.duplicate(1)).toEqualTypeOf<{ recordId: string; modId: string }>();
  const page = await typed.find({ query: [{ Status: "Active" }] });
  // @ts-expect-error: no script was asked for, so there are no script results
  void page.scripts;
  // @ts-expect-error: assertScripts takes a result of a call that ran scripts
  assertScripts(page);
}

export function scriptNamesAreTheDatabases(): void {
  // @ts-expect-error: the database has no such script
  void typed.list({ script: { name: "Log Finds" } });
  // @ts-expect-error: the database has no such script
  void typed.get(1, { prerequest: { name: "Nope" } });
  // @ts-expect-error: the database has no such script
  void typed.find({ query: [{ Status: "Active" }], presort: { name: "Nope" } });
  // @ts-expect-error: the database has no such script
  void typed.create({ fieldData: {} }, { script: { name: "Nope" } });
  // @ts-expect-error: the database has no such script
  void typed.edit(1, { fieldData: {} }, { script: { name: "Nope" } });
  // @ts-expect-error: the database has no such script
  void typed.delete(1, { script: { name: "Nope" } });
  // @ts-expect-error: the database has no such script
  void typed.duplicate(1, { script: { name: "Nope" } });
  // A plain database name takes any script name.
  void untyped.list({ script: { name: "Anything at all" } });
  void untyped.duplicate(1, { prerequest: { name: "Whatever", param: "1" } });
}

export function optionsAreChecked(): void {
  // @ts-expect-error: a param is text
  void typed.list({ script: { name: "Mark", param: 5 } });
  // @ts-expect-error: a script names itself
  void untyped.list({ script: { param: "x" } });
  // @ts-expect-error: entry modes are "user" or "script"
  void typed.create({ fieldData: {} }, { entryMode: "robot" });
  // @ts-expect-error: entry modes are "user" or "script"
  void typed.edit(1, { fieldData: {} }, { prohibitMode: "never" });
  // @ts-expect-error: only create and edit take entry modes
  void typed.duplicate(1, { entryMode: "script" });
  // @ts-expect-error: only create and edit take entry modes
  void typed.list({ entryMode: "script" });
  // @ts-expect-error: streams do not run scripts (one run per page)
  void typed.listAll({ script: { name: "Mark" } });
  // @ts-expect-error: findOne returns a record: use find for scripts
  void typed.findOne({ query: [{ Status: "Active" }], script: { name: "Mark" } });
  // A typo among script options is still caught.
  // @ts-expect-error: no such option
  void typed.list({ limit: 1, scirpt: { name: "Mark" } });
}
