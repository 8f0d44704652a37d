// The invoices example app: portals and their ranges, related fields, a calculation, create with portal rows, FileMaker scripts
// (run by the emulator from scripts.mjs) on a create and standalone, a global field, optimistic locking, finds with
// a response layout. Run it with `npm run example:invoices` (it starts the emulator and sets FM_SERVER for you).
import { assertScripts, createClient, ModIdMismatchError, ScriptError } from "@fmgen/runtime";
import { Customer, Invoice, InvoiceSummary, Invoicing, type InvoiceSummaryRecord } from "./generated/index.js";

const fm = createClient({
  server: requireEnv("FM_SERVER"),
  // The generated database module: a script name or global field the file lacks fails to compile.
  database: Invoicing,
  auth: { username: requireEnv("FM_USERNAME"), password: requireEnv("FM_PASSWORD") },
});
// Two layouts, one session: the client logs in once for both.
const invoices = fm.layout(Invoice);
const customers = fm.layout(Customer);

try {
  const acme = await customers.findOne({ query: [{ Name: "Acme Corporation" }] });
  console.log(`${acme.fieldData.Name}: invoices ${acme.portalData.Invoices.map((i) => `${i["Invoices::Number"]} (${i["Invoices::Status"]})`).join(", ")}`);

  // An exact key: a 58-digit Get ( UUIDNumber ), read and written as decimal text. A JavaScript number would round it
  // to Globex's key, one apart in the last digit; the find by the text finds Acme alone.
  const ledgerId = acme.fieldData["Ledger ID"]!;
  const byLedger = await customers.find({ query: [{ "Ledger ID": ledgerId }] });
  console.log(`Ledger ID ${ledgerId} (${ledgerId.length} digits) finds ${byLedger.data.map((c) => c.fieldData.Name).join(", ")}`);

  // Create an invoice with its lines in one call (portal rows are created through the relationship), and run the
  // file's "Send Invoice" script after it, on the new record: it marks the invoice sent, due on its parameter.
  const created = await invoices.create(
    {
      fieldData: { Number: "INV-2024-003", CustomerID: acme.fieldData.id!, Issued: "2024-03-31", Status: "Draft" },
      portalData: {
        Lines: [
          { "InvoiceLines::Description": "Giant magnet", "InvoiceLines::Quantity": 1, "InvoiceLines::Unit Price": 999.99 },
          { "InvoiceLines::Description": "Bird seed", "InvoiceLines::Quantity": 12, "InvoiceLines::Unit Price": 4.5 },
        ],
      },
    },
    { script: { name: "Send Invoice", param: "04/30/2024" } },
  );
  const { recordId } = created;
  console.log(`created record ${recordId}; "Send Invoice" answered "${created.scripts.after?.result}" (error ${created.scripts.after?.error})`);
  const invoice = await invoices.get(recordId);
  // Total is a calculation and Customers::Name a related field: the emulator computes both on every read.
  console.log(
    `${invoice.fieldData.Number} for ${invoice.fieldData["Customers::Name"]} is ${invoice.fieldData.Status}, due ${invoice.fieldData.Due}, ` +
      `with ${invoice.portalData.Lines.length} lines, total ${invoice.fieldData.Total?.toFixed(2)}`,
  );

  // A portal, a page of rows at a time (here one row a request), up to its found count.
  for await (const line of invoices.portalRows(recordId, "Lines", { pageSize: 1 })) {
    console.log(`  line ${line.recordId}: ${line["InvoiceLines::Quantity"]} x ${line["InvoiceLines::Description"]} at ${line["InvoiceLines::Unit Price"]}`);
  }
  // Only the portals asked for, with a range of rows each and their counts.
  const first = await customers.get(acme.recordId, { portals: { Invoices: { limit: 1 } } });
  console.log(`${first.fieldData.Name}'s first invoice of ${first.portalInfo.Invoices.foundCount}: ${first.portalData.Invoices[0]?.["Invoices::Number"]}`);

  // A global field holds one value per session; the "Invoice Total" script reads it. A script run alone answers
  // { result, error }; a script that fails is data (its FileMaker error), unless assertScripts makes it an exception.
  await fm.setGlobals({ "Invoices::gCurrency": "EUR" });
  const total = await fm.runScript(Invoice, "Invoice Total", { param: recordId });
  console.log(`standalone "Invoice Total": ${total.result} (error ${total.error})`);
  const failed = await fm.runScript(Invoice, "Export PDF");
  console.log(`"Export PDF" failed, as data: error ${failed.error}`);
  try {
    assertScripts(await invoices.get(recordId, { script: { name: "Export PDF" } }));
  } catch (error) {
    if (!(error instanceof ScriptError)) throw error;
    console.log(`assertScripts threw: ${error.message}`);
  }

  // Optimistic locking: an edit carrying a stale modId is refused with a typed error.
  const { modId } = invoice;
  const { modId: current } = await invoices.edit(recordId, { fieldData: { Notes: "Deliver by roadrunner" }, modId });
  try {
    await invoices.edit(recordId, { fieldData: { Status: "Void" }, modId });
  } catch (error) {
    if (!(error instanceof ModIdMismatchError)) throw error;
    console.log(`stale edit refused (code ${error.code}); current modId is ${current}`);
  }

  // Finds: requests are ORed, an omit request removes; dates are ISO strings in TypeScript. The find runs on
  // "Invoice Detail" and answers in "Invoice Summary", a smaller layout of the same table.
  const open = await invoices.find({
    query: [{ Status: "Sent" }, { Status: "Paid" }, { "Customers::Name": "Globex", omit: true }],
    sort: [{ fieldName: "Issued", sortOrder: "descend" }],
    response: InvoiceSummary,
  });
  console.log(`sent or paid, not for Globex, newest first: ${open.data.map(summary).join("; ")}`);

  const none = await invoices.find({ query: [{ Number: "INV-1999-999" }] });
  console.log(`a find with no match is an empty result: ${none.data.length} records`);

  await invoices.delete(recordId);
  console.log(`deleted ${invoice.fieldData.Number} (cascadeDelete on the Lines relationship removes its lines too)`);
} finally {
  await fm.close();
}

function summary({ fieldData: { Number, Status, Total } }: InvoiceSummaryRecord): string {
  return `${Number} (${Status}${Total === null ? "" : `, ${Total.toFixed(2)}`})`;
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} (npm run example:invoices sets it for you)`);
  return value;
}
