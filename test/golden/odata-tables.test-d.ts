/**
 * The generated table modules of the odata golden set, used with the OData client's types (checked by
 * `npx tsc -p tsconfig.json --noEmit` and, under the strictest flags, by test/golden/tsc.test.ts; never run): select
 * narrows the row, expand adds the related table's typed rows (both ways, and a table related to itself), the named
 * shapes are what the client takes, and writes refuse read-only fields, containers and a missing required field.
 */
import { f, type ODataClient } from "@fmgen/runtime/odata";
import {
  _2024TortureTable,
  ContactsTable,
  Invoices,
  type _2024TortureTableInsert,
  type ContactsTableFieldName,
  type ContactsTableFilter,
  type ContactsTableInsert,
  type ContactsTableRow,
  type ContactsTableUpdate,
  type InvoicesRow,
} from "./generated/odata/index.js";

declare const od: ODataClient<"Contacts">;
declare const torture: ODataClient<'Torture "DB"'>;

export async function usesTheGeneratedTables(): Promise<unknown[]> {
  const contacts = od.table(ContactsTable);
  const listed = await contacts.list({ select: ["First Name", "Email"], filter: f.and(f.eq("First Name", "Ada"), f.contains("Email", "@")), orderBy: [["Birthday", "desc"]] });
  const name: string = listed.value[0]!["First Name"];
  // @ts-expect-error not selected
  listed.value[0]!.Birthday;

  // Expand both ways: contacts -> invoices -> contacts.
  const one = await contacts.get(7, { expand: { Invoices: { select: ["Amount"], expand: { Contacts: { select: ["Email"] } } } } });
  const amount: number | null = one.Invoices[0]!.Amount;
  const email: string = one.Invoices[0]!.Contacts[0]!.Email;
  // @ts-expect-error not selected in the expansion
  one.Invoices[0]!.Due;
  // @ts-expect-error no such relation
  await contacts.get(7, { expand: { Payments: true } });

  const insert: ContactsTableInsert = { "First Name": "Ada", Birthday: "1815-12-10" };
  const created: ContactsTableRow = await contacts.create(insert);
  // @ts-expect-error a read-only field in create
  await contacts.create({ "First Name": "Ada", Created: "2024-01-01T00:00:00" });
  // @ts-expect-error a container in create (written by upload)
  await contacts.create({ "First Name": "Ada", Photo: "x" });
  // @ts-expect-error the not-empty field without auto-enter is required
  await contacts.create({ Email: "a@b.c" });
  const update: ContactsTableUpdate = { Email: null };
  await contacts.update(7, update);
  // @ts-expect-error a read-only field in update
  await contacts.update(7, { id: 8 });
  const field: ContactsTableFieldName = "First Name";
  // @ts-expect-error not a field of the table
  const wrong: ContactsTableFieldName = "Nope";
  const filter: ContactsTableFilter = f.startsWith("Email", "ada");
  // @ts-expect-error a text function on a number field
  const badFilter: ContactsTableFilter = f.contains("id", "1");
  await contacts.upload(7, "Photo", new Uint8Array());

  const invoices = od.table(Invoices);
  const rows: InvoicesRow[] = (await invoices.list({ filter: f.gt("Amount", 10) })).value;
  // @ts-expect-error a table of another database
  od.table(_2024TortureTable);

  // A table related to itself (many: false): one row or null.
  const referred = await contacts.get(7, { select: ["Email"], expand: { "Referred By": { select: ["First Name"] } } });
  const referrer: string | undefined = referred["Referred By"]?.["First Name"];

  // Hostile names: keywords, __proto__, quotes, repetitions. (Object literals for its Insert, Update or expand do not
  // compile: TypeScript compares a literal's inherited toString/constructor/valueOf with the optional fields and the
  // relation of those names, a limit of the runtime's derived shapes, reported with this work.)
  const t = torture.table(_2024TortureTable);
  const hostile = await t.get(1, { select: ["__proto__", "constructor", "class", 'Quote"d \'both\'', "Tags", "Many"] });
  const proto: string = hostile.__proto__;
  const ctor: string = hostile.constructor;
  const tags: [string, string, string] = hostile.Tags;
  const many: (number | null)[] = hostile.Many;
  // @ts-expect-error not selected
  hostile.Born;
  const keys: (keyof _2024TortureTableInsert)[] = ["First Name", "Born", "default"];
  // @ts-expect-error a global is never written through OData
  const global: keyof _2024TortureTableInsert = "gUser";
  return [name, amount, email, created, field, wrong, filter, badFilter, rows, referrer, proto, ctor, tags, many, keys, global];
}
