/**
 * Compile-time guarantees of database definitions, checked by `npm run typecheck`: every `@ts-expect-error` below
 * must be an error, everything else must compile. Never run.
 */
import { expectTypeOf } from "vitest";
import { createClient, defineDatabase, type AnyDatabase, type FileMakerClient, type GlobalsOf, type LayoutClient, type ScriptNameOf } from "@fmgen/runtime";
import { Contact } from "../../examples/contacts/generated/index.js";
import { Customer, Invoice, Invoicing } from "../../examples/invoices/generated/index.js";
import { TortureDB, TortureLayout } from "../golden/generated/torture/index.js";
import { Weird } from "../support/runtime-layouts.js";

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

export async function repetitionsOfAGlobalTakeTheirOwnNames(): Promise<void> {
  // README: setGlobals takes `TO::field(2)` for a repetition. Torture::NaN is a generated global with 3 repetitions.
  const torture = createClient({ server: "http://127.0.0.1:1", database: TortureDB, auth: { username: "u", password: "p" } });
  await torture.setGlobals({ "Torture::NaN(2)": 5 });
  await torture.setGlobals({ "Torture::NaN": 1, "Torture::NaN(1)": 1, "Torture::NaN(3)": "3" });
  // @ts-expect-error: Torture::NaN has 3 repetitions
  await torture.setGlobals({ "Torture::NaN(4)": 4 });
  // @ts-expect-error: only a repeating global has repetition names
  await torture.setGlobals({ "Lines::__proto__(1)": "2026-01-01" });

  const Wide = defineDatabase({
    database: "Wide",
    scripts: [],
    globals: { "G::hundred": { type: "text", repetitions: 100 }, "G::more": { type: "text", repetitions: 150 }, "G::one": { type: "number", repetitions: 1 } },
  });
  const wide = createClient({ server: "http://127.0.0.1:1", database: Wide, auth: { username: "u", password: "p" } });
  await wide.setGlobals({ "G::hundred(100)": "x", "G::more(150)": "x", "G::one": 1 });
  // @ts-expect-error: up to 100 repetitions each is named
  await wide.setGlobals({ "G::hundred(101)": "x" });
  // @ts-expect-error: a field of one repetition has no repetition names
  await wide.setGlobals({ "G::one(1)": 1 });
}

export function aLayoutOfAnotherDatabaseDoesNotCompile(): void {
  const typed = createClient({ server: "http://127.0.0.1:1", database: Contacts, auth: { username: "u", password: "p" } });
  // @ts-expect-error: Invoice is a layout of database "Invoicing"; the client is for "Contacts"
  typed.layout(Invoice);
  // @ts-expect-error: and TortureLayout of "Tortüre DB"
  typed.layout(TortureLayout);
  const invoicing = createClient({ server: "http://127.0.0.1:1", database: Invoicing, auth: { username: "u", password: "p" } });
  expectTypeOf(invoicing.layout(Customer)).toEqualTypeOf<LayoutClient<typeof Customer, typeof Invoicing>>();
  // @ts-expect-error: Contact is a layout of "Contacts"
  invoicing.layout(Contact);
  // Where a type does not say which file it is, the runtime checks (a TypeError): a plain database name, or a
  // hand-written definition (its database a plain string).
  const untyped = createClient({ server: "http://127.0.0.1:1", database: "Contacts", auth: { username: "u", password: "p" } });
  const anyFile: LayoutClient<typeof Invoice> = untyped.layout(Invoice);
  void anyFile;
  expectTypeOf(typed.layout(Weird)).toEqualTypeOf<LayoutClient<typeof Weird, typeof Contacts>>();
}

export function aClientOfAnyDatabaseTakesAnyLayout(fm: FileMakerClient<AnyDatabase>): void {
  // Code written for every client (a helper taking FileMakerClient<AnyDatabase>) cannot know the file: no check.
  const contacts: LayoutClient<typeof Contact, AnyDatabase> = fm.layout(Contact);
  const invoices: LayoutClient<typeof Invoice, AnyDatabase> = fm.layout(Invoice);
  void [contacts, invoices];
}

