/**
 * Compile-time guarantees of exact number fields (`exact: true`) in the OData runtime's types (checked by `npm run
 * typecheck`, never run): rows read them as decimal text, create and update take a string (never a JavaScript number),
 * filters compare them with strings (a number-shaped literal or any string; never a number), their kind is
 * `"exact number"`, and an exact key is given as its text. Written against ./odata/ledger-table.ts.
 */
import { f } from "../../src/runtime/odata/filter.js";
import type { ODataClient } from "../../src/runtime/odata/api.js";
import type { InsertOf, KeyOf, KindsOf, UpdateOf } from "../../src/runtime/odata/definition.js";
import { Ledger } from "./odata/ledger-table.js";
declare const od: ODataClient<"Contacts">;
declare const typed: string;
declare const n: number;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const equal = <A, B>(ok: Equal<A, B>) => ok;

export async function exact() {
  const ledger = od.table(Ledger);
  const { value } = await ledger.list({ select: ["Id", "Amount", "Plain"], expand: { Lines: true } });
  const id: string | null = value[0]!.Id;
  const big: string | null = value[0]!.Lines[0]!.Big;
  // @ts-expect-error an exact field reads as text, not a number
  const asNumber: number | null = value[0]!.Amount;

  // Writes: decimal text, or null; never a number.
  equal<InsertOf<typeof Ledger>["Amount"], string>(true);
  equal<UpdateOf<typeof Ledger>["Amount"], string | undefined>(true);
  await ledger.create({ Amount: "12345678901234567890123456789", Parts: ["1", null] });
  await ledger.update("123456789012345678901234567890", { Amount: "0.1", Plain: 3 });
  // @ts-expect-error a JavaScript number on an exact field
  await ledger.create({ Amount: 12 });
  // @ts-expect-error an exact field that is not empty by validation takes no null
  await ledger.update("1", { Amount: null });
  // @ts-expect-error a read-only exact field is never written
  await ledger.update("1", { Total: "5" });
  // @ts-expect-error a number in an exact field's repetition
  await ledger.update("1", { Parts: [1, "2"] });

  // Keys: the key's text.
  equal<KeyOf<typeof Ledger>, string>(true);
  await ledger.get("123456789012345678901234567890");
  // @ts-expect-error a number for an exact key
  await ledger.get(12);

  // Filters: the kind is "exact number"; strings compare with it (number-shaped literals, or any string), numbers do not.
  equal<KindsOf<typeof Ledger>["Amount"], "exact number">(true);
  equal<KindsOf<typeof Ledger>["Plain"], "number">(true);
  await ledger.list({ filter: f.and(f.eq("Id", "123456789012345678901234567890"), f.between("Amount", "-1.5", "2e3"), f.gt("Total", typed), f.ne("Amount", null), f.isNull("Total"), f.lt("Plain", n)) });
  await ledger.count({ filter: f.eq("Id", "5") });
  await ledger.updateWhere(f.gte("Amount", "0"), { Amount: "1" });
  await ledger.list({ expand: { Lines: { filter: f.eq("Big", "99999999999999999999999") } } });
  // @ts-expect-error a JavaScript number compared with an exact field
  await ledger.list({ filter: f.eq("Id", 5) });
  // @ts-expect-error a literal that is no number, on an exact field
  await ledger.list({ filter: f.eq("Amount", "twelve") });
  // @ts-expect-error a date on an exact field
  await ledger.list({ filter: f.gt("Amount", "2024-01-01") });
  // @ts-expect-error a text function on an exact field
  await ledger.list({ filter: f.contains("Amount", "1") });
  // @ts-expect-error a number-shaped string on a number field without exact (as before)
  await ledger.list({ filter: f.eq("Plain", "3") });
  return [id, big, asNumber];
}
