import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { DataApi } from "../../support/data-api-http.js";
import { DB, get, PASSWORD, send as sendTo, startOffice, USER, type Answer } from "./serve-support.js";

// Schema changes through OData over loopback HTTP (section 6, 2.9 `$schemaversion`, 9; docs/emulator.md
// "The OData API", "Schema changes"): each test starts its own small Office file, as the changes are lasting.

let emu: RunningEmulator;
const S = `/fmi/odata/v4/${DB}`;

beforeEach(async () => {
  emu = await startOffice(2);
});
afterEach(() => emu.close());

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => sendTo(emu.url, method, path, body, headers);

const metadata = async () => (await get(emu.url, `${S}/$metadata`, { Accept: "application/json" })).body[DB];
const errorOf = (a: Answer) => ({ status: a.status, code: a.body?.error?.code as string });
/** Every FMTID and FMFID a JSON `$metadata` states. */
const idsIn = (m: Record<string, any>) =>
  Object.values(m).flatMap((t) => (t?.$Kind === "EntityType" ? [t["@TableID"] as string, ...Object.values(t as Record<string, any>).flatMap((p) => (p?.["@FieldID"] ? [p["@FieldID"] as string] : []))] : []));
const W = 2 ** 32;

const COMPANY = {
  tableName: "Aardvark Co",
  fields: [
    { name: "Company ID", type: "int", primary: true },
    { name: "Code", type: "varchar(5)", unique: true },
    { name: "Company Name", type: "VARCHAR(100)", nullable: false },
    { name: "Notes", type: "varchar(2000)", global: true },
    { name: "Signed Contract", type: "blob", externalSecurePath: "Office/" },
    { name: "Scores", type: "NUMERIC[3]" },
    { name: "Created", type: "timestamp", default: "CURRENT_TIMESTAMP" },
    { name: "Day", type: "Date", default: "curdate" },
  ],
};

describe("create a table (POST FileMaker_Tables)", () => {
  it("answers 200 {tableName, fields}; the table is at once an entity set in $metadata and the service document, with a new FMTID", async () => {
    const before = await metadata();
    const a = await send("POST", `${S}/FileMaker_Tables`, COMPANY);
    expect(a.status).toBe(200);
    expect(a.body).toEqual(COMPANY);
    const m = await metadata();
    // Existing tables keep their FMTIDs, though the new one's name sorts first; it takes one no table had.
    expect(m.Contacts_["@TableID"]).toBe(before.Contacts_["@TableID"]);
    expect(m.Notes_["@TableID"]).toBe(before.Notes_["@TableID"]);
    const tableId = m["Aardvark Co_"]["@TableID"] as string;
    expect(idsIn(before)).not.toContain(tableId);
    const tableNo = Number(tableId.slice("FMTID:".length));
    expect(m["@Org.OData.Core.V1.SchemaVersion"]).not.toBe(before["@Org.OData.Core.V1.SchemaVersion"]);
    const t = m["Aardvark Co_"];
    expect(t.$Key).toEqual(["Company ID"]);
    expect(t["Company ID"]).toMatchObject({ $Nullable: false, $Type: "Edm.Decimal" });
    expect(t.Code).toMatchObject({ $Nullable: true, "@Index": true, $Type: "Edm.String" });
    // Each field's FMFID is fieldNo·2^32 + the table's FMTID, no two alike.
    const fieldIds = COMPANY.fields.map((f) => Number((t[f.name]["@FieldID"] as string).slice("FMFID:".length)));
    for (const id of fieldIds) expect(id % W).toBe(tableNo);
    expect(new Set(fieldIds).size).toBe(fieldIds.length);
    expect(t["Company Name"]).toMatchObject({ $Nullable: false, $Type: "Edm.String" });
    expect(t.Notes).toMatchObject({ "@Global": true, "@Org.OData.Core.V1.Permissions": "Org.OData.Core.V1.Permission@Read" });
    expect(t["Signed Contract"].$Type).toBe("Edm.Binary");
    expect(t.Scores).toMatchObject({ "@MaxRepetitions": 3, $Type: "Edm.Decimal" });
    expect(t.Created).toMatchObject({ $DefaultValue: "CURRENT_TIMESTAMP", $Type: "Edm.DateTimeOffset" });
    expect(t.Day).toMatchObject({ $DefaultValue: "CURRENT_DATE", $Type: "Edm.Date" });
    expect(Object.keys(t).filter((k) => !k.startsWith("$") && !k.startsWith("@"))).toEqual(COMPANY.fields.map((f) => f.name));
    const doc = await get(emu.url, S);
    expect(doc.body.value.map((s: { name: string }) => s.name)).toContain("Aardvark Co");
    // The XML form and the one-table form say the same.
    const xml = (await get(emu.url, `${S}/$metadata`)).text;
    expect(xml).toContain('<EntityType Name="Aardvark Co_">');
    expect(xml).toContain(`<Annotation Term="com.filemaker.odata.TableID" String="${tableId}" />`);
    expect(xml).toContain(`<Annotation Term="Org.OData.Core.V1.SchemaVersion" String="${m["@Org.OData.Core.V1.SchemaVersion"]}" />`);
    const one = (await get(emu.url, `${S}/$metadata%23Aardvark%20Co`, { Accept: "application/json" })).body[DB];
    expect(one["Aardvark Co_"]).toEqual(t);
  });

  it("the new table is readable and writable through OData: defaults auto-enter, primary, unique, not-empty and VARCHAR(n) are validated", async () => {
    await send("POST", `${S}/FileMaker_Tables`, COMPANY);
    const T = `${S}/Aardvark%20Co`;
    expect((await get(emu.url, T)).body.value).toEqual([]);
    const a = await send("POST", T, { "Company ID": 1, Code: "ab", "Company Name": "Acme", Scores: [1, 2, 3] });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ "Company ID": 1, Code: "ab", "Company Name": "Acme", Notes: null, Scores: [1, 2, 3] });
    expect(a.body.Created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(a.body.Day).toBe(a.body.Created.slice(0, 10));
    expect(a.headers.get("location")).toMatch(/Aardvark%20Co\(1\)$/);
    expect((await get(emu.url, `${T}(1)?$select=Code`)).body.Code).toBe("ab");
    expect(errorOf(await send("POST", T, { "Company ID": 2, Code: "AB", "Company Name": "Dup" }))).toEqual({ status: 400, code: "504" });
    expect(errorOf(await send("POST", T, { "Company ID": 3, Code: "cd" }))).toEqual({ status: 400, code: "509" });
    expect(errorOf(await send("POST", T, { Code: "ef", "Company Name": "No key" }))).toEqual({ status: 400, code: "509" });
    const long = await send("POST", T, { "Company ID": 4, Code: "abcdef", "Company Name": "Long" });
    expect(errorOf(long)).toEqual({ status: 400, code: "511" });
    expect(long.body.error.message).toContain("at most 5 characters");
    expect((await send("POST", T, { "Company ID": 5, Code: "abcde", "Company Name": "Fits" })).status).toBe(201);
    expect((await send("PATCH", `${T}(5)`, { "Company Name": "Renamed" })).status).toBe(204);
    expect((await get(emu.url, `${T}?$filter=Code eq 'abcde'&$select="Company Name"`.replaceAll(" ", "%20"))).body.value).toEqual([expect.objectContaining({ "Company Name": "Renamed" })]);
  });

  it("refuses bad definitions with 400 -1 and creates nothing; a taken name (any case) too", async () => {
    const cases: [unknown, RegExp][] = [
      [{ tableName: "contacts", fields: [{ name: "a", type: "int" }] }, /a table named 'contacts' already exists/],
      [{ tableName: "X", fields: [{ name: "a", type: "float" }] }, /type 'float' is not one of/],
      [{ tableName: "X", fields: [{ name: "a", type: "int(4)" }] }, /only VARCHAR and CHARACTER VARYING take a \(length\)/],
      [{ tableName: "X", fields: [{ name: "a", type: "int", nullabel: false }] }, /'nullabel' is not a member of a field definition/],
      [{ tableName: "X", fields: [{ name: "a", type: "int" }, { name: "A", type: "date" }] }, /'A' is defined twice/],
      [{ tableName: "X", fields: [{ name: "a", type: "date", default: "CURRENT_TIME" }] }, /fits a time field, not a date field/],
      [{ tableName: "X", fields: [{ name: "a", type: "varchar", default: "NOW" }] }, /default 'NOW' is not one of/],
      [{ tableName: "X", fields: [{ name: "a", type: "int", default: "CURRENT_USER" }] }, /fits a text field, not a number field/],
      [{ tableName: "X", fields: [{ name: "a::b", type: "int" }] }, /cannot name a field: it holds '::'/],
      [{ tableName: "X(1)", fields: [{ name: "a", type: "int" }] }, /cannot name a table: it holds '\('/],
      [{ tableName: "X", fields: [] }, /at least one field/],
      [{ tableName: "X", fields: [{ name: "a", type: "int", primary: true }, { name: "b", type: "int", primary: true }] }, /only one field may be primary/],
      [{ tableName: "X", fields: [{ name: "a", type: "int", global: true, unique: true }] }, /a unique field cannot be global/],
      [{ tableName: "X", fields: [{ name: "a", type: "int", externalSecurePath: "p/" }] }, /container fields only/],
      [{ tableName: "X", fields: [{ name: "a", type: "int" }], comment: "x" }, /'comment' is not a member/],
    ];
    const version = (await metadata())["@Org.OData.Core.V1.SchemaVersion"];
    for (const [body, message] of cases) {
      const a = await send("POST", `${S}/FileMaker_Tables`, body);
      expect(errorOf(a), JSON.stringify(body)).toEqual({ status: 400, code: "-1" });
      expect(a.body.error.message).toMatch(message);
    }
    const m = await metadata();
    expect(m["@Org.OData.Core.V1.SchemaVersion"]).toBe(version);
    expect(m.X_).toBeUndefined();
  });
});

describe("add fields (PATCH FileMaker_Tables/T)", () => {
  it("adds fields with new FMFIDs; existing records read them as null; the Data API keeps working on the same table", async () => {
    const before = await metadata();
    const a = await send("PATCH", `${S}/FileMaker_Tables/Contacts`, { fields: [{ name: "Email", type: "varchar(80)" }, { name: "Level", type: "int" }] });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ tableName: "Contacts", fields: [{ name: "Email", type: "varchar(80)" }, { name: "Level", type: "int" }] });
    const m = await metadata();
    const contacts = Number((m.Contacts_["@TableID"] as string).slice("FMTID:".length));
    for (const f of ["Email", "Level"]) {
      expect(idsIn(before)).not.toContain(m.Contacts_[f]["@FieldID"]);
      expect(Number((m.Contacts_[f]["@FieldID"] as string).slice("FMFID:".length)) % W).toBe(contacts);
    }
    expect(m.Contacts_.Email["@FieldID"]).not.toBe(m.Contacts_.Level["@FieldID"]);
    // The others keep theirs, and the new fields come last.
    for (const f of Object.keys(before.Contacts_).filter((k) => before.Contacts_[k]?.["@FieldID"])) expect(m.Contacts_[f]["@FieldID"], f).toBe(before.Contacts_[f]["@FieldID"]);
    expect(Object.keys(m.Contacts_).filter((k) => m.Contacts_[k]?.["@FieldID"]).slice(-2)).toEqual(["Email", "Level"]);
    const rows = (await get(emu.url, `${S}/Contacts?$select=%22id%22,Email,Level`)).body.value;
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(r).toMatchObject({ Email: null, Level: null });
    expect((await send("PATCH", `${S}/Contacts('A1')`, { Email: "ada@example.com", Level: 3 })).status).toBe(204);
    expect((await get(emu.url, `${S}/Contacts?$filter=Level%20eq%203&$select=Name`)).body.value).toEqual([expect.objectContaining({ Name: "Ada" })]);
    // The Data API's layout shows what it showed (a new field is not on the layout) and still writes.
    const api = new DataApi(emu.url);
    const token = await api.login(USER, PASSWORD, DB);
    const list = await api.call("GET", `/databases/${DB}/layouts/Contacts/records`, { token });
    expect(list.status).toBe(200);
    expect(Object.keys(list.body.response.data[0].fieldData)).not.toContain("Email");
    const made = await api.call("POST", `/databases/${DB}/layouts/Contacts/records`, { token, json: { fieldData: { Name: "Via DAPI" } } });
    expect(made.status).toBe(200);
    expect((await get(emu.url, `${S}/Contacts(ROWID=${made.body.response.recordId})?$select=Name,Email`)).body).toMatchObject({ Name: "Via DAPI", Email: null });
  });

  it("adds the good fields and lists the failed ones (partial success); when all fail, the first failure is the answer", async () => {
    const a = await send("PATCH", `${S}/FileMaker_Tables/${(await metadata()).Notes_["@TableID"]}`, { fields: [{ name: "text", type: "varchar" }, { name: "Due", type: "date" }, { name: "Bad", type: "money" }] });
    expect(a.status).toBe(200);
    expect(a.body.tableName).toBe("Notes");
    expect(a.body.fields).toEqual([{ name: "Due", type: "date" }]);
    expect(a.body.failedFields).toHaveLength(2);
    expect(a.body.failedFields[0]).toMatchObject({ name: "text", error: { code: "-1", message: expect.stringMatching(/already has a field named 'text'/) } });
    expect(a.body.failedFields[1]).toMatchObject({ name: "Bad", error: { code: "-1", message: expect.stringMatching(/type 'money'/) } });
    expect((await metadata()).Notes_.Due.$Type).toBe("Edm.Date");
    const none = await send("PATCH", `${S}/FileMaker_Tables/Notes`, { fields: [{ name: "Due", type: "date" }] });
    expect(errorOf(none)).toEqual({ status: 400, code: "-1" });
    expect(errorOf(await send("PATCH", `${S}/FileMaker_Tables/Nope`, { fields: [{ name: "a", type: "int" }] }))).toEqual({ status: 404, code: "-1020" });
    expect(errorOf(await send("PATCH", `${S}/FileMaker_Tables/Contacts`, { fields: [{ name: "k", type: "int", primary: true }] }))).toEqual({ status: 400, code: "-1" });
  });
});

describe("delete fields and tables", () => {
  it("DELETE FileMaker_Tables/T/F (by name or FMFID) → 204: gone from $metadata, reads and the Data API's layout; its number is not reused", async () => {
    const m0 = await metadata();
    const ageId = m0.Contacts_.Age["@FieldID"];
    // The Data API reads the layout first, so what it keeps per layout is built before the change.
    const api = new DataApi(emu.url);
    const token = await api.login(USER, PASSWORD, DB);
    expect(Object.keys((await api.call("GET", `/databases/${DB}/layouts/Contacts/records/1`, { token })).body.response.data[0].fieldData)).toContain("Tags");
    expect((await api.call("GET", `/databases/${DB}/layouts/Contacts`, { token })).body.response.fieldMetaData.map((f: { name: string }) => f.name)).toContain("Tags");
    const del = await send("DELETE", `${S}/FileMaker_Tables/Contacts/${ageId}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    const m1 = await metadata();
    expect(m1.Contacts_.Age).toBeUndefined();
    expect(m1.Contacts_.Born["@FieldID"]).toBe(m0.Contacts_.Born["@FieldID"]);
    expect(errorOf(await get(emu.url, `${S}/Contacts?$select=Age`))).toEqual({ status: 400, code: "8309" });
    expect(Object.keys((await get(emu.url, `${S}/Contacts('A1')`)).body)).not.toContain("Age");
    expect((await send("DELETE", `${S}/FileMaker_Tables/Contacts/Tags`)).status).toBe(204);
    // Re-adding a name gives a new field: a number the table never had, empty values.
    await send("PATCH", `${S}/FileMaker_Tables/Contacts`, { fields: [{ name: "Age", type: "int" }] });
    const m2 = await metadata();
    expect(idsIn(m0)).not.toContain(m2.Contacts_.Age["@FieldID"]);
    expect((await get(emu.url, `${S}/Contacts('A1')?$select=Age`)).body.Age).toBeNull();
    // The Data API: the layout no longer shows the deleted field; writing it is 102; the rest works.
    const one = await api.call("GET", `/databases/${DB}/layouts/Contacts/records/1`, { token });
    expect(one.status).toBe(200);
    expect(one.body.response.data[0].fieldData).toMatchObject({ Name: "Ada" });
    expect(Object.keys(one.body.response.data[0].fieldData)).not.toContain("Tags");
    const meta = await api.call("GET", `/databases/${DB}/layouts/Contacts`, { token });
    expect(meta.body.response.fieldMetaData.map((f: { name: string }) => f.name)).not.toContain("Tags");
    const write = await api.call("PATCH", `/databases/${DB}/layouts/Contacts/records/1`, { token, json: { fieldData: { Tags: "x" } } });
    expect(write.body?.messages[0]?.code).toBe("102");
    expect((await api.call("PATCH", `/databases/${DB}/layouts/Contacts/records/1`, { token, json: { fieldData: { Name: "Ada L." } } })).status).toBe(200);
    expect(errorOf(await send("DELETE", `${S}/FileMaker_Tables/Contacts/Nope`))).toEqual({ status: 400, code: "8309" });
  });

  it("DELETE FileMaker_Tables/T (by name or FMTID) → 204: its set is gone (404 -1020), other FMTIDs stay, its layout is 105 and portals to it go", async () => {
    const m0 = await metadata();
    expect(m0.Contacts_.Notes).toMatchObject({ $Kind: "NavigationProperty" });
    // The Data API reads the layout and its portal first, so what it keeps per layout is built before the change.
    const api = new DataApi(emu.url);
    const token = await api.login(USER, PASSWORD, DB);
    expect(Object.keys((await api.call("GET", `/databases/${DB}/layouts/Contacts/records/1`, { token })).body.response.data[0].portalData)).toEqual(["Notes"]);
    const del = await send("DELETE", `${S}/FileMaker_Tables/${m0.Notes_["@TableID"]}`);
    expect(del.status).toBe(204);
    expect(errorOf(await get(emu.url, `${S}/Notes`))).toEqual({ status: 404, code: "-1020" });
    const m1 = await metadata();
    expect(m1.Notes_).toBeUndefined();
    expect(m1.Contacts_["@TableID"]).toBe(m0.Contacts_["@TableID"]);
    expect(m1.Contacts_.Notes).toBeUndefined();
    expect((await get(emu.url, S)).body.value.map((s: { name: string }) => s.name)).toEqual(["Contacts"]);
    // A table created next takes a new number, not the deleted one's.
    await send("POST", `${S}/FileMaker_Tables`, { tableName: "Notes", fields: [{ name: "Text", type: "varchar" }] });
    const again = (await metadata()).Notes_["@TableID"];
    expect(idsIn(m0)).not.toContain(again);
    expect((await get(emu.url, `${S}/Notes`)).body.value).toEqual([]);
    expect((await api.call("GET", `/databases/${DB}/layouts/Notes/records`, { token })).body?.messages[0]?.code).toBe("105");
    const contact = await api.call("GET", `/databases/${DB}/layouts/Contacts/records/1`, { token });
    expect(contact.status).toBe(200);
    expect(contact.body.response.data[0].portalData ?? {}).toEqual({});
    expect(errorOf(await send("DELETE", `${S}/FileMaker_Tables/Gone`))).toEqual({ status: 404, code: "-1020" });
  });
});

describe("indexes (FileMaker_Indexes)", () => {
  it("POST {indexName} → 200 {indexName} and $metadata's Index; DELETE → 204 and it is gone; refusals", async () => {
    const a = await send("POST", `${S}/FileMaker_Indexes/Contacts`, { indexName: "Name" });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ indexName: "Name" });
    expect((await metadata()).Contacts_.Name["@Index"]).toBe(true);
    const d = await send("DELETE", `${S}/FileMaker_Indexes/Contacts/Name`);
    expect(d.status).toBe(204);
    expect((await metadata()).Contacts_.Name["@Index"]).toBeUndefined();
    expect(errorOf(await send("DELETE", `${S}/FileMaker_Indexes/Contacts/id`))).toEqual({ status: 400, code: "-1" });
    expect(errorOf(await send("DELETE", `${S}/FileMaker_Indexes/Notes/ContactId`))).toEqual({ status: 400, code: "-1" });
    expect(errorOf(await send("POST", `${S}/FileMaker_Indexes/Contacts`, { indexName: "Label" }))).toEqual({ status: 400, code: "-1" });
    expect(errorOf(await send("POST", `${S}/FileMaker_Indexes/Contacts`, { indexName: "Nope" }))).toEqual({ status: 400, code: "8309" });
    expect(errorOf(await send("POST", `${S}/FileMaker_Indexes/Nope`, { indexName: "Name" }))).toEqual({ status: 404, code: "-1020" });
    expect(errorOf(await send("POST", `${S}/FileMaker_Indexes/Contacts`, { index: "Name" }))).toEqual({ status: 400, code: "-1" });
  });
});

describe("system tables and methods", () => {
  it("GET FileMaker_Tables is 404 -1020 (6); other methods are 405; query options are refused", async () => {
    const g = await get(emu.url, `${S}/FileMaker_Tables`);
    expect(errorOf(g)).toEqual({ status: 404, code: "-1020" });
    expect(g.body.error.message).toBe("Table 'FileMaker_Tables' not defined in database");
    expect(errorOf(await send("PUT", `${S}/FileMaker_Tables/Contacts`, { fields: [] }))).toEqual({ status: 405, code: "-1002" });
    expect(errorOf(await send("DELETE", `${S}/FileMaker_Tables`))).toEqual({ status: 405, code: "-1002" });
    expect(errorOf(await send("POST", `${S}/FileMaker_Tables?$top=1`, COMPANY))).toEqual({ status: 400, code: "-1002" });
  });
});

describe("$schemaversion (2.9)", () => {
  it("the current SchemaVersion passes; a stale one is 400 -1 naming the current one, on reads, writes and schema changes", async () => {
    const v1 = (await metadata())["@Org.OData.Core.V1.SchemaVersion"] as string;
    expect(v1).toMatch(/^[0-9a-f]{16}$/);
    expect((await get(emu.url, `${S}/Contacts?$schemaversion=${v1}&$select=Name`)).body.value).toHaveLength(3);
    expect((await get(emu.url, `${S}/$metadata?$schemaversion=${v1}`)).status).toBe(200);
    expect(errorOf(await get(emu.url, `/fmi/odata/v4?$schemaversion=${v1}`))).toEqual({ status: 400, code: "-1002" });
    await send("PATCH", `${S}/FileMaker_Tables/Contacts`, { fields: [{ name: "X", type: "int" }] });
    const v2 = (await metadata())["@Org.OData.Core.V1.SchemaVersion"] as string;
    expect(v2).not.toBe(v1);
    const stale = await get(emu.url, `${S}/Contacts?$schemaversion=${v1}`);
    expect(errorOf(stale)).toEqual({ status: 400, code: "-1" });
    expect(stale.body.error.message).toContain(`'${v2}'`);
    expect(errorOf(await send("PATCH", `${S}/Contacts('A1')?$schemaversion=${v1}`, { Name: "n" }))).toEqual({ status: 400, code: "-1" });
    expect((await send("PATCH", `${S}/Contacts('A1')?$schemaversion=${v2}`, { Name: "n" })).status).toBe(204);
    // Deleting the field just added gives the same schema as before, yet a new version: every change counts.
    await send("DELETE", `${S}/FileMaker_Tables/Contacts/X`);
    const v3 = (await metadata())["@Org.OData.Core.V1.SchemaVersion"];
    expect([v1, v2]).not.toContain(v3);
  });
});

describe("names no URL path segment or $metadata can carry (src/layout/carried-name.ts)", () => {
  const CASES: [string, RegExp][] = [
    [".", /it is only dots/],
    ["..", /it is only dots/],
    ["a\uFFFFb", /noncharacter U\+FFFF/],
    ["a\uFFFEb", /noncharacter U\+FFFE/],
    ["n\uFDD0", /noncharacter U\+FDD0/],
    ["p\u{10FFFF}", /noncharacter U\+10FFFF/],
    ["c\uD800d", /lone surrogate U\+D800/],
    ["c\uDFFFd", /lone surrogate U\+DFFF/],
  ];

  it("a table, a field of a new table, an added field: 400 -1 naming the rule, and nothing changes", async () => {
    const before = await metadata();
    for (const [name, rule] of CASES) {
      const table = errorOf(await send("POST", `${S}/FileMaker_Tables`, { tableName: name, fields: [{ name: "x", type: "int" }] }));
      expect(table, JSON.stringify(name)).toEqual({ status: 400, code: "-1" });
      const asTable = await send("POST", `${S}/FileMaker_Tables`, { tableName: name, fields: [{ name: "x", type: "int" }] });
      expect(asTable.body.error.message).toMatch(/cannot name a table/);
      expect(asTable.body.error.message).toMatch(rule);
      const field = await send("POST", `${S}/FileMaker_Tables`, { tableName: "Fine", fields: [{ name, type: "int" }] });
      expect(errorOf(field), JSON.stringify(name)).toEqual({ status: 400, code: "-1" });
      expect(field.body.error.message).toMatch(/cannot name a field/);
      expect(field.body.error.message).toMatch(rule);
      const added = await send("PATCH", `${S}/FileMaker_Tables/Contacts`, { fields: [{ name, type: "int" }] });
      expect(errorOf(added), JSON.stringify(name)).toEqual({ status: 400, code: "-1" });
      expect(added.body.error.message).toMatch(rule);
    }
    expect(await metadata()).toEqual(before);
  });

  it("descriptions holding such names do not load: the emulator does not start, naming the description and the rule", async () => {
    await expect(startEmulator({ layouts: [{ database: DB, layout: "..", table: "T", fields: [] }] })).rejects.toThrow(/layouts\[0\]: layout: '\.\.' cannot name a layout: it is only dots/);
    await expect(startEmulator({ tables: [{ database: DB, table: "T", fields: [{ name: "c\uD800d", type: "text" }] }] })).rejects.toThrow(/tables\[0\]: fields\[0\]\.name: .*lone surrogate U\+D800/);
  });

  it("names that merely look odd still work: '...x', astral letters, a dot inside", async () => {
    for (const name of ["...x", "a.b", "\u{1F600} smile", "\u00E9t\u00E9"]) {
      const a = await send("PATCH", `${S}/FileMaker_Tables/Contacts`, { fields: [{ name, type: "int" }] });
      expect(a.status, `${name}: ${a.text}`).toBe(200);
      const read = await get(emu.url, `${S}/Contacts('A1')/${encodeURIComponent(name)}`);
      expect({ status: read.status, value: read.body?.value }, `${name}: ${read.text}`).toEqual({ status: 200, value: null });
    }
  });
});
