import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { rawHttp, type RawAnswer } from "../../support/raw-http.js";
import { batch, changeset, expectPartError } from "./batch-support.js";
import { auth, DB, get, send, startOffice } from "./serve-support.js";

// A JSON body needs a JSON Content-Type on every OData path that reads one (docs/emulator.md "The OData API",
// "Request bodies"): the types an HTML form sends without a CORS preflight (text/plain, form-urlencoded,
// multipart/form-data), no type at all, and near misses are 415 and write nothing, read back to be sure.

let emu: RunningEmulator;
let scriptRuns = 0;
const S = `/fmi/odata/v4/${DB}`;

beforeAll(async () => {
  emu = await startOffice(2, { scripts: { Count: () => String(++scriptRuns) } });
});
afterAll(() => emu.close());

/** Not JSON media types: what a form sends, none at all, a suffix type and a near miss. */
const REFUSED: readonly (string | undefined)[] = [
  "text/plain",
  "text/plain;charset=UTF-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  undefined,
  "application/jsonx",
  "application/merge-patch+json",
];

/** `application/json`, any case, with the parameters OData clients send. */
const TAKEN = ["application/json", "application/json;odata.metadata=minimal", "application/json; charset=utf-8", "Application/JSON;IEEE754Compatible=true"];

/** `method path` with exactly this Content-Type (none when undefined) and a JSON text body. */
function sendTyped(method: string, path: string, contentType: string | undefined, body: unknown): Promise<RawAnswer> {
  const text = body === undefined ? "" : JSON.stringify(body);
  const headers: Record<string, string> = { Authorization: auth(), "Content-Length": String(Buffer.byteLength(text)) };
  if (contentType !== undefined) headers["Content-Type"] = contentType;
  return rawHttp(emu.url, method, path, headers, text);
}

function expectRefused(a: RawAnswer, contentType: string | undefined): void {
  expect({ status: a.status, code: a.body?.error?.code, type: a.headers["content-type"] }, `${contentType}: ${a.text}`).toEqual({ status: 415, code: "-1", type: "application/json;charset=utf-8" });
  expect(a.body.error.message).toContain("application/json");
}

const contacts = async () => (await get(emu.url, `${S}/Contacts?$orderby=id&$select=id,Name`)).body.value as { id: string; Name: string }[];
const tables = async () => Object.keys((await get(emu.url, `${S}/$metadata`, { Accept: "application/json" })).body[DB]);
const contactFields = async () => Object.keys((await get(emu.url, `${S}/$metadata`, { Accept: "application/json" })).body[DB].Contacts_);
const hooks = async () => (await get(emu.url, `${S}/Webhook.GetAll`)).body.webhooks as unknown[];
const noteRefs = async () => (await get(emu.url, `${S}/Contacts('C3')/Notes/$ref`)).body.value as unknown[];

/** Each OData write path with a JSON body, and what reads back unchanged when it is refused. */
const WRITES: { name: string; method: string; path: string; body: unknown; state: () => Promise<unknown> }[] = [
  { name: "create (POST T)", method: "POST", path: `${S}/Contacts`, body: { Name: "Mallory" }, state: contacts },
  { name: "update (PATCH T(k))", method: "PATCH", path: `${S}/Contacts('A1')`, body: { Name: "Mallory" }, state: contacts },
  { name: "replace (PUT T(k))", method: "PUT", path: `${S}/Contacts('A1')`, body: { Name: "Mallory" }, state: contacts },
  { name: "update by $filter (PATCH T)", method: "PATCH", path: `${S}/Contacts?$filter=Age%20gt%200`, body: { Name: "Mallory" }, state: contacts },
  { name: "a container as base64 (PATCH T(k))", method: "PATCH", path: `${S}/Contacts('A1')`, body: { Photo: Buffer.from("GIF89a").toString("base64") }, state: async () => (await get(emu.url, `${S}/Contacts('A1')/Photo`)).body },
  { name: "create a table (POST FileMaker_Tables)", method: "POST", path: `${S}/FileMaker_Tables`, body: { tableName: "Evil", fields: [{ name: "x", type: "varchar(10)" }] }, state: tables },
  { name: "add fields (PATCH FileMaker_Tables/T)", method: "PATCH", path: `${S}/FileMaker_Tables/Contacts`, body: { fields: [{ name: "Evil", type: "varchar(10)" }] }, state: contactFields },
  { name: "create an index (POST FileMaker_Indexes/T)", method: "POST", path: `${S}/FileMaker_Indexes/Contacts`, body: { indexName: "Name" }, state: async () => (await get(emu.url, `${S}/$metadata`, { Accept: "application/json" })).body[DB].Contacts_.Name },
  { name: "Webhook.Add", method: "POST", path: `${S}/Webhook.Add`, body: { webhook: "http://127.0.0.1:9/x", tableName: "Contacts" }, state: hooks },
  { name: "relate (POST T(k)/Nav/$ref)", method: "POST", path: `${S}/Contacts('C3')/Notes/$ref`, body: { "@odata.id": `${S}/Notes(1)` }, state: noteRefs },
  { name: "relate (PUT T(k)/Nav/$ref)", method: "PUT", path: `${S}/Contacts('C3')/Notes/$ref`, body: { "@odata.id": `${S}/Notes(2)` }, state: noteRefs },
  { name: "a script call (POST Script.X)", method: "POST", path: `${S}/Script.Count`, body: { scriptParameterValue: "x" }, state: async () => scriptRuns },
];

describe("a JSON body needs a JSON Content-Type", () => {
  for (const write of WRITES) {
    it(`${write.name}: 415 -1 for every other type or none, nothing written`, async () => {
      const before = await write.state();
      for (const type of REFUSED) expectRefused(await sendTyped(write.method, write.path, type, write.body), type);
      expect(await write.state()).toEqual(before);
    });
  }

  it("a body-less call's declared non-JSON type is refused too (an empty form), and no type with no body is taken", async () => {
    const before = scriptRuns;
    for (const type of REFUSED.filter((t) => t !== undefined)) expectRefused(await sendTyped("POST", `${S}/Script.Count`, type, undefined), type);
    expect(scriptRuns).toBe(before);
    const bare = await sendTyped("POST", `${S}/Script.Count`, undefined, undefined);
    expect(bare.status, bare.text).toBe(200);
    expect(scriptRuns).toBe(before + 1);
  });

  it("Webhook.Delete and Webhook.Invoke with a form's type: 415, the webhook stays", async () => {
    const added = await send(emu.url, "POST", `${S}/Webhook.Add`, { webhook: "http://127.0.0.1:9/x", tableName: "Notes" });
    expect(added.status, added.text).toBe(200);
    const id = added.body.webhookResult.webhookID as number;
    for (const type of REFUSED) {
      expectRefused(await sendTyped("POST", `${S}/Webhook.Delete(${id})`, type, {}), type);
      expectRefused(await sendTyped("POST", `${S}/Webhook.Invoke(${id})`, type, { rowIDs: [1] }), type);
    }
    expect((await get(emu.url, `${S}/Webhook.Get(${id})`)).status).toBe(200);
    expect((await send(emu.url, "POST", `${S}/Webhook.Delete(${id})`)).status).toBe(200);
  });

  it("application/json with parameters, in any case, is taken", async () => {
    for (const [i, type] of TAKEN.entries()) {
      const a = await sendTyped("POST", `${S}/Contacts`, type, { Name: `Typed ${i}` });
      expect(a.status, `${type}: ${a.text}`).toBe(201);
      expect(a.body.Name).toBe(`Typed ${i}`);
    }
    const a = await sendTyped("POST", `${S}/Script.Count`, "application/json;odata.metadata=minimal", { scriptParameterValue: "x" });
    expect(a.status, a.text).toBe(200);
  });

  it("a binary container upload keeps its own types: JSON there is 415, an image is taken", async () => {
    expect((await sendTyped("PATCH", `${S}/Contacts('B2')/Photo`, "application/json", { a: 1 })).status).toBe(415);
    const gif = Buffer.from("GIF89a\x01\x00\x01\x00", "latin1");
    const res = await fetch(`${emu.url}${S}/Contacts('B2')/Photo`, { method: "PATCH", headers: { Authorization: auth(), "Content-Type": "image/gif" }, body: gif, signal: AbortSignal.timeout(10_000) });
    expect(res.status, await res.text()).toBe(200);
  });

  it("a $batch part's body follows the same rule by its own Content-Type: the changeset fails, nothing written", async () => {
    const before = await contacts();
    for (const type of REFUSED) {
      const headers: [string, string][] = type === undefined ? [] : [["Content-Type", type]];
      const a = await batch(emu.url, [{ kind: "changeset", requests: [{ method: "POST", url: "Contacts", headers, body: JSON.stringify({ Name: "Mallory" }) }] }]);
      expect(a.status, a.text).toBe(200);
      const [failed] = a.items!.map((item) => (item.kind === "response" ? item.response : changeset(item)[0]!));
      expect(expectPartError(failed!, 415, "-1")).toContain("application/json");
    }
    expect(await contacts()).toEqual(before);
    // The batch's own type never stands in for a part's.
    const typed = await batch(emu.url, [{ kind: "changeset", requests: [{ method: "POST", url: "Contacts", headers: [["Content-Type", "application/json;odata.metadata=minimal"]], body: JSON.stringify({ Name: "Batched" }) }] }]);
    expect(changeset(typed.items![0]).map((p) => p.status)).toEqual([204]);
  });

  it("a $batch is multipart/mixed: a form's body is refused as no batch (400 -1014), nothing written", async () => {
    const before = await contacts();
    for (const type of REFUSED) {
      const a = await sendTyped("POST", `${S}/$batch`, type, { requests: [{ method: "POST", url: "Contacts", body: { Name: "Mallory" } }] });
      expect({ status: a.status, code: a.body?.error?.code }, a.text).toEqual({ status: 400, code: "-1014" });
    }
    expect(await contacts()).toEqual(before);
  });
});
