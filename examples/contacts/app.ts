// The contacts example app: typed reads and writes through the generated `Contact` client.
// Run it with `npm run example` (it starts the emulator and sets FM_SERVER for you).
import { createClient, FileMakerError } from "@fmgen/runtime";
import { Contact, Contacts, Invoice, type ContactRecord } from "./generated/index.js";

const fm = createClient({
  server: requireEnv("FM_SERVER"),
  database: Contacts, // the generated database module (or its name, "Contacts")
  auth: { username: requireEnv("FM_USERNAME"), password: requireEnv("FM_PASSWORD") },
});
const contacts = fm.layout(Contact);

try {
  const page = await contacts.list({ limit: 10, sort: [{ fieldName: "Last Name", sortOrder: "ascend" }] });
  console.log(`${page.dataInfo.foundCount} contacts: ${page.data.map(fullName).join(", ")}`);

  // Dates are ISO strings in TypeScript; repetitions are tuples; value lists are literal unions.
  const { recordId, modId } = await contacts.create({
    fieldData: {
      "First Name": "Margaret",
      "Last Name": "Hamilton",
      Email: "margaret@example.com",
      Status: "Active",
      Birthday: "1936-08-17",
      "Wake Up": "05:45:00",
      Phone: ["555-0142", undefined, "555-0143"],
    },
  });
  console.log(`created record ${recordId}`);

  const { modId: edited } = await contacts.edit(recordId, { fieldData: { Status: "Inactive" }, modId });
  const photo = new Blob([Uint8Array.from([0x89, 0x50, 0x4e, 0x47])], { type: "image/png" });
  await contacts.upload(recordId, "Photo", photo, { filename: "margaret.png" });
  console.log(`edited (modId ${modId} -> ${edited}) and uploaded a photo`);

  const margaret = await contacts.get(recordId);
  const { Birthday, "Wake Up": wakeUp, Created, Phone, Photo } = margaret.fieldData;
  console.log(`born ${Birthday}, wakes at ${wakeUp}, created ${Created}, phones ${Phone.filter(Boolean).join(" / ")}, photo at ${Photo}`);

  // A plain value means "equals exactly": the "*" below is a literal star, not a wildcard.
  const literal = await contacts.find({ query: [{ "First Name": "Ada*" }] });
  console.log(`contacts named exactly "Ada*": ${literal.data.length}`);

  const active = await contacts.find({ query: [{ Status: "Active" }], sort: [{ fieldName: "Birthday", sortOrder: "descend" }] });
  console.log(`active, youngest first: ${active.data.map(fullName).join(", ")}`);

  // Only the portals asked for, with a range of rows each and their counts; duplicate copies a record.
  const ada = await contacts.findOne({ query: [{ Email: "ada@example.com" }], portals: { Invoices: { limit: 1 } } });
  const [firstInvoice] = ada.portalData.Invoices;
  console.log(`${fullName(ada)}: ${ada.portalInfo.Invoices.foundCount} invoices, the first for ${firstInvoice?.["Invoices::Amount"]}`);
  const invoices = fm.layout(Invoice);
  const copy = await invoices.duplicate(firstInvoice!.recordId);
  const again = await contacts.get(ada.recordId, { portals: { Invoices: { offset: 3, limit: 1 } } });
  console.log(`duplicated it as record ${copy.recordId}: now ${again.portalInfo.Invoices.foundCount} invoices, the third for ${again.portalData.Invoices[0]?.["Invoices::Amount"]}`);
  await invoices.delete(copy.recordId);

  let count = 0;
  for await (const record of contacts.listAll({ pageSize: 2 })) if (record.fieldData.Status === "Inactive") count++;
  console.log(`inactive contacts, streamed two per page: ${count}`);

  await contacts.delete(recordId);
  await contacts.get(recordId).catch((error: unknown) => {
    if (error instanceof FileMakerError) console.log(`after delete, get answers FileMaker code ${error.code} (${error.name})`);
    else throw error;
  });
} finally {
  await fm.close();
}

function fullName(record: ContactRecord): string {
  return `${record.fieldData["First Name"]} ${record.fieldData["Last Name"]}`;
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} (npm run example sets it for you)`);
  return value;
}
