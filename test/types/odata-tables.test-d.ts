/**
 * Compile-time guarantees of the OData runtime's types (checked by `npm run typecheck`; never run): select narrows the row,
 * expand adds typed relation rows, filters and orderBy take the table's fields of the right kinds, writes refuse read-only
 * fields, and a table of another database is refused. Written against hand-written definitions in ./odata/.
 */
import { f } from "../../src/runtime/odata/filter.js";
import type { ODataClient } from "../../src/runtime/odata/api.js";
import { Contacts } from "./odata/contacts-table.js";
import { Invoices, Other } from "./odata/invoices-table.js";
declare const od: ODataClient<"Contacts">;
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
  return [n, a, age, cn, rid, none];
}
