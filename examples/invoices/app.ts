// The invoices example app: portals, related fields, create with portal rows, optimistic locking, finds.
// Run it with `npm run example:invoices` (it starts the emulator and sets FM_SERVER for you).
import { createClient, ModIdMismatchError } from "@fmgen/runtime";
import { Customer, Invoice, type InvoiceRecord } from "./generated/index.js";

const fm = createClient({
  server: requireEnv("FM_SERVER"),
  database: "Invoicing",
  auth: { username: requireEnv("FM_USERNAME"), password: requireEnv("FM_PASSWORD") },
});
// Two layouts, one session: the client logs in once for both.
const invoices = fm.layout(Invoice);
const customers = fm.layout(Customer);

try {
  const acme = await customers.findOne({ query: [{ Name: "Acme Corporation" }] });
  console.log(`${acme.fieldData.Name}: invoices ${acme.portalData.Invoices.map((i) => `${i["Invoices::Number"]} (${i["Invoices::Status"]})`).join(", ")}`);

  // Create an invoice with its lines in one call: portal rows are created through the relationship.
  const { recordId, modId } = await invoices.create({
    fieldData: { Number: "INV-2024-003", CustomerID: acme.fieldData.id!, Issued: "2024-03-31", Status: "Draft" },
    portalData: {
      Lines: [
        { "InvoiceLines::Description": "Giant magnet", "InvoiceLines::Quantity": 1, "InvoiceLines::Unit Price": 999.99 },
        { "InvoiceLines::Description": "Bird seed", "InvoiceLines::Quantity": 12, "InvoiceLines::Unit Price": 4.5 },
      ],
    },
  });
  const created = await invoices.get(recordId);
  console.log(`created ${created.fieldData.Number} with ${created.portalData.Lines.length} lines:`);
  for (const line of created.portalData.Lines) {
    console.log(`  line ${line.recordId}: ${line["InvoiceLines::Quantity"]} x ${line["InvoiceLines::Description"]} at ${line["InvoiceLines::Unit Price"]}`);
  }

  // Optimistic locking: an edit carrying a stale modId is refused with a typed error.
  const { modId: sent } = await invoices.edit(recordId, { fieldData: { Status: "Sent", Due: "2024-04-30" }, modId });
  try {
    await invoices.edit(recordId, { fieldData: { Status: "Void" }, modId });
  } catch (error) {
    if (!(error instanceof ModIdMismatchError)) throw error;
    console.log(`stale edit refused (code ${error.code}); current modId is ${sent}`);
  }

  // Finds: requests are ORed, an omit request removes; dates are ISO strings in TypeScript.
  const open = await invoices.find({
    query: [{ Status: "Sent" }, { Status: "Draft" }, { "Customers::Name": "Globex", omit: true }],
    sort: [{ fieldName: "Issued", sortOrder: "descend" }],
  });
  console.log(`open invoices not for Globex: ${open.data.map(describe).join("; ")}`);

  const none = await invoices.find({ query: [{ Number: "INV-1999-999" }] });
  console.log(`a find with no match is an empty result: ${none.data.length} records`);

  await invoices.delete(recordId);
  console.log(`deleted ${created.fieldData.Number} (cascadeDelete on the Lines relationship removes its lines too)`);
} finally {
  await fm.close();
}

function describe(record: InvoiceRecord): string {
  return `${record.fieldData.Number} issued ${record.fieldData.Issued} (${record.fieldData.Status})`;
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} (npm run example:invoices sets it for you)`);
  return value;
}
