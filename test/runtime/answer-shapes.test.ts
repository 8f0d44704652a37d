import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryTokenStore, ProtocolError, q, type FileMakerClient } from "../../src/runtime/index.js";
import { listenLoopback } from "../support/loopback-server.js";
import { storeKey } from "../support/poisoned-tokens.js";
import { collect, connect, envelope, startFakeServer, type FakeServer } from "../support/runtime-emulator.js";
import { Contact, DATABASE } from "../support/runtime-layouts.js";
import { layoutMetadata, wireRecords } from "../../src/runtime/metadata.js";

// An answer of code 0 that lacks what the call returns (a proxy's stub, a broken server) is a ProtocolError
// naming the call, for every public call: never `recordId: "undefined"`, a page without dataInfo, or a layout
// list quietly empty. Table-driven: every call against every malformed answer of its kind.

const LAYOUT_PATH = `/databases/${DATABASE}/layouts/Contacts%20Web`;
const RECORDS = `${LAYOUT_PATH}/records`;

/** A record of Contacts Web as a server sends it. */
const RECORD = {
  recordId: "1",
  modId: "0",
  fieldData: { id: 1, "First Name": "Ada", "Last Name": "", Email: "", Status: "", Birthday: "", "Wake Up": "", Created: "", Modified: "", Photo: "", Phone: "", "Phone(2)": "", "Phone(3)": "", "Company::Name": "" },
  portalData: { Invoices: [] },
};
const DATA_INFO = { database: DATABASE, layout: "Contacts Web", table: "Contacts", totalRecordCount: 1, foundCount: 1, returnedCount: 1 };

/** Malformed answers to a page (list, get, find...), each with what the error says about it. */
const BAD_PAGES: [string, object, string][] = [
  ["an empty response", {}, "response.data is not an array"],
  ["data that is an object", { data: {}, dataInfo: DATA_INFO }, "response.data is not an array"],
  ["no dataInfo", { data: [RECORD] }, "response.dataInfo is not an object"],
  ["dataInfo as an array", { data: [RECORD], dataInfo: [] }, "response.dataInfo is not an object"],
  ["dataInfo without its database", { data: [RECORD], dataInfo: { ...DATA_INFO, database: undefined } }, "response.dataInfo.database is not a string"],
  ["counts as strings", { data: [RECORD], dataInfo: { ...DATA_INFO, foundCount: "1" } }, "response.dataInfo.foundCount is not a number"],
  ["no totalRecordCount", { data: [RECORD], dataInfo: { ...DATA_INFO, totalRecordCount: undefined } }, "response.dataInfo.totalRecordCount is not a number"],
  ["no returnedCount", { data: [RECORD], dataInfo: { ...DATA_INFO, returnedCount: null } }, "response.dataInfo.returnedCount is not a number"],
  ["dataInfo without its table", { data: [RECORD], dataInfo: { ...DATA_INFO, table: null } }, "response.dataInfo.table is not a string"],
  ["a null record", { data: [null], dataInfo: DATA_INFO }, "response.data[0] is not a record (string recordId and modId, object fieldData and portalData)"],
  ["a numeric recordId", { data: [{ ...RECORD, recordId: 1 }], dataInfo: DATA_INFO }, "response.data[0] is not a record (string recordId and modId, object fieldData and portalData)"],
  ["no modId", { data: [{ ...RECORD, modId: undefined }], dataInfo: DATA_INFO }, "response.data[0] is not a record (string recordId and modId, object fieldData and portalData)"],
  ["fieldData as a string", { data: [{ ...RECORD, fieldData: "x" }], dataInfo: DATA_INFO }, "response.data[0] is not a record (string recordId and modId, object fieldData and portalData)"],
  ["fieldData as an array", { data: [{ ...RECORD, fieldData: [] }], dataInfo: DATA_INFO }, "response.data[0] is not a record (string recordId and modId, object fieldData and portalData)"],
  ["portalData as an array", { data: [{ ...RECORD, portalData: [] }], dataInfo: DATA_INFO }, "response.data[0] is not a record (string recordId and modId, object fieldData and portalData)"],
];

const BAD_IDS = (keys: readonly ("recordId" | "modId")[]): [string, object, string][] => {
  const good = { recordId: "5", modId: "0" };
  return keys.flatMap((key) => [
    [`no ${key}`, { ...good, [key]: undefined }, `response.${key} is not a non-empty string`],
    [`a numeric ${key}`, { ...good, [key]: 5 }, `response.${key} is not a non-empty string`],
    [`an empty ${key}`, { ...good, [key]: "" }, `response.${key} is not a non-empty string`],
    [`a null ${key}`, { ...good, [key]: null }, `response.${key} is not a non-empty string`],
  ]);
};

const BAD_LAYOUT_LISTS: [string, object, string][] = [
  ["an empty response", {}, "response.layouts (or a folder's folderLayoutNames) is not an array of named entries"],
  ["layouts as a string", { layouts: "Contacts Web" }, "response.layouts (or a folder's folderLayoutNames) is not an array of named entries"],
  ["an entry without a name", { layouts: [{ name: "A" }, { table: "T" }] }, "response.layouts (or a folder's folderLayoutNames) is not an array of named entries"],
  ["a null entry", { layouts: [null] }, "response.layouts (or a folder's folderLayoutNames) is not an array of named entries"],
  ["a folder without its list", { layouts: [{ name: "F", isFolder: true }] }, "response.layouts (or a folder's folderLayoutNames) is not an array of named entries"],
];

const BAD_METADATA: [string, object, string][] = [
  ["an empty response", {}, "the layout metadata has an unexpected shape at fieldMetaData"],
  ["portalMetaData as an array", { fieldMetaData: [], portalMetaData: [] }, "the layout metadata has an unexpected shape at portalMetaData"],
];

type Call = (fm: FileMakerClient) => Promise<unknown>;
const contacts = (fm: FileMakerClient) => fm.layout(Contact);

/** Every public call that returns something, with its request and the malformed answers of its kind. */
const CALLS: [string, Call, { method: string; path: string }, [string, object, string][], object][] = [
  ["list", (fm) => contacts(fm).list(), { method: "GET", path: RECORDS }, BAD_PAGES, { data: [RECORD], dataInfo: DATA_INFO }],
  ["listAll", (fm) => collect(contacts(fm).listAll()), { method: "GET", path: `${RECORDS}?_offset=1&_limit=500` }, BAD_PAGES, { data: [RECORD], dataInfo: DATA_INFO }],
  ["get", (fm) => contacts(fm).get(1), { method: "GET", path: `${RECORDS}/1` }, BAD_PAGES, { data: [RECORD], dataInfo: DATA_INFO }],
  ["find", (fm) => contacts(fm).find({ query: [{ "First Name": "Ada" }] }), { method: "POST", path: `${LAYOUT_PATH}/_find` }, BAD_PAGES, { data: [RECORD], dataInfo: DATA_INFO }],
  ["findOne", (fm) => contacts(fm).findOne({ query: [{ "First Name": "Ada" }] }), { method: "POST", path: `${LAYOUT_PATH}/_find` }, BAD_PAGES, { data: [RECORD], dataInfo: DATA_INFO }],
  ["findFirst", (fm) => contacts(fm).findFirst({ query: [{ "First Name": "Ada" }] }), { method: "POST", path: `${LAYOUT_PATH}/_find` }, BAD_PAGES, { data: [RECORD], dataInfo: DATA_INFO }],
  ["findAll", (fm) => collect(contacts(fm).findAll({ query: [{ "First Name": "Ada" }] })), { method: "POST", path: `${LAYOUT_PATH}/_find` }, BAD_PAGES, { data: [RECORD], dataInfo: DATA_INFO }],
  ["query().run()", (fm) => contacts(fm).query().where({ "First Name": q.notEmpty() }).run(), { method: "POST", path: `${LAYOUT_PATH}/_find` }, BAD_PAGES, { data: [RECORD], dataInfo: DATA_INFO }],
  ["query().all()", (fm) => collect(contacts(fm).query().where({ "First Name": q.notEmpty() }).all()), { method: "POST", path: `${LAYOUT_PATH}/_find` }, BAD_PAGES, { data: [RECORD], dataInfo: DATA_INFO }],
  ["query() without criteria: run() lists", (fm) => contacts(fm).query().run(), { method: "GET", path: RECORDS }, BAD_PAGES, { data: [RECORD], dataInfo: DATA_INFO }],
  ["wireRecords", (fm) => wireRecords(fm, "Contacts Web"), { method: "GET", path: RECORDS }, BAD_PAGES, { data: [RECORD], dataInfo: DATA_INFO }],
  ["create", (fm) => contacts(fm).create({ fieldData: { "First Name": "Ada" } }), { method: "POST", path: RECORDS }, BAD_IDS(["recordId", "modId"]), { recordId: "5", modId: "0" }],
  ["edit", (fm) => contacts(fm).edit(1, { fieldData: { "First Name": "Ada" } }), { method: "PATCH", path: `${RECORDS}/1` }, BAD_IDS(["modId"]), { modId: "1" }],
  ["upload", (fm) => contacts(fm).upload(1, "Photo", new Uint8Array([1])), { method: "POST", path: `${RECORDS}/1/containers/Photo/1` }, BAD_IDS(["modId"]), { modId: "1" }],
  ["layouts", (fm) => fm.layouts(), { method: "GET", path: `/databases/${DATABASE}/layouts` }, BAD_LAYOUT_LISTS, { layouts: [{ name: "Contacts Web", table: "Contacts" }, { name: "F", isFolder: true, folderLayoutNames: [{ name: "Inner" }] }] }],
  ["layoutMetadata", (fm) => layoutMetadata(fm, "Contacts Web"), { method: "GET", path: LAYOUT_PATH }, BAD_METADATA, { fieldMetaData: [{ name: "id" }] }],
];

let server: FakeServer;
let fm: FileMakerClient;
let answer: object = {};

beforeAll(async () => {
  server = await startFakeServer(() => ({ status: 200, body: envelope(answer) }));
  fm = connect(server.url, { retry: { retries: 0 } });
});
afterAll(async () => {
  await fm.close();
  await server.close();
});

describe("a malformed answer of code 0", () => {
  const cases = CALLS.flatMap(([name, run, call, bad]) => bad.map(([what, response, says]) => [name, what, run, call, response, says] as const));
  it.each(cases)("%s, %s: ProtocolError naming the call", async (_name, _what, run, call, response, says) => {
    answer = response;
    const error = (await run(fm).then(
      (value) => ({ resolved: value }),
      (e: unknown) => e,
    )) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.call).toEqual(call);
    expect(error.httpStatus).toBe(200);
    expect(error.message.startsWith(`${call.method} ${call.path}: HTTP 200 answer breaks the protocol: ${says}`)).toBe(true);
  });

  it.each(CALLS.map(([name, run, , , good]) => [name, run, good] as const))("%s: a well-formed answer still resolves", async (_name, run, good) => {
    answer = good;
    await expect(run(fm)).resolves.toBeDefined();
  });

  it("the shapes pass through unchanged", async () => {
    answer = { recordId: "5", modId: "0" };
    expect(await contacts(fm).create({ fieldData: {} })).toEqual({ recordId: "5", modId: "0" });
    answer = { data: [RECORD], dataInfo: DATA_INFO };
    expect((await contacts(fm).list()).dataInfo).toEqual(DATA_INFO);
    expect(await wireRecords(fm, "Contacts Web")).toEqual({ data: [RECORD], dataInfo: DATA_INFO });
    answer = { data: [{ ...RECORD, portalData: undefined }], dataInfo: DATA_INFO };
    expect((await wireRecords(fm, "Contacts Web")).data[0]!.portalData).toEqual({});
    answer = { layouts: [{ name: "Contacts Web", table: "Contacts" }, { name: "F", isFolder: true, folderLayoutNames: [{ name: "Inner" }] }] };
    expect(await fm.layouts()).toEqual([{ name: "Contacts Web", table: "Contacts" }, { name: "Inner" }]);
  });

  it("a login answer without a token is a ProtocolError too", async () => {
    const noToken = await startNoTokenServer();
    const client = connect(noToken.url);
    const error = (await client.layout(Contact).get(1).catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toBe(`POST /databases/${DATABASE}/sessions: HTTP 200 answer breaks the protocol: login succeeded but the answer carries no token in its body or X-FM-Data-Access-Token header`);
    // The method and path only: never the login's headers (the Basic credentials).
    expect(error.call).toEqual({ method: "POST", path: `/databases/${DATABASE}/sessions` });
    await client.close().catch(() => undefined);
    await noToken.close();
  });

  it("a login answer whose token cannot be sent back (a header injection) is a ProtocolError, and the token is neither kept nor stored", async () => {
    const fake = await startFakeServer(() => ({ status: 200, body: envelope({}) }), { loginTokenIn: "body", loginAnswer: () => ({ status: 200, body: envelope({ token: "tok\r\nX-Injected: 1" }) }) });
    const store = memoryTokenStore();
    const client = connect(fake.url, { tokenStore: store });
    try {
      for (let call = 0; call < 2; call++) {
        const error = (await client.layout(Contact).get(1).catch((e: unknown) => e)) as ProtocolError;
        expect(error).toBeInstanceOf(ProtocolError);
        expect(error.message).toBe(`POST /databases/${DATABASE}/sessions: HTTP 200 answer breaks the protocol: login succeeded but its token cannot be sent back (not 1 to 4,096 visible ASCII characters)`);
      }
      // Each call logged in again; none sent the token.
      expect(fake.sessionRequests).toHaveLength(2);
      expect(fake.requests).toHaveLength(0);
      expect(await store.get(storeKey(fake.url))).toBeUndefined();
    } finally {
      await client.close().catch(() => undefined);
      await fake.close();
    }
  });
});

/** Answers every request, login included, with an empty envelope of code 0. */
async function startNoTokenServer(): Promise<{ url: string; close(): Promise<void> }> {
  return listenLoopback((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(envelope({}));
    });
  });
}
