/**
 * Compile-time guarantees of finds and the query builder, checked by `npm run typecheck`: every `@ts-expect-error`
 * below must be an error, everything else must compile. Written against the committed golden modules of
 * examples/contacts, whose definitions say what each field is (the spec's `type`). Never run.
 */
import { expectTypeOf } from "vitest";
import { createClient, q, type Criterion, type FindQuery, type HelpersOf, type KindsOf, type Page } from "@fmgen/runtime";
import { Contact, Invoice, type ContactQuery, type ContactRecord } from "../../examples/contacts/generated/index.js";
import { TortureLayout } from "../golden/generated/torture/index.js";
import { Item } from "../query/items.js";
import { ContactWithoutKinds, MissingLayout } from "../support/runtime-layouts.js";

const fm = createClient({ server: "http://127.0.0.1:1", database: "Contacts", auth: { username: "u", password: "p" } });
const contacts = fm.layout(Contact);
const invoices = fm.layout(Invoice);

export function theKindsMap(): void {
  // A generated definition's kinds are its spec: each field's type, the containers' group, each portal's fields.
  type Kinds = KindsOf<typeof Contact>;
  expectTypeOf<Kinds["fields"]["Birthday"]["type"]>().toEqualTypeOf<"date">();
  expectTypeOf<Kinds["readOnly"]["Created"]["type"]>().toEqualTypeOf<"timestamp">();
  expectTypeOf<keyof Kinds["containers"]>().toEqualTypeOf<"Photo">();
  expectTypeOf<Kinds["portals"]["Invoices"]["fields"]["Invoices::Amount"]["type"]>().toEqualTypeOf<"number">();
  expectTypeOf<HelpersOf<"text">>().toEqualTypeOf<"eq" | "empty" | "notEmpty" | "raw" | "words" | "beginsWith" | "endsWith" | "contains">();
  expectTypeOf<HelpersOf<"date">>().toEqualTypeOf<"eq" | "empty" | "notEmpty" | "raw" | "lt" | "lte" | "gt" | "gte" | "between">();
  expectTypeOf<HelpersOf<"container">>().toEqualTypeOf<"eq" | "empty" | "notEmpty" | "raw">();
  expectTypeOf(q.gte(5)).toEqualTypeOf<Criterion<"gte", 5>>();
  expectTypeOf(q.between("2024-01-01", "2024-12-31")).toEqualTypeOf<Criterion<"between", "2024-01-01" | "2024-12-31">>();
  expectTypeOf(q.contains("x")).toEqualTypeOf<Criterion<"contains", string>>();
  expectTypeOf(q.empty()).toEqualTypeOf<Criterion<"empty", never>>();
}

export async function whatCompiles(): Promise<void> {
  // The examples of docs/finding.md.
  await contacts.find({
    query: [{ "First Name": "Ada", Birthday: q.gte("1990-01-01") }, { Status: "Inactive", omit: true }],
    sort: [{ fieldName: "Birthday", sortOrder: "descend" }],
    limit: 10,
  });
  const again = await contacts.query().where({ Status: "Active" }).or({ Email: q.endsWith("@example.com") }).sort("Birthday", "descend").limit(10).run();
  expectTypeOf(again).toEqualTypeOf<Page<ContactRecord>>();
  for await (const r of contacts.query().where({ Status: "Active" })) expectTypeOf(r).toEqualTypeOf<ContactRecord>();
  for await (const r of contacts.query().all({ pageSize: 50 })) expectTypeOf(r).toEqualTypeOf<ContactRecord>();
  expectTypeOf(contacts.query().where({ id: 1 }).omit({ Status: "Inactive" }).or({ Email: q.empty() })).toEqualTypeOf<FindQuery<typeof Contact>>();

  // Every helper where it applies: text, number, date, time, timestamp, container, repeating, related, portal fields.
  const everything: ContactQuery = {
    id: q.between(1, 10),
    "First Name": q.words("ada love"),
    "Last Name": q.beginsWith("Love"),
    Email: q.contains("@"),
    Status: q.eq("Active"),
    Birthday: q.lt("2000-01-01"),
    "Wake Up": q.gte("06:00:00"),
    Created: q.between("2024-01-01T00:00:00", "2024-12-31T23:59:59"),
    Modified: q.notEmpty(),
    Photo: q.empty(),
    Phone: q.endsWith("0199"),
    "Company::Name": q.contains("Engines"),
    "Invoices::Amount": q.gt(100),
    "Invoices::Issued": q.lte("2024-03-01"),
  };
  await contacts.find({ query: [everything] });
  // Plain values keep meaning "equals exactly"; null finds empty fields of types that can be empty.
  await contacts.find({ query: [{ Birthday: null, id: null, "Invoices::Amount": 80, Phone: "555-0100" }] });
  await contacts.find({ query: [{ Status: q.eq(""), Birthday: q.eq(null) }] });
  // FileMaker find syntax is reachable only through q.raw, on any field: text ranges, wildcards, today.
  await contacts.find({ query: [{ "First Name": q.raw("a...m"), Email: q.raw("*@example.com"), Birthday: q.raw("//"), id: q.raw(">5") }] });
  // Hand-written definitions without a kinds map still take helpers; number fields still refuse text helpers.
  const handWritten = fm.layout(ContactWithoutKinds);
  await handWritten.query().where({ Birthday: q.gte("1990-01-01"), "First Name": q.beginsWith("A"), id: q.lt(5) }).run();
  // @ts-expect-error: a text helper on a number field, even without a kinds map
  await handWritten.find({ query: [{ id: q.beginsWith("1") }] });
  // Hand-written definitions with kinds take the helpers of each field's kind: from a kinds map (`Item`), or from
  // kinds in a spec's form (`MissingLayout`'s are `KindsOf<typeof Contact>`).
  const items = fm.layout(Item);
  await items.find({ query: [{ Day: q.gte("2024-01-01"), Name: q.beginsWith("A"), "Parts::Label": q.contains("x"), "Parts::Weight": q.gt(1) }] });
  // @ts-expect-error: q.gt() on a text field of a kinds map
  await items.find({ query: [{ Name: q.gt("a") }] });
  // @ts-expect-error: q.lt() on a container of a kinds map
  await items.find({ query: [{ File: q.lt("a") }] });
  // @ts-expect-error: q.contains() on a portal number field of a kinds map
  items.query().where({ "Parts::Weight": q.contains("5") });
  const missing = fm.layout(MissingLayout);
  await missing.find({ query: [{ Birthday: q.gte("1990-01-01"), "First Name": q.beginsWith("A"), "Invoices::Amount": q.gt(1) }] });
  // @ts-expect-error: q.gte() on a text field of kinds in a spec's form
  await missing.find({ query: [{ "First Name": q.gte("a") }] });
  // @ts-expect-error: q.lt() on a container of kinds in a spec's form
  missing.query().where({ Photo: q.lt("b") });
  // @ts-expect-error: q.words() on a portal date field of kinds in a spec's form
  await missing.find({ query: [{ "Invoices::Issued": q.words("2024") }] });
  // Hostile field names take helpers too.
  const torture = fm.layout(TortureLayout);
  await torture.query().where({ "1...3": q.gte(1), "...": q.contains("..."), ["__proto__"]: q.lt("12:00:00"), constructor: q.between(1, 2) }).run();
}

export async function rangeHelpersOnTextFields(): Promise<void> {
  // @ts-expect-error: q.gte() does not apply to text fields (FileMaker's text ranges: q.raw("a...m"))
  await contacts.find({ query: [{ "First Name": q.gte("a") }] });
  // @ts-expect-error: q.lt() on a text field
  await contacts.find({ query: [{ Email: q.lt("m") }] });
  // @ts-expect-error: q.between() on a text field
  contacts.query().where({ "Last Name": q.between("a", "m") });
  // @ts-expect-error: q.gt() on a value-list text field
  contacts.query().or({ Status: q.gt("A") });
  // @ts-expect-error: q.lte() on a related text field
  contacts.query().omit({ "Company::Name": q.lte("N") });
  // @ts-expect-error: q.gte() on a repeating text field
  await contacts.find({ query: [{ Phone: q.gte("555") }] });
  // @ts-expect-error: q.lt() on a container field
  await contacts.find({ query: [{ Photo: q.lt("b") }] });
}

export async function stringHelpersOnNumberAndDateFields(): Promise<void> {
  // @ts-expect-error: q.beginsWith() on a number field
  await contacts.find({ query: [{ id: q.beginsWith("1") }] });
  // @ts-expect-error: q.contains() on a portal number field
  await contacts.find({ query: [{ "Invoices::Amount": q.contains("5") }] });
  // @ts-expect-error: q.words() on a date field
  contacts.query().where({ Birthday: q.words("1990") });
  // @ts-expect-error: q.endsWith() on a portal date field
  contacts.query().where({ "Invoices::Issued": q.endsWith("2024") });
  // @ts-expect-error: q.contains() on a time field
  contacts.query().where({ "Wake Up": q.contains(":30") });
  // @ts-expect-error: q.beginsWith() on a timestamp field
  contacts.query().where({ Created: q.beginsWith("2024") });
  // @ts-expect-error: q.contains() on a container field
  contacts.query().where({ Photo: q.contains("png") });
  // @ts-expect-error: q.beginsWith() on a number field of another layout
  invoices.query().where({ Amount: q.beginsWith("1") });
}

export async function wrongValueTypes(): Promise<void> {
  // @ts-expect-error: a number for a date field
  await contacts.find({ query: [{ Birthday: q.gte(5) }] });
  // @ts-expect-error: a date for a number field
  await invoices.find({ query: [{ Amount: q.gte("1990-01-01") }] });
  // @ts-expect-error: text bounds on a number field
  invoices.query().where({ Amount: q.between("1", "5") });
  // @ts-expect-error: mixed bounds
  contacts.query().where({ Birthday: q.between("2024-01-01", 5) });
  // @ts-expect-error: null is no bound
  contacts.query().where({ id: q.lt(null) });
  // @ts-expect-error: q.eq takes the field's type: text for a number field
  await contacts.find({ query: [{ id: q.eq("one") }] });
  // @ts-expect-error: q.eq takes the field's type: a number for a text field
  await contacts.find({ query: [{ "First Name": q.eq(1) }] });
  // @ts-expect-error: q.eq takes a value of the value list
  await contacts.find({ query: [{ Status: q.eq("Archived") }] });
  // @ts-expect-error: q.eq(null) on a text field (q.empty() finds empty text)
  await contacts.find({ query: [{ "First Name": q.eq(null) }] });
  // @ts-expect-error: a plain value of the wrong type
  contacts.query().where({ "Invoices::Amount": "80" });
  // @ts-expect-error: text helpers take strings
  contacts.query().where({ "First Name": q.words(5) });
  // @ts-expect-error: q.raw takes a string
  contacts.query().where({ "First Name": q.raw(5) });
}

export async function unknownFields(): Promise<void> {
  // @ts-expect-error: no such field on the layout
  await contacts.find({ query: [{ Nickname: q.beginsWith("A") }] });
  // @ts-expect-error: no such field, in where()
  contacts.query().where({ Nickname: "Ada" });
  // @ts-expect-error: no such field, in or()
  contacts.query().or({ "first name": "Ada" });
  // @ts-expect-error: no such field, in omit()
  contacts.query().omit({ "Invoices::Total": q.gt(1) });
  // @ts-expect-error: a field of another layout
  invoices.query().where({ "First Name": "Ada" });
  // @ts-expect-error: omit is a method of the builder, not a criterion
  contacts.query().where({ Status: "Active", omit: true });
  // @ts-expect-error: sorting on a field not on the layout
  contacts.query().sort("Nickname");
  // @ts-expect-error: sorting on a portal field
  contacts.query().sort("Invoices::Amount");
  contacts.query().sort("Status", "Statuses"); // a value list's order
  contacts.query().sort("Status", "descend").sort("Email");
  // @ts-expect-error: "up" is no sort order
  contacts.query().sort("Status", "up");
  // @ts-expect-error: a value list the file does not have
  contacts.query().sort("Status", "Colors");
  // @ts-expect-error: a sort order is a string
  contacts.query().sort("Birthday", 1);
  // @ts-expect-error: q has no such helper
  q.like("a%");
}
