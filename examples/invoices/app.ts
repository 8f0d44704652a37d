// The invoices example app: portals, related fields, create with portal rows, optimistic locking, finds, and
// FileMaker scripts run by the emulator (scripts.mjs) on a create and standalone.
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

  await scripts(acme.fieldData.id!);

  await invoices.delete(recordId);
  console.log(`deleted ${created.fieldData.Number} (cascadeDelete on the Lines relationship removes its lines too)`);
} finally {
  await fm.close();
}

/**
 * FileMaker scripts (scripts.mjs, run by the emulator): one on a create, one standalone. The runtime cannot send
 * script keys yet (typed scripts are a later issue), so this part speaks the Data API over plain HTTP, with its own
 * session, as data-api-server.md section 2 describes it.
 */
async function scripts(customerId: number): Promise<void> {
  const base = `${requireEnv("FM_SERVER")}/fmi/data/vLatest/databases/Invoicing`;
  const login = await dataApi(`${base}/sessions`, "POST", {}, {
    Authorization: `Basic ${Buffer.from(`${requireEnv("FM_USERNAME")}:${requireEnv("FM_PASSWORD")}`).toString("base64")}`,
  });
  const auth = { Authorization: `Bearer ${login.token}` };
  const records = `${base}/layouts/${encodeURIComponent("Invoice Detail")}/records`;
  try {
    // A create that runs "Send Invoice" after it (on the new record, its found set): the answer carries its result.
    const created = await dataApi(records, "POST", {
      fieldData: { Number: "INV-2024-004", CustomerID: customerId, Issued: "04/02/2024", Status: "Draft" },
      portalData: { Lines: [{ "InvoiceLines::Description": "Tornado kit", "InvoiceLines::Quantity": 2, "InvoiceLines::Unit Price": 120.25 }] },
      script: "Send Invoice",
      "script.param": "05/02/2024",
    }, auth);
    console.log(`create with a script: record ${created.recordId}, scriptResult "${created.scriptResult}", scriptError ${created.scriptError}`);
    const invoice = (await dataApi(`${records}/${created.recordId}`, "GET", undefined, auth)).data[0];
    console.log(`  the script's edit is in the record: ${invoice.fieldData.Status}, due ${invoice.fieldData.Due}, modId ${invoice.modId}`);

    // The standalone script endpoint: GET .../layouts/{layout}/script/{script}?script.param=...
    const total = await dataApi(`${base}/layouts/${encodeURIComponent("Invoice Detail")}/script/${encodeURIComponent("Invoice Total")}?script.param=${created.recordId}`, "GET", undefined, auth);
    console.log(`standalone "Invoice Total": ${total.scriptResult} (scriptError ${total.scriptError})`);
    const failing = await dataApi(`${base}/layouts/${encodeURIComponent("Invoice Detail")}/script/${encodeURIComponent("Export PDF")}`, "GET", undefined, auth);
    console.log(`a script that fails still answers code 0: scriptError ${failing.scriptError}`);

    await dataApi(`${records}/${created.recordId}`, "DELETE", undefined, auth);
  } finally {
    await dataApi(`${base}/sessions/${login.token}`, "DELETE");
  }
}

/** One Data API call over fetch; resolves to `response`, throws on a code other than "0". */
async function dataApi(url: string, method: string, body?: object, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body ? { "Content-Type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const envelope = (await res.json()) as { response: any; messages: { code: string; message: string }[] };
  const { code, message } = envelope.messages[0]!;
  if (code !== "0") throw new Error(`${method} ${url}: HTTP ${res.status}, code ${code}: ${message}`);
  return envelope.response;
}

function describe(record: InvoiceRecord): string {
  return `${record.fieldData.Number} issued ${record.fieldData.Issued} (${record.fieldData.Status})`;
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} (npm run example:invoices sets it for you)`);
  return value;
}
