import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createState, startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import type { LayoutDescriptionInput } from "../../../src/layout/schema.js";
import type { TableDescriptionInput } from "../../../src/table/schema.js";
import { odataMetadata } from "../../../src/emulator/odata/metadata-document.js";
import { parseXml, type XmlElement } from "./metadata-xml-reader.js";
import { auth, expectODataError, get, metadataIds, send as sendTo, type Answer } from "./serve-support.js";

// Table descriptions (`<Name>.table.json`) in the emulator (docs/emulator.md, "Table descriptions"): a described
// table is hosted with or without a layout, `$metadata` states what the description says (ids pinned, computed ids
// skipping them, key, notNull, maxLength, comments, read-only and global fields, relations), and a table both on
// layouts and described is one table whose fields must agree.

const DB = "Office";
const W = 2 ** 32;

const CONTACTS_LAYOUT: LayoutDescriptionInput = {
  database: DB,
  layout: "Contacts Web",
  table: "Contacts",
  fields: [
    { name: "id", type: "text", autoEnter: "uuid", required: true, unique: true },
    { name: "Name", type: "text" },
    { name: "Age", type: "number" },
  ],
  portals: [{ name: "Invoices", table: "Invoices", relation: { parentField: "id", childField: "ContactId" }, fields: [{ name: "Invoices::Amount", type: "number" }] }],
};

// Contacts: on a layout and described, its table id pinned and its first field's id pinned.
const CONTACTS: TableDescriptionInput = {
  database: DB,
  table: "Contacts",
  id: "FMTID:1065089",
  key: "id",
  description: "People",
  fields: [
    { name: "id", type: "text", autoEnter: "uuid", notNull: true, id: `FMFID:${1 * W + 1065089}` },
    { name: "Name", type: "text", maxLength: 40, description: "Full name" },
    { name: "Age", type: "number" },
    { name: "gNote", type: "text", global: true },
  ],
};

// Invoices: on no layout of its own (a portal's table), described with a serial key and a relation back.
const INVOICES: TableDescriptionInput = {
  database: DB,
  table: "Invoices",
  id: "FMTID:1065200",
  key: "InvoiceNo",
  fields: [
    { name: "InvoiceNo", type: "number", autoEnter: "serial", readOnly: true, notNull: true, id: `FMFID:${1 * W + 1065200}` },
    { name: "ContactId", type: "text" },
    { name: "Amount", type: "number" },
  ],
  relations: [{ name: "Contacts", table: "Contacts", many: true }],
};

// Audit: on no layout at all, keyless, no ids: computed ones.
const AUDIT: TableDescriptionInput = {
  database: DB,
  table: "Audit",
  fields: [
    { name: "Event", type: "text", notNull: true },
    { name: "At", type: "timestamp", autoEnter: "creationTimestamp", readOnly: true },
    { name: "Total", type: "number", readOnly: true },
    { name: "Codes", type: "text", repetitions: 2 },
  ],
};

const SEED = {
  accounts: [{ username: "web", password: "secret" }],
  records: {
    Contacts: [{ id: "A1", Name: "Ada", Age: 36 }, { id: "B2", Name: "Bob", Age: 41 }],
    Invoices: [{ ContactId: "A1", Amount: 10 }, { ContactId: "A1", Amount: 20 }, { ContactId: "B2", Amount: 5 }],
    Audit: [{ Event: "seeded" }],
  },
};

const startOptions = { layouts: [CONTACTS_LAYOUT], tables: [CONTACTS, INVOICES, AUDIT], data: SEED, log: () => {} };

function child(element: XmlElement, name: string, attr?: [string, string]): XmlElement {
  const found = element.children.find((c) => c.name === name && (!attr || c.attrs[attr[0]] === attr[1]));
  if (!found) throw new Error(`no <${name}${attr ? ` ${attr[0]}="${attr[1]}"` : ""}> in <${element.name}>`);
  return found;
}
const annotations = (e: XmlElement) => Object.fromEntries(e.children.filter((c) => c.name === "Annotation").map((c) => [c.attrs.Term, c.attrs.String ?? c.attrs.Bool ?? c.attrs.Int ?? "(element)"]));

describe("$metadata from table descriptions", () => {
  let emu: RunningEmulator;
  let S: string;
  beforeAll(async () => {
    emu = await startEmulator(startOptions);
    S = `/fmi/odata/v4/${DB}`;
  });
  afterAll(() => emu.close());

  it("pins the described ids, and computed ones skip every pinned id", async () => {
    const doc = (await get(emu.url, `${S}/$metadata`, { Accept: "application/json" })).body[DB];
    expect(doc.Contacts_["@TableID"]).toBe("FMTID:1065089");
    expect(doc.Invoices_["@TableID"]).toBe("FMTID:1065200");
    expect(doc.Contacts_.id["@FieldID"]).toBe(`FMFID:${W + 1065089}`);
    expect(doc.Invoices_.InvoiceNo["@FieldID"]).toBe(`FMFID:${W + 1065200}`);
    // Audit, with no id, has a computed one (test/emulator/odata/stable-ids.test.ts shows them stepping aside for pins).
    expect(["FMTID:1065089", "FMTID:1065200"]).not.toContain(doc.Audit_["@TableID"]);
    const audit = Number((doc.Audit_["@TableID"] as string).slice("FMTID:".length));
    expect(Number((doc.Audit_.Event["@FieldID"] as string).slice("FMFID:".length)) % W).toBe(audit);
    expect(Number((doc.Contacts_.Name["@FieldID"] as string).slice("FMFID:".length)) % W).toBe(1065089);
    expect(doc.Contacts_.Name["@FieldID"]).not.toBe(doc.Contacts_.id["@FieldID"]);
    // The service document and $metadata list the sets in name order.
    const service = await get(emu.url, S);
    expect(service.body.value.map((e: { name: string }) => e.name)).toEqual(["Audit", "Contacts", "Invoices"]);
    // A URL may name a pinned id.
    expect((await get(emu.url, `${S}/FMTID:1065200`)).body.value).toHaveLength(3);
  });

  it("states the key, notNull, maxLength, comments, read-only, global and repeating fields, and the relations", async () => {
    const doc = (await get(emu.url, `${S}/$metadata`, { Accept: "application/json" })).body[DB];
    expect(doc.Contacts_.$Key).toEqual(["id"]);
    expect(doc.Invoices_.$Key).toEqual(["InvoiceNo"]);
    expect(doc.Audit_).not.toHaveProperty("$Key");
    expect(doc.Contacts_["@FMComment"]).toBe("People");
    expect(doc.Contacts_.Name).toMatchObject({ $Nullable: true, $MaxLength: 40, "@FMComment": "Full name", $Type: "Edm.String" });
    expect(doc.Contacts_.id.$Nullable).toBe(false);
    expect(doc.Contacts_.gNote).toMatchObject({ "@Global": true, "@Org.OData.Core.V1.Permissions": "Org.OData.Core.V1.Permission@Read" });
    expect(doc.Audit_.Event.$Nullable).toBe(false);
    expect(doc.Audit_.At).toMatchObject({ "@Computed": true, $DefaultValue: "CURRENT_TIMESTAMP" });
    expect(doc.Audit_.Total).toMatchObject({ "@Calculation": true, "@Org.OData.Core.V1.Permissions": "Org.OData.Core.V1.Permission@Read" });
    expect(doc.Audit_.Codes["@MaxRepetitions"]).toBe(2);
    expect(doc.Invoices_.InvoiceNo).toMatchObject({ $Nullable: false, "@AutoGenerated": true, "@Computed": true });
    // Invoices' relations are its description's; Contacts, described without relations, keeps its portal's.
    expect(doc.Invoices_.Contacts).toEqual({ $Kind: "NavigationProperty", $Collection: true, $Type: `${DB}.Contacts_` });
    expect(doc.Contacts_.Invoices).toEqual({ $Kind: "NavigationProperty", $Collection: true, $Type: `${DB}.Invoices_` });
    expect(Object.keys(doc.Audit_).filter((k) => doc.Audit_[k]?.$Kind === "NavigationProperty")).toEqual([]);
  });

  it("writes the same in CSDL XML: MaxLength, FMComment on the type and the property", async () => {
    const xml = parseXml((await get(emu.url, `${S}/$metadata`)).text);
    const schema = child(child(xml, "edmx:DataServices"), "Schema");
    const contacts = child(schema, "EntityType", ["Name", "Contacts_"]);
    const nameId = (await metadataIds(emu.url)).field("Contacts", "Name");
    expect(annotations(contacts)).toMatchObject({ "com.filemaker.odata.TableID": "FMTID:1065089", "com.filemaker.odata.FMComment": "People" });
    const name = child(contacts, "Property", ["Name", "Name"]);
    expect(name.attrs).toEqual({ Name: "Name", Type: "Edm.String", MaxLength: "40" });
    expect(annotations(name)).toEqual({ "com.filemaker.odata.FieldID": nameId, "com.filemaker.odata.FMComment": "Full name" });
    expect(child(child(contacts, "Key"), "PropertyRef").attrs.Name).toBe("id");
    expect(child(schema, "EntityType", ["Name", "Invoices_"]).children.filter((c) => c.name === "NavigationProperty").map((c) => c.attrs.Name)).toEqual(["Contacts"]);
    // include-annotations="-*" keeps the ids and drops the comments; MaxLength is a facet, not an annotation.
    const trimmed = (await get(emu.url, `${S}/$metadata`, { Accept: "application/json", Prefer: 'include-annotations="-*"' })).body[DB];
    expect(trimmed.Contacts_).not.toHaveProperty("@FMComment");
    expect(trimmed.Contacts_.Name).toEqual({ "@FieldID": nameId, $Nullable: true, $MaxLength: 40, $Type: "Edm.String" });
  });
});

describe("described tables over OData", () => {
  let emu: RunningEmulator;
  const S = `/fmi/odata/v4/${DB}`;
  beforeAll(async () => {
    emu = await startEmulator(startOptions);
  });
  afterAll(() => emu.close());

  const send = (method: string, path: string, body?: unknown): Promise<Answer> => sendTo(emu.url, method, path, body);

  it("reads and writes a table no layout shows (seeded by table name), and refuses an empty notNull field", async () => {
    const list = await get(emu.url, `${S}/Audit`);
    expect(list.status).toBe(200);
    expect(list.body.value.map((r: { Event: string }) => r.Event)).toEqual(["seeded"]);
    const created = await send("POST", `${S}/Audit`, { Event: "signed in", Codes: ["a", "b"] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ Event: "signed in", Codes: ["a", "b"], Total: null });
    expect(created.body.At).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    // Keyless: addressed by ROWID.
    expect((await send("PATCH", `${S}/Audit(2)`, { Event: "renamed" })).status).toBe(204);
    expect((await get(emu.url, `${S}/Audit(2)`)).body.Event).toBe("renamed");
    expectODataError(await send("POST", `${S}/Audit`, { Codes: ["x"] }), 400, "509");
    expectODataError(await send("PATCH", `${S}/Audit(2)`, { Event: null }), 400, "509");
    expectODataError(await send("POST", `${S}/Audit`, { Event: "x", Total: 3 }), 400, "201");
    expect((await get(emu.url, `${S}/Audit/$count`)).text).toBe("2");
  });

  it("refuses text longer than a described maxLength (511), counting characters, not UTF-16 units", async () => {
    const error = expectODataError(await send("POST", `${S}/Contacts`, { Name: "x".repeat(41) }), 400, "511");
    expect(error.message).toBe('(511): Value in field exceeds maximum field size ("Name" holds at most 40 characters)');
    expect((await send("POST", `${S}/Contacts`, { Name: "😀".repeat(40) })).status).toBe(201);
    expectODataError(await send("PATCH", `${S}/Contacts('A1')`, { Name: "y".repeat(41) }), 400, "511");
    expect((await get(emu.url, `${S}/Contacts('A1')`)).body.Name).toBe("Ada");
  });

  it("keys a described table by its description's key, and joins a described relation by the layouts' portal", async () => {
    const invoice = await get(emu.url, `${S}/Invoices(2)`);
    expect(invoice.body).toMatchObject({ InvoiceNo: 2, ContactId: "A1", Amount: 20 });
    expect(invoice.body["@id"]).toMatch(/\/Invoices\(2\)$/);
    const contacts = await get(emu.url, `${S}/Invoices(3)/Contacts`);
    expect(contacts.body.value.map((c: { Name: string }) => c.Name)).toEqual(["Bob"]);
    const expanded = await get(emu.url, `${S}/Contacts('A1')?$expand=Invoices($select=Amount)`);
    expect(expanded.body.Invoices.map((i: { Amount: number }) => i.Amount)).toEqual([10, 20]);
    const filtered = await get(emu.url, `${S}/Invoices?$filter=Contacts/Name eq 'Ada'&$select=InvoiceNo`);
    expect(filtered.body.value.map((i: { InvoiceNo: number }) => i.InvoiceNo)).toEqual([1, 2]);
  });

  it("is one table with the layout's: a record created through OData is on the Data API's layout and portal", async () => {
    const created = await send("POST", `${S}/Contacts`, { Name: "Cy", Age: 7 });
    expect(created.status).toBe(201);
    expect((await send("POST", `${S}/Invoices`, { ContactId: created.body.id, Amount: 99 })).body.InvoiceNo).toBe(4);
    const login = await fetch(`${emu.url}/fmi/data/vLatest/databases/${DB}/sessions`, { method: "POST", headers: { Authorization: auth(), "Content-Type": "application/json" }, body: "{}" });
    const token = ((await login.json()) as { response: { token: string } }).response.token;
    const found = await fetch(`${emu.url}/fmi/data/vLatest/databases/${DB}/layouts/Contacts%20Web/_find`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ query: [{ Name: "==Cy" }] }),
    });
    const record = ((await found.json()) as { response: { data: { fieldData: Record<string, unknown>; portalData: { Invoices: Record<string, unknown>[] } }[] } }).response.data[0]!;
    expect(record.fieldData).toMatchObject({ id: created.body.id, Age: 7 });
    expect(record.portalData.Invoices.map((r) => r["Invoices::Amount"])).toEqual([99]);
  });
});

describe("table descriptions refused at start", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fmgen-tables-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const start = (tables: TableDescriptionInput[], layouts: LayoutDescriptionInput[] = [CONTACTS_LAYOUT]) => createState({ layouts, tables, log: () => {} });

  it("names both files when a field's type or repetitions disagree with a layout's", async () => {
    const layoutFile = join(dir, "Contacts.layout.json");
    const tableFile = join(dir, "Contacts.table.json");
    await writeFile(layoutFile, JSON.stringify(CONTACTS_LAYOUT));
    await writeFile(tableFile, JSON.stringify({ ...CONTACTS, fields: CONTACTS.fields.map((f) => (f.name === "Age" ? { ...f, type: "text" } : f)) }));
    await expect(createState({ layouts: [layoutFile], tables: [dir], log: () => {} })).rejects.toThrowError(
      `field "Age" of table "Contacts" is number x1 in ${layoutFile} but text x1 in ${tableFile}`,
    );
    await expect(start([CONTACTS, INVOICES, { ...AUDIT, fields: [{ name: "Codes", type: "text" }] }], [{ database: DB, layout: "A", table: "Audit", fields: [{ name: "Codes", type: "text", repetitions: 2 }] }, CONTACTS_LAYOUT])).rejects.toThrowError(
      'field "Codes" of table "Audit" is text x2 in layouts[0] but text x1 in tables[2]',
    );
  });

  it("refuses a description that leaves out a field a layout shows", async () => {
    await expect(start([{ ...CONTACTS, fields: CONTACTS.fields.filter((f) => f.name !== "Age") }, INVOICES])).rejects.toThrowError(
      "field \"Age\" of table \"Contacts\" is in layouts[0] but not in its table description tables[0], which must list every field of the table",
    );
    // The portal's relation needs Invoices::ContactId, which the layouts declare implicitly.
    await expect(start([CONTACTS, { ...INVOICES, fields: INVOICES.fields.filter((f) => f.name !== "ContactId") }])).rejects.toThrowError(/field "ContactId" of table "Invoices" is in .*portal "Invoices" but not in its table description/);
  });

  it("serves a relation with no match fields, joining nothing, and logs the line that joins it", async () => {
    // As `fmgen pull --odata` writes it: $metadata states no match fields.
    const lines: string[] = [];
    const audit = { ...AUDIT, relations: [{ name: "Contacts", table: "Contacts", many: true }] };
    const state = await createState({ layouts: [CONTACTS_LAYOUT], tables: [audit], data: { records: { Audit: [{ Event: "Ada" }] } }, log: (l) => lines.push(l) });
    expect(lines).toEqual([
      'tables[0]: relations[0]: the relation to "Contacts" has no match fields (no "match", no layout\'s portal relation between "Audit" and "Contacts", no "match" on a relation back): ' +
        'its navigation reads no related rows; add "match": { "field": "<a field of Audit>", "relatedField": "<the field of Contacts it equals>" } to join them',
    ]);
    const doc = JSON.parse(odataMetadata(state.databases.get(DB)!, { format: "json" }).body)[DB];
    expect(doc.Audit_.Contacts).toEqual({ $Kind: "NavigationProperty", $Collection: true, $Type: `${DB}.Contacts_` });
    const emu = await startEmulator({ layouts: [CONTACTS_LAYOUT], tables: [audit], data: { ...SEED, records: { ...SEED.records, Audit: [{ Event: "Ada" }] } }, log: () => {} });
    try {
      const read = await get(emu.url, `/fmi/odata/v4/${DB}/Audit?$expand=Contacts`);
      expect(read.status).toBe(200);
      expect(read.body.value.map((r: { Contacts: unknown[] }) => r.Contacts)).toEqual([[]]);
    } finally {
      await emu.close();
    }
  });

  it("joins a relation by its match fields, both ways, and refuses match fields the tables do not have", async () => {
    const audit = { ...AUDIT, relations: [{ name: "Contacts", table: "Contacts", many: true, match: { field: "Event", relatedField: "Name" } }] };
    const contacts = { ...CONTACTS, relations: [{ name: "Invoices", table: "Invoices", many: true }, { name: "Audit", table: "Audit", many: true }] };
    const lines: string[] = [];
    const emu = await startEmulator({ layouts: [CONTACTS_LAYOUT], tables: [contacts, INVOICES, audit], data: { ...SEED, records: { ...SEED.records, Audit: [{ Event: "Ada" }, { Event: "Ada" }, { Event: "Eve" }] } }, log: (l) => lines.push(l) });
    try {
      expect(lines).toEqual([]);
      const answer = await get(emu.url, `/fmi/odata/v4/${DB}/Audit?$expand=Contacts($select=Name)&$select=Event`);
      expect(answer.status, answer.text).toBe(200);
      const audits = answer.body.value;
      expect(audits.map((r: { Event: string; Contacts: { Name: string }[] }) => [r.Event, r.Contacts.map((c) => c.Name)])).toEqual([
        ["Ada", ["Ada"]],
        ["Ada", ["Ada"]],
        ["Eve", []],
      ]);
      // The other way, by Contacts' relation back, which names no match fields of its own.
      const ada = (await get(emu.url, `/fmi/odata/v4/${DB}/Contacts('A1')?$expand=Audit`)).body;
      expect(ada.Audit).toHaveLength(2);
    } finally {
      await emu.close();
    }
    await expect(start([{ ...audit, relations: [{ ...audit.relations[0]!, match: { field: "Nope", relatedField: "Name" } }] }])).rejects.toThrowError('tables[0]: relations[0].match.field: "Nope" is no field of table "Audit"');
    await expect(start([{ ...audit, relations: [{ ...audit.relations[0]!, match: { field: "Event", relatedField: "Nope" } }] }])).rejects.toThrowError('tables[0]: relations[0].match.relatedField: "Nope" is no field of table "Contacts"');
  });

  it("refuses relations it does not emulate, naming the relation", async () => {
    await expect(start([{ ...AUDIT, relations: [{ name: "Nowhere", table: "Nowhere", many: true }] }])).rejects.toThrowError(/relations\[0\]\.table: names no table of database "Office": "Nowhere"/);
    await expect(start([{ ...INVOICES, relations: [{ name: "People", table: "Contacts", many: true }] }])).rejects.toThrowError(/relations\[0\]: the emulator names a navigation after the table occurrence it reaches/);
    await expect(start([{ ...INVOICES, relations: [{ name: "Contacts", table: "Contacts", many: false }] }])).rejects.toThrowError(/relations\[0\]: the emulator's navigations are all collections/);
  });

  it("needs a layout or a table, and serves a database of tables alone", async () => {
    await expect(createState({ layouts: [], log: () => {} })).rejects.toThrowError("the emulator needs at least one layout or table description");
    const state = await createState({ tables: [AUDIT], data: { records: { Audit: [{ Event: "x" }] } }, log: () => {} });
    expect(state.databases.get(DB)!.tables.get("Audit")!.records.size).toBe(1);
    await expect(createState({ tables: [AUDIT], data: { records: { Nope: [{ Event: "x" }] } }, log: () => {} })).rejects.toThrowError(/no layout or table description has a table named "Nope"/);
  });
});
