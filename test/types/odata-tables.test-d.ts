/**
 * Compile-time guarantees of the OData runtime's types (checked by `npm run typecheck`; never run): select narrows the row,
 * expand adds typed relation rows, filters and orderBy take the table's fields of the right kinds, writes refuse read-only
 * fields, and a table of another database is refused. Written against hand-written definitions in ./odata/.
 */
import { f } from "../../src/runtime/odata/filter.js";
import type { ODataClient, TableClient } from "../../src/runtime/odata/api.js";
import { defineTable } from "../../src/runtime/odata/definition.js";
import { Contacts } from "./odata/contacts-table.js";
import { Invoices, Other } from "./odata/invoices-table.js";
import { Notes } from "./odata/notes-table.js";
declare const od: ODataClient<"Contacts">;
declare const anyDatabase: ODataClient<string>;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export async function t() {
  const c = od.table(Contacts);
  const r = await c.list({ select: ["First Name", "Age"], filter: f.and(f.eq("First Name", "x"), f.gt("Age", 3)), orderBy: ["Age", ["First Name", "desc"]] });
  const n: string = r.value[0]!["First Name"];
  // @ts-expect-error not selected
  r.value[0]!.Birthday;
  // @ts-expect-error unknown field in select
  await c.list({ select: ["Nope"] });
  // @ts-expect-error text function on number
  await c.list({ filter: f.contains("Age", "x") });
  // @ts-expect-error unknown field in filter
  await c.list({ filter: f.eq("Nope", "x") });
  // @ts-expect-error number vs date
  await c.list({ filter: f.eq("Birthday", 3) });
  // @ts-expect-error orderBy unknown
  await c.list({ orderBy: ["Nope"] });
  const g = await c.get(7, { expand: { Invoices: { select: ["Amount"], expand: { Contacts: { select: ["Age"] } } } } });
  const a: number | null = g.Invoices[0]!.Amount;
  const age: number | null = g.Invoices[0]!.Contacts[0]!.Age;
  // @ts-expect-error not selected in expand
  g.Invoices[0]!.ContactID;
  // @ts-expect-error unknown relation
  await c.get(7, { expand: { Nope: true } });
  await c.create({ "First Name": "Ada", Age: 3 });
  // @ts-expect-error required missing
  await c.create({ Age: 3 });
  // @ts-expect-error read-only
  await c.create({ "First Name": "a", Calc: "x" });
  // @ts-expect-error read-only in update
  await c.update(7, { id: 3 });
  // @ts-expect-error container in update
  await c.update(7, { Photo: "x" });
  // @ts-expect-error other database
  od.table(Other);
  // @ts-expect-error other database in batch
  await od.batch((b) => [b.table(Contacts).create({ "First Name": "x" }), b.table(Other).delete({ rowId: 1 })]);
  const [created, none] = await od.batch((b) => [b.table(Contacts).create({ "First Name": "x" }), b.table(Invoices).update(3, { Amount: 2 })]);
  const cn: string = created["First Name"];
  const w = await c.list({ specialColumns: true });
  const rid: number = w.value[0]!.rowId;
  await c.upload(7, "Photo", new Uint8Array());
  // @ts-expect-error not a container
  await c.upload(7, "Age", new Uint8Array());
  // The table's type is inferred through the database check; a client of a plain `string` database, or a table whose
  // database is a plain `string`, fits every table and client.
  const inferred: Equal<typeof c, TableClient<typeof Contacts>> = true;
  const other: Equal<ReturnType<typeof anyDatabase.table<typeof Other>>, TableClient<typeof Other>> = true;
  anyDatabase.table(Other);
  await anyDatabase.webhooks.add({ url: "https://example.com/hook", table: Other });
  const anyTable = defineTable()({ database: "" as string, table: "T", fields: {} });
  od.table(anyTable);
  await od.count(anyTable);
  return [n, a, age, cn, rid, none, inferred, other];
}

export async function shapes() {
  const c = od.table(Contacts);
  const notes = od.table(Notes);
  // select narrows the row to exactly the selected fields; without select, every field.
  const r = await c.list({ select: ["First Name", "Age"] });
  const narrowed: Equal<(typeof r.value)[number], { "First Name": string; Age: number | null }> = true;
  const whole = await c.get(7);
  const every: Equal<typeof whole, { id: number | null; "First Name": string; Age: number | null; Birthday: string | null; Calc: string; Photo: string | null }> = true;
  // A `many: false` relation is one row or null, shaped by its own select; a `many` one is an array.
  const n = await notes.get("k", { select: ["Text"], expand: { Owner: { select: ["Age"], expand: { Invoices: { select: ["Amount"] } } } } });
  const owner: { Age: number | null; Invoices: { Amount: number | null }[] } | null = n.Owner;
  const ownerExact: Equal<typeof n.Owner, ({ Age: number | null } & { Invoices: { Amount: number | null }[] }) | null> = true;
  // @ts-expect-error a many: false relation is not an array
  const asArray: unknown[] = n.Owner;
  // @ts-expect-error not selected inside a many: false expand
  n.Owner?.Birthday;
  // @ts-expect-error not selected at the top level
  n.Due;
  const all = await notes.get("k", { expand: { Owner: true } });
  const ownerWhole: string | undefined = all.Owner?.["First Name"];
  // Insert: notNull without autoEnter is required; notNull with autoEnter and read-only auto-entered fields are not.
  await notes.create({ Text: "x" });
  await notes.create({ Text: "x", id: "given", Due: "2024-01-01" });
  // @ts-expect-error Text (notNull, no autoEnter) missing
  await notes.create({ id: "x" });
  // @ts-expect-error Created is read-only
  await notes.create({ Text: "x", Created: "2024-01-01T00:00:00" });
  // @ts-expect-error Created is read-only, in update too
  await notes.update("k", { Created: null });
  // @ts-expect-error a container in create (written by upload)
  await c.create({ "First Name": "a", Photo: "x" });
  // @ts-expect-error unknown relation in a nested expand
  await notes.get("k", { expand: { Owner: { expand: { Nope: true } } } });
  // @ts-expect-error unknown field in a nested expand's select
  await notes.get("k", { expand: { Owner: { select: ["Amount"] } } });
  // @ts-expect-error unknown field in an expand's orderBy
  await c.get(7, { expand: { Invoices: { orderBy: ["Age"] } } });
  // @ts-expect-error a changeset step of another database, among steps of this one
  await od.batch((b) => [b.table(Notes).create({ Text: "x" }), b.table(Other).create({ n: 1 })]);
  const [note, count] = await od.batch((b) => [b.table(Notes).create({ Text: "x" }), b.table(Notes).deleteWhere(f.eq("Due", "2024-01-01"))]);
  const noteText: string = note.Text;
  const deleted: number = count;
  return [narrowed, every, owner, ownerExact, asArray, ownerWhole, noteText, deleted];
}

/** A not-empty field takes no `null`, in create or update (`null` would clear it, which validation refuses). */
export async function notEmptyTakesNoNull(): Promise<void> {
  const contacts = od.table(Contacts);
  // @ts-expect-error "First Name" is notNull: null would empty it
  await contacts.create({ "First Name": null });
  // @ts-expect-error the same in an update
  await contacts.update(7, { "First Name": null });
  await contacts.update(7, { Age: null });
}
