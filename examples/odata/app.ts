// A small app on FileMaker's OData API through the generated table modules: it filters, selects, expands, runs one
// atomic batch, runs a script and round-trips a container. `npm run example:odata` runs it against the emulator.
import { createODataClient, f } from "@fmgen/runtime/odata";
import { Contacts, Invoices } from "./generated/index.js";

const od = createODataClient({
  server: process.env.FM_SERVER ?? "http://127.0.0.1:8989",
  database: "Office",
  auth: { username: process.env.FM_USERNAME!, password: process.env.FM_PASSWORD! },
});
const contacts = od.table(Contacts);

try {
  // Filter and select: the row type has only the selected fields. A user's text is a value, never syntax.
  const typed = "@example.com";
  const active = await contacts.list({
    select: ["First Name", "Email", "Birthday"],
    filter: f.and(f.eq("Status", "Active"), f.endsWith("Email", typed)),
    orderBy: [["Birthday", "asc"]],
    count: true,
  });
  console.log(`${active.count} active contacts at ${typed}:`);
  for (const row of active.value) console.log(`  ${row["First Name"]} <${row.Email}>, born ${row.Birthday}`);

  // Expand: one contact with its invoices, typed as the Invoices table's rows.
  const ada = await contacts.get(1, { select: ["First Name", "Phone"], expand: { Invoices: { select: ["Amount", "Issued"], orderBy: ["Issued"] } } });
  const total = ada.Invoices.reduce((sum, invoice) => sum + (invoice.Amount ?? 0), 0);
  console.log(`${ada["First Name"]} (phones ${ada.Phone.join(", ")}) has ${ada.Invoices.length} invoices, ${total} in all`);

  // One atomic changeset: a new contact and an invoice for Ada; both apply, or neither does.
  const [katherine, invoice] = await od.batch((b) => [
    b.table(Contacts).create({ "First Name": "Katherine", "Last Name": "Johnson", Status: "Active", Birthday: "1918-08-26" }),
    b.table(Invoices).create({ ContactID: 1, Amount: 99.95, Issued: "2026-04-01" }),
  ]);
  console.log(`batch: contact #${katherine.id} created ${katherine.Created}; invoice #${invoice.InvoiceNo} for ${invoice.Amount}`);

  // A script, with a parameter; its failure would be data (code), not an exception.
  const counted = await od.runScript("Count Invoices", { param: "1" });
  console.log(`script "Count Invoices": code ${counted.code}, result ${counted.result}`);

  // A container: upload a PNG into the new contact's Photo, then download it again.
  const png = Uint8Array.from(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64"));
  await contacts.upload(katherine.id!, "Photo", png, { filename: "katherine.png" });
  const photo = await contacts.download(katherine.id!, "Photo");
  const back = photo ? await photo.bytes() : new Uint8Array();
  console.log(`container: ${photo?.name} (${photo?.type}), ${back.length} bytes, ${Buffer.from(back).equals(png) ? "the same bytes" : "DIFFERENT bytes"}`);
  if (!photo || !Buffer.from(back).equals(png)) process.exitCode = 1;

  // Deletes by filter, and one row by its key.
  const removed = await contacts.deleteWhere(f.eq("First Name", "Katherine"));
  await od.table(Invoices).delete(invoice.InvoiceNo!);
  console.log(`removed ${removed} contact(s) and invoice #${invoice.InvoiceNo}`);
} finally {
  await od.close();
}
