import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { LayoutDescriptionInput } from "../../src/layout/schema.js";
import type { TableDescriptionInput } from "../../src/table/schema.js";
import { PULL_PASSWORD, PULL_USER, tempDir } from "./helpers.js";

// Table descriptions the emulator is given, for `fmgen pull --odata` to read back from its `$metadata`: every
// annotation a description holds (ids, key, notNull, maxLength, comments, read-only, global, repetitions, each
// auto-enter kind, relations both ways), names that are hard to write in XML and JSON, and a keyless table.

export const DB = "Office";
const W = 2 ** 32;
export const fmfid = (field: number, table: number) => `FMFID:${field * W + table}`;

export const CONTACTS_LAYOUT: LayoutDescriptionInput = {
  database: DB,
  layout: "Contacts Web",
  table: "Contacts",
  fields: [
    { name: "id", type: "text", autoEnter: "uuid", required: true, unique: true },
    { name: "Name", type: "text" },
  ],
  portals: [{ name: "Invoices", table: "Invoices", relation: { parentField: "id", childField: "ContactId" }, fields: [{ name: "Invoices::Amount", type: "number" }] }],
};

export const CONTACTS: TableDescriptionInput = {
  database: DB,
  table: "Contacts",
  description: "People & <firms>",
  id: "FMTID:1065089",
  key: "id",
  fields: [
    { name: "id", type: "text", notNull: true, autoEnter: "uuid", id: fmfid(1, 1065089) },
    { name: "Name", type: "text", maxLength: 40, id: fmfid(2, 1065089), description: 'Full name, "quoted"\n2nd line' },
    { name: "Age", type: "number", id: fmfid(3, 1065089) },
    { name: "gNote", type: "text", readOnly: true, global: true, id: fmfid(4, 1065089) },
    { name: "Phones", type: "text", repetitions: 3, id: fmfid(5, 1065089) },
    { name: "Photo", type: "container", id: fmfid(6, 1065089) },
    { name: "Born", type: "date", id: fmfid(7, 1065089) },
    { name: "Alarm", type: "time", id: fmfid(8, 1065089) },
    { name: "Changed", type: "timestamp", readOnly: true, autoEnter: "modificationTimestamp", id: fmfid(9, 1065089) },
    { name: "Label", type: "text", readOnly: true, id: fmfid(10, 1065089) },
  ],
  relations: [{ name: "Invoices", table: "Invoices", many: true }],
};

export const INVOICES: TableDescriptionInput = {
  database: DB,
  table: "Invoices",
  id: "FMTID:1065200",
  key: "InvoiceNo",
  fields: [
    { name: "InvoiceNo", type: "number", readOnly: true, notNull: true, autoEnter: "serial", id: fmfid(1, 1065200) },
    { name: "ContactId", type: "text", id: fmfid(2, 1065200) },
    { name: "Amount", type: "number", id: fmfid(3, 1065200) },
    { name: "Created", type: "timestamp", autoEnter: "creationTimestamp", id: fmfid(4, 1065200) },
  ],
  relations: [{ name: "Contacts", table: "Contacts", many: true }],
};

/** Names that need escaping in XML attributes and care in JSON and JavaScript objects. */
export const ODD: TableDescriptionInput = {
  database: DB,
  table: "Ödd \"Names\" & <Co>",
  id: "FMTID:1065300",
  fields: [
    { name: "__proto__", type: "text", id: fmfid(1, 1065300) },
    { name: "constructor", type: "number", id: fmfid(2, 1065300) },
    { name: "Say \"hi\" & 'bye' <now>", type: "text", id: fmfid(3, 1065300) },
    { name: "日本語 \u{1F600}", type: "date", id: fmfid(4, 1065300) },
    { name: "tab\there", type: "text", id: fmfid(5, 1065300) },
  ],
};

export const TABLES = [CONTACTS, INVOICES, ODD];

/** A project in a temp folder: fmgen.config.json (`tables`, optionally `layouts`), a `.env` with the pull account. */
export async function tableProject(config: Record<string, unknown> = {}): Promise<string> {
  const root = await tempDir("pull-odata");
  await writeFile(join(root, "fmgen.config.json"), JSON.stringify({ database: DB, tables: ["tables"], outDir: "generated", ...config }));
  await writeFile(join(root, ".env"), `FM_USERNAME=${PULL_USER}\nFM_PASSWORD="${PULL_PASSWORD}"\n`);
  await mkdir(join(root, "tables"), { recursive: true });
  return root;
}

export const pullEnv = { FM_USERNAME: PULL_USER, FM_PASSWORD: PULL_PASSWORD };
