/**
 * Compile-time guarantees of `f` and of where filters go (issue 24 item 5; checked by `npx tsc -p tsconfig.json
 * --noEmit`, never run): each comparison takes the field's TypeScript type (numbers for number fields, ISO strings for
 * dates, times and timestamps, a date-shaped literal only where a date fits), text functions take text fields only,
 * `null` is for eq/ne, a value that may be a number or a string fits no field, filters inside `expand` and `related`
 * are the target table's, and `f.raw` fits anywhere. test/types/odata-messages.test.ts checks the main errors' reasons.
 */
import { f, type Filter } from "../../src/runtime/odata/filter.js";
import type { ODataClient } from "../../src/runtime/odata/api.js";
import type { FilterOf, KindsOf } from "../../src/runtime/odata/definition.js";
import { Contacts } from "./odata/contacts-table.js";
import { Invoices } from "./odata/invoices-table.js";
import { Notes } from "./odata/notes-table.js";
declare const od: ODataClient<"Contacts">;
declare const userInput: string;
declare const maybe: string | null;
declare const numberOrText: number | string;

export async function filters() {
  const notes = od.table(Notes);
  const c = od.table(Contacts);
  // ISO values on date, time and timestamp fields; a wide string fits them too (checked when sent).
  await notes.list({ filter: f.and(f.eq("Due", "2024-01-01"), f.between("At", "2024-01-01T00:00:00", "2024-12-31T23:59:59"), f.gte("Alarm", "07:30:00"), f.isNull("Created")) });
  await notes.list({ filter: f.or(f.lt("Due", userInput), f.ne("At", maybe), f.eq("Text", maybe), f.contains("Text", userInput)) });
  await notes.list({ filter: f.not(f.eq("Due", null)) });
  await c.list({ filter: f.and(f.between("Age", 1, 9), f.ne("Age", null), f.startsWith("First Name", "A"), f.endsWith("First Name", "a")) });
  // @ts-expect-error a literal that is no date, on a date field
  await notes.list({ filter: f.eq("Due", "yesterday") });
  // @ts-expect-error a time on a date field
  await notes.list({ filter: f.eq("Due", "07:30:00") });
  // @ts-expect-error a date on a time field
  await notes.list({ filter: f.gt("Alarm", "2024-01-01") });
  // @ts-expect-error a timestamp with a zone (rows read timestamps local, without one; the runtime adds the server's)
  await notes.list({ filter: f.eq("At", "2024-01-01T00:00:00Z") });
  // @ts-expect-error a number on a timestamp field
  await notes.list({ filter: f.gt("At", 1_700_000_000) });
  // @ts-expect-error a string on a number field
  await c.list({ filter: f.eq("Age", "3") });
  // @ts-expect-error a text function on a date field
  await notes.list({ filter: f.contains("Due", "2024") });
  // @ts-expect-error a text function on a number field, inside and
  await c.list({ filter: f.and(f.eq("First Name", "x"), f.startsWith("Age", "1")) });
  // @ts-expect-error null in an order
  f.lt("Due", null);
  // @ts-expect-error a value that may be a number or a string fits no field
  await c.list({ filter: f.eq("Age", numberOrText) });
  // @ts-expect-error between of a number and a string
  await c.list({ filter: f.between("Age", 1, "9") });
  // @ts-expect-error a container compared with a value
  await c.list({ filter: f.eq("Photo", "x") });
  await c.list({ filter: f.isNull("Photo") });
  // @ts-expect-error unknown field inside not
  await c.list({ filter: f.not(f.eq("Nope", 1)) });

  // f.raw fits anywhere a filter goes, alone or combined.
  const raw = f.raw(`length("First Name") gt 3`);
  await c.list({ filter: raw });
  await c.list({ filter: f.and(raw, f.gt("Age", 3)) });
  await notes.list({ filter: f.or(raw, f.eq("Due", "2024-01-01")) });
  await c.get(7, { expand: { Invoices: { filter: raw } } });
  await od.count(Contacts, { filter: raw });
  await c.count({ filter: raw });
  await c.updateWhere(raw, { Age: 3 });
  await c.deleteWhere(f.and(raw, f.isNull("Age")));
  await od.batch((b) => [b.table(Notes).deleteWhere(raw), b.table(Contacts).updateWhere(raw, { Age: 1 })]);
  for await (const row of c.all({ filter: raw, select: ["Age"] })) row.Age;

  // A filter inside expand and related is the target table's.
  await c.get(7, { expand: { Invoices: { filter: f.gt("Amount", 1), orderBy: [["Amount", "desc"]] } } });
  // @ts-expect-error a Contacts field in a filter of Invoices rows
  await c.get(7, { expand: { Invoices: { filter: f.eq("First Name", "x") } } });
  const rel = await c.related(7, "Invoices", { filter: f.gt("Amount", 3), select: ["Amount"] });
  const amount: number | null = rel.value[0]!.Amount;
  // @ts-expect-error not selected in related
  rel.value[0]!.ContactID;
  // @ts-expect-error a Contacts field in a filter of related Invoices
  await c.related(7, "Invoices", { filter: f.eq("Age", 3) });
  // @ts-expect-error unknown relation in related
  await c.related(7, "Nope");

  // A filter is typed by what it needs: it fits every table that has those fields, of those kinds.
  const byAge: Filter<{ Age: "number" }> = f.gt("Age", 3);
  const fits: FilterOf<typeof Contacts> = byAge;
  // @ts-expect-error Invoices has no Age
  const fitsNot: FilterOf<typeof Invoices> = byAge;
  const kinds: KindsOf<typeof Notes> = { id: "text", Text: "text", Due: "date", At: "timestamp", Alarm: "time", Created: "timestamp" };
  return [amount, fits, fitsNot, kinds];
}
