/**
 * Compile-time guarantees of database definitions, checked by `npm run typecheck`: every `@ts-expect-error` below
 * must be an error, everything else must compile. Never run.
 */
import { expectTypeOf } from "vitest";
import { createClient, defineDatabase, type FileMakerClient, type GlobalsOf, type LayoutClient, type ScriptNameOf } from "@fmgen/runtime";
import { Contact } from "../../examples/contacts/generated/index.js";

const Contacts = defineDatabase({
  database: "Contacts",
  scripts: ["Send Invoice", "Log Find"],
  globals: { "Globals::gUserId": { type: "text" }, "Globals::gCount": { type: "number" } },
});

export function scriptNamesAndGlobalsAreLiteral(): void {
  expectTypeOf<ScriptNameOf<typeof Contacts>>().toEqualTypeOf<"Send Invoice" | "Log Find">();
  expectTypeOf<keyof GlobalsOf<typeof Contacts>>().toEqualTypeOf<"Globals::gUserId" | "Globals::gCount">();
  const unknown: ScriptNameOf<typeof Contacts> = "Send Invoice";
  // @ts-expect-error: the database has no such script
  const missing: ScriptNameOf<typeof Contacts> = "Send Invoices";
  // @ts-expect-error: not a global field of the database
  const notGlobal: GlobalsOf<typeof Contacts> = { "Contacts::First Name": "x" };
  void [unknown, missing, notGlobal];
}

export function aClientCarriesItsDatabase(): void {
  const typed = createClient({ server: "http://127.0.0.1:1", database: Contacts, auth: { username: "u", password: "p" } });
  expectTypeOf(typed).toEqualTypeOf<FileMakerClient<typeof Contacts>>();
  expectTypeOf(typed.layout(Contact)).toEqualTypeOf<LayoutClient<typeof Contact, typeof Contacts>>();
  // A plain name keeps working, untyped: any script name, any global.
  const untyped = createClient({ server: "http://127.0.0.1:1", database: "Contacts", auth: { username: "u", password: "p" } });
  expectTypeOf<ScriptNameOf<typeof untyped extends FileMakerClient<infer Db> ? Db : never>>().toEqualTypeOf<string>();
  expectTypeOf<ScriptNameOf<string>>().toEqualTypeOf<string>();
  expectTypeOf<GlobalsOf<string>>().toEqualTypeOf<Record<string, string | number>>();
}
