import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import { DataApi } from "../../support/data-api-http.js";
import { batch, json } from "./batch-support.js";
import { auth, DB, get, PASSWORD, send as sendTo, startOffice, USER, type Answer } from "./serve-support.js";

// Schema-change defaults USER, USERNAME and CURRENT_USER (section 6; docs/emulator.md, "Schema changes"): a field
// created or added with one of them auto-enters the name of the account whose request creates the record, whichever
// API and sign-in it comes by. Over loopback HTTP; each test starts its own Office file, as the changes are lasting.

const FMID = "fmid-id-token-for-schema-defaults";
const API_KEY = "schema-defaults-api-key";
const OAUTH = { requestId: "oauth-request-9", identifier: "oauth-identifier-9" };

let emu: RunningEmulator;
const S = `/fmi/odata/v4/${DB}`;

beforeEach(async () => {
  emu = await startOffice(0, {
    data: {
      accounts: [{ username: USER, password: PASSWORD }, { username: "rest", password: "only", privileges: ["fmrest"] }, { fmid: FMID }, { oauth: OAUTH }],
      records: { Contacts: [] },
    },
    apiKeys: [{ key: API_KEY }],
  });
});
afterEach(() => emu.close());

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => sendTo(emu.url, method, path, body, headers);
const metadata = async () => (await get(emu.url, `${S}/$metadata`, { Accept: "application/json" })).body[DB];

const AUDIT = {
  tableName: "Audit",
  fields: [
    { name: "Note", type: "varchar(100)" },
    { name: "By", type: "varchar(100)", default: "USER" },
    { name: "By Name", type: "varchar", default: "USERNAME" },
    // Claris' own create-table example.
    { name: "User ID", type: "varchar(20)", default: "CURRENT_USER" },
    { name: "Lower", type: "varchar", default: "current_user" },
    { name: "Day", type: "date", default: "CURRENT_DATE" },
    { name: "At", type: "time", default: "CURTIME" },
    { name: "Stamp", type: "timestamp", default: "CURRENT_TIMESTAMP" },
  ],
};

/** The account-name fields of the Audit record whose Note is `note`, as OData reads them. */
async function byOf(note: string): Promise<Record<string, unknown>> {
  const a = await get(emu.url, `${S}/Audit?$filter=Note%20eq%20'${note}'&$select=By,%22By%20Name%22,%22User%20ID%22,Lower`);
  expect(a.status, a.text).toBe(200);
  expect(a.body.value).toHaveLength(1);
  const { By, "By Name": byName, "User ID": userId, Lower } = a.body.value[0];
  return { By, byName, userId, Lower };
}

const all = (name: string) => ({ By: name, byName: name, userId: name, Lower: name });

describe("POST FileMaker_Tables with USER, USERNAME, CURRENT_USER defaults", () => {
  it("creates the table (200); $metadata states DefaultValue USER; a record created by OData holds the signed-in account's name", async () => {
    const created = await send("POST", `${S}/FileMaker_Tables`, AUDIT);
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual(AUDIT);
    const m = await metadata();
    for (const f of ["By", "By Name", "User ID", "Lower"]) expect(m.Audit_[f], f).toMatchObject({ $DefaultValue: "USER", $Type: "Edm.String" });
    expect(m.Audit_.Day).toMatchObject({ $DefaultValue: "CURRENT_DATE" });
    // Signed in as "WEB": the account's own spelling is entered (names are case-insensitive).
    const made = await send("POST", `${S}/Audit`, { Note: "one" }, { Authorization: auth("WEB", PASSWORD) });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ ...{ By: "web", "By Name": "web", "User ID": "web", Lower: "web" }, Note: "one" });
    expect(made.body.Day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(made.body.Stamp).toEqual(expect.any(String));
  });

  it("over OData, enters the account of each sign-in: a Basic account's name, \"Claris ID\" for FMID, \"API key\" for a key", async () => {
    expect((await send("POST", `${S}/FileMaker_Tables`, AUDIT)).status).toBe(200);
    const signIns: [string, Record<string, string>][] = [
      ["web", {}],
      ["Claris ID", { Authorization: `FMID ${FMID}` }],
      ["API key", { Authorization: `Bearer ${API_KEY}` }],
    ];
    for (const [name, headers] of signIns) {
      const made = await send("POST", `${S}/Audit`, { Note: name.replace(" ", "-") }, headers);
      expect(made.status, made.text).toBe(201);
      expect(await byOf(name.replace(" ", "-")), name).toEqual(all(name));
    }
    // A `$batch`'s parts write as the batch signed in, in a changeset or not.
    const answer = await batch(emu.url, [{ kind: "request", method: "POST", url: `${S}/Audit`, ...json({ Note: "batch-1" }) }, { kind: "changeset", requests: [{ method: "POST", url: `${S}/Audit`, ...json({ Note: "batch-2" }) }] }], { Authorization: `FMID ${FMID}` });
    expect(answer.status, answer.text).toBe(200);
    for (const note of ["batch-1", "batch-2"]) expect(await byOf(note), note).toEqual(all("Claris ID"));
  });

  it("a field added by PATCH FileMaker_Tables/T with such a default: a Data API create fills it with the session's account", async () => {
    const added = await send("PATCH", `${S}/FileMaker_Tables/Contacts`, { fields: [{ name: "Created By", type: "varchar(50)", default: "CURRENT_USER" }] });
    expect(added.status, added.text).toBe(200);
    const api = new DataApi(emu.url);
    const created: [string, string][] = [];
    const basic = await api.login("REST", "only", DB);
    created.push(["rest", (await api.createOk(basic, "Contacts", { fieldData: { Name: "by rest" } }, DB)).recordId]);
    const oauth = await api.call("POST", `/databases/${DB}/sessions`, {
      json: {},
      headers: { "X-FM-Data-OAuth-Request-Id": OAUTH.requestId, "X-FM-Data-OAuth-Identifier": OAUTH.identifier },
    });
    expect(oauth.status, oauth.text).toBe(200);
    created.push(["OAuth", (await api.createOk(oauth.body.response.token as string, "Contacts", { fieldData: { Name: "by oauth" } }, DB)).recordId]);
    const keyed = await api.call("POST", `/databases/${DB}/layouts/Contacts/records`, { token: API_KEY, json: { fieldData: { Name: "by key" } } });
    expect(keyed.status, keyed.text).toBe(200);
    created.push(["API key", keyed.body.response.recordId as string]);
    for (const [name, recordId] of created) {
      const row = await get(emu.url, `${S}/Contacts(ROWID=${recordId})?$select=%22Created%20By%22`);
      expect(row.body["Created By"], name).toBe(name);
    }
    // An edit by another account leaves the creator's name.
    expect((await send("PATCH", `${S}/Contacts(ROWID=${created[0]![1]})`, { Name: "edited" })).status).toBe(204);
    expect((await get(emu.url, `${S}/Contacts(ROWID=${created[0]![1]})?$select=%22Created%20By%22`)).body["Created By"]).toBe("rest");
  });

  it("refuses an account default on a field that is not text, or global (400 -1), and creates nothing", async () => {
    for (const [field, message] of [
      [{ name: "a", type: "int", default: "USER" }, /fits a text field, not a number field/],
      [{ name: "a", type: "timestamp", default: "CURRENT_USER" }, /fits a text field, not a timestamp field/],
      [{ name: "a", type: "varchar", default: "USERNAME", global: true }, /a global field takes no default/],
    ] as const) {
      const a = await send("POST", `${S}/FileMaker_Tables`, { tableName: "X", fields: [field] });
      expect({ status: a.status, code: a.body?.error?.code }).toEqual({ status: 400, code: "-1" });
      expect(a.body.error.message).toMatch(message);
    }
    expect((await metadata()).X_).toBeUndefined();
  });
});

describe("creationAccount and modificationAccount in descriptions", () => {
  let own: RunningEmulator;
  beforeEach(async () => {
    own = await startEmulator({
      layouts: [
        {
          database: "Log",
          layout: "Entries",
          table: "Entries",
          fields: [
            { name: "Text", type: "text" },
            { name: "Created By", type: "text", autoEnter: "creationAccount" },
            { name: "Changed By", type: "text", autoEnter: "modificationAccount", readOnly: true },
          ],
        },
      ],
      data: { accounts: [{ username: "Alice", password: "a" }, { username: "bob", password: "b" }], records: { Entries: [{ Text: "seeded" }] } },
    });
  });
  afterEach(() => own.close());

  it("a create enters the account in both; an edit by another account changes only the modification one; seeded records hold none", async () => {
    const api = new DataApi(own.url);
    const alice = await api.login("alice", "a", "Log");
    const bob = await api.login("bob", "b", "Log");
    const { recordId } = await api.createOk(alice, "Entries", { fieldData: { Text: "new" } }, "Log");
    const read = async () => (await api.getOk(alice, "Entries", recordId, "Log")).fieldData;
    expect(await read()).toMatchObject({ "Created By": "Alice", "Changed By": "Alice" });
    expect((await api.call("PATCH", `/databases/Log/layouts/Entries/records/${recordId}`, { token: bob, json: { fieldData: { Text: "edited" } } })).status).toBe(200);
    expect(await read()).toMatchObject({ "Created By": "Alice", "Changed By": "bob" });
    expect((await api.getOk(alice, "Entries", "1", "Log")).fieldData).toMatchObject({ "Created By": "", "Changed By": "" });
    // OData states both as DefaultValue USER.
    const m = (await get(own.url, "/fmi/odata/v4/Log/$metadata", { Accept: "application/json", Authorization: auth("Alice", "a") })).body.Log;
    expect(m.Entries_["Created By"]).toMatchObject({ $DefaultValue: "USER" });
    expect(m.Entries_["Changed By"]).toMatchObject({ $DefaultValue: "USER" });
  });
});
