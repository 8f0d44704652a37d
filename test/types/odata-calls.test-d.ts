/**
 * Compile-time guarantees of od.batch, od.webhooks, od.runScript and containers (checked by `npm run typecheck`;
 * never run): each step's result typed in order, a webhook's select and filter checked against its table.
 */
import { f } from "../../src/runtime/odata/filter.js";
import type { ContainerFile } from "@fmgen/runtime/odata";
import type { ODataClient, ScriptRunResult } from "../../src/runtime/odata/api.js";
import type { RowOf } from "../../src/runtime/odata/definition.js";
import { Contacts } from "./odata/contacts-table.js";
import { Invoices, Other } from "./odata/invoices-table.js";
declare const od: ODataClient<"Contacts">;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const check = <T extends true>(_: T) => undefined;

export async function t() {
  const results = await od.batch((b) => [
    b.table(Contacts).create({ "First Name": "x" }),
    b.table(Invoices).update(3, { Amount: 2 }),
    b.table(Invoices).delete({ rowId: 4 }),
    b.table(Invoices).updateWhere(f.gt("Amount", 3), { Amount: 1 }),
    b.table(Contacts).deleteWhere(f.eq("First Name", "y")),
  ]);
  check<Equal<typeof results, [RowOf<typeof Contacts>, void, void, number, number]>>(true);
  const [created] = results;
  const first: string = created["First Name"];
  // @ts-expect-error read-only field in a batch update
  await od.batch((b) => [b.table(Contacts).update(7, { Calc: "x" })]);
  // @ts-expect-error a filter of another table's field
  await od.batch((b) => [b.table(Invoices).deleteWhere(f.eq("First Name", "x"))]);

  await od.webhooks.add({ url: "https://example.com/hook", table: Contacts, select: ["First Name", "Age"], filter: f.gt("Age", 3) });
  // @ts-expect-error unknown field in a webhook's select
  await od.webhooks.add({ url: "https://example.com/hook", table: Contacts, select: ["Nope"] });
  // @ts-expect-error a text function on a number field in a webhook's filter
  await od.webhooks.add({ url: "https://example.com/hook", table: Contacts, filter: f.contains("Age", "3") });
  // @ts-expect-error a table of another database
  await od.webhooks.add({ url: "https://example.com/hook", table: Other });
  const hook = await od.webhooks.get(1);
  const url: string | undefined = hook?.url;

  const run: ScriptRunResult = await od.runScript("Send Invoice", { param: { id: 42 } });
  const code: number = run.code;
  // @ts-expect-error a boolean is no script parameter
  await od.runScript("Send Invoice", { param: true });

  const file: ContainerFile | null = await od.table(Contacts).download(7, "Photo");
  // @ts-expect-error not a container
  await od.table(Contacts).download(7, "Age");
  const change = await od.schema.addFields("Contacts", [{ name: "Due", type: "date" }]);
  const failed: string | null | undefined = change.failedFields?.[0]?.name;
  return [first, url, code, file, failed];
}
