/**
 * Compile-time guarantees of the client's calls outside a layout's records (runScript, setGlobals, productInfo,
 * databases, layouts, scripts) and of `dateFormat`, checked by `npm run typecheck`: every `@ts-expect-error` below
 * must be an error, everything else must compile. Never run.
 */
import { expectTypeOf } from "vitest";
import { createClient, defineDatabase, type DatabaseEntry, type LayoutEntry, type ProductInfo, type ScriptEntry, type ScriptResult } from "@fmgen/runtime";
import { Contact } from "../../examples/contacts/generated/index.js";
import { Invoice } from "../../examples/invoices/generated/index.js";
import { Weird } from "../support/runtime-layouts.js";

const Contacts = defineDatabase({
  database: "Contacts",
  scripts: ["Send Invoice", "Log Find"],
  globals: { "Globals::gUserId": { type: "text" }, "Globals::gCount": { type: "number" } },
});

const typed = createClient({ server: "http://127.0.0.1:1", database: Contacts, auth: { username: "u", password: "p" } });
const untyped = createClient({ server: "http://127.0.0.1:1", database: "Contacts", auth: { username: "u", password: "p" } });

export async function runScriptNamesAreTyped(): Promise<void> {
  expectTypeOf(await typed.runScript(Contact, "Send Invoice", { param: "42" })).toEqualTypeOf<ScriptResult>();
  await typed.runScript("Contacts Web", "Log Find");
  // A name the type does not know (a plain string), and a hand-written definition (its database a plain string).
  await typed.runScript("Contacts Web" as string, "Log Find");
  await typed.runScript(Weird, "Log Find");
  // @ts-expect-error: the database has no such script
  await typed.runScript(Contact, "Send Invoices");
  // @ts-expect-error: a parameter is text
  await typed.runScript(Contact, "Send Invoice", { param: 42 });
  // @ts-expect-error: a layout is a definition or a name, not an object that looks like one
  await typed.runScript({ layout: "Contacts Web", database: "Contacts", fields: {} }, "Send Invoice");
  // A plain database name: any script name.
  await untyped.runScript(Contact, "Anything");
  // @ts-expect-error: Invoice is a layout of database "Invoicing"; the client is for "Contacts" (as fm.layout())
  await typed.runScript(Invoice, "Send Invoice");
  // A plain database name: the runtime checks (a TypeError), as fm.layout() does.
  await untyped.runScript(Invoice, "Anything");
}

export async function setGlobalsTakesOnlyGlobals(): Promise<void> {
  await typed.setGlobals({ "Globals::gUserId": "42" });
  await typed.setGlobals({ "Globals::gCount": 3, "Globals::gUserId": "x" });
  // @ts-expect-error: not a global field of the database
  await typed.setGlobals({ "Contacts::First Name": "x" });
  // @ts-expect-error: a global's value is text or a number
  await typed.setGlobals({ "Globals::gUserId": true });
  await untyped.setGlobals({ "Any::field": 1 });
}

export async function listsAndServerCalls(): Promise<void> {
  expectTypeOf(await typed.productInfo()).toEqualTypeOf<ProductInfo>();
  expectTypeOf(await typed.databases()).toEqualTypeOf<DatabaseEntry[]>();
  expectTypeOf(await typed.layouts()).toEqualTypeOf<LayoutEntry[]>();
  expectTypeOf(await typed.scripts()).toEqualTypeOf<ScriptEntry[]>();
  // With folders: true, every entry has its folder path.
  expectTypeOf((await typed.layouts({ folders: true }))[0]!.folder).toEqualTypeOf<string[]>();
  expectTypeOf((await typed.scripts({ folders: true }))[0]!.folder).toEqualTypeOf<string[]>();
  expectTypeOf((await typed.scripts())[0]!.folder).toEqualTypeOf<string[] | undefined>();
}

export function dateFormatIsUsOrIso(): void {
  createClient({ server: "http://127.0.0.1:1", database: "Contacts", auth: { token: "t" }, dateFormat: "iso" });
  createClient({ server: "http://127.0.0.1:1", database: "Contacts", auth: { token: "t" }, dateFormat: "us" });
  // @ts-expect-error: "us" or "iso"
  createClient({ server: "http://127.0.0.1:1", database: "Contacts", auth: { token: "t" }, dateFormat: "ISO" });
}
