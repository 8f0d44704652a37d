import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { writeBatchRequest } from "../../../src/emulator/odata/batch-write.js";
import { partJson, postBatch, single } from "./batch-support.js";
import { DB, get, send as sendTo, startOffice, type Answer } from "./serve-support.js";

// docs/emulator.md, "Names": captured answers of a file requested as `fmdapi_test.fmp12` keep that form in
// `@context`, `@id` and `Location` (2.3); every URL an answer writes echoes the database segment as the request
// wrote it (with `.fmp12`, or in another case), from one place (`ODataCall.urlDb`).

let emu: RunningEmulator;
const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => sendTo(emu.url, method, path, body, headers);

beforeAll(async () => {
  emu = await startOffice(3, { apiKeys: [{ key: "otto-key", pathPrefix: "/otto" }] });
});
afterAll(() => emu.close());

describe.each([`${DB}.fmp12`, `${DB.toLowerCase()}`, `${DB.toUpperCase()}.FMP12`])("the database written %s", (written) => {
  const root = () => `${emu.url}/fmi/odata/v4/${written}`;

  it("collections, entities, members and nextLinks name it so in @context, @id and @editLink", async () => {
    const rows = await get(emu.url, `/fmi/odata/v4/${written}/Contacts?$select=Name&$top=1`);
    expect(rows.status, rows.text).toBe(200);
    expect(rows.body["@context"]).toBe(`${root()}/$metadata#Contacts("Name")`);
    expect(rows.body.value[0]["@id"]).toBe(`${root()}/Contacts('A1')`);
    expect(rows.body.value[0]["@editLink"]).toBe(`${root()}/Contacts('A1')`);
    const one = await get(emu.url, `/fmi/odata/v4/${written}/Contacts('A1')`);
    expect(one.body["@context"]).toBe(`${root()}/$metadata#Contacts/$entity`);
    expect(one.body["@id"]).toBe(`${root()}/Contacts('A1')`);
    const member = await get(emu.url, `/fmi/odata/v4/${written}/Contacts('A1')/Name`);
    expect(member.body["@context"]).toBe(`${root()}/$metadata#Contacts('A1')/Name`);
    const paged = await get(emu.url, `/fmi/odata/v4/${written}/Notes`, { Prefer: "odata.maxpagesize=1" });
    expect(paged.body["@nextLink"]).toMatch(new RegExp(`^${escape(root())}/Notes\\?`));
    const prefixed = await get(emu.url, `/fmi/odata/v4/${written}/Contacts?$top=1`, { "OData-Version": "4.0" });
    expect(prefixed.body["@odata.context"]).toBe(`${root()}/$metadata#Contacts`);
    expect(prefixed.body.value[0]["@odata.id"]).toBe(`${root()}/Contacts('A1')`);
  });

  it("$expand, $apply, $crossjoin and $ref answers name it so", async () => {
    const expanded = await get(emu.url, `/fmi/odata/v4/${written}/Contacts('A1')?$expand=Notes`);
    expect(expanded.body.Notes[0]["@id"]).toMatch(new RegExp(`^${escape(root())}/Notes\\(`));
    const applied = await get(emu.url, `/fmi/odata/v4/${written}/Notes?$apply=aggregate(N with sum as Total)`);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body["@context"]).toMatch(new RegExp(`^${escape(root())}/\\$metadata#Notes`));
    const joined = await get(emu.url, `/fmi/odata/v4/${written}/$crossjoin(Contacts,Notes)?$top=1`);
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body["@context"]).toBe(`${root()}/$metadata#Collection(Edm.ComplexType)`);
    const refs = await get(emu.url, `/fmi/odata/v4/${written}/Contacts('A1')/Notes/$ref`);
    expect(refs.status, refs.text).toBe(200);
    expect(refs.body["@context"]).toBe(`${root()}/$metadata#Collection($ref)`);
    expect(refs.body.value[0]["@id"]).toMatch(new RegExp(`^${escape(root())}/Notes\\(`));
  });

  it("a create's Location and body, and webhook answers, name it so", async () => {
    const made = await send("POST", `/fmi/odata/v4/${written}/Notes`, { Text: "new" });
    expect(made.status, made.text).toBe(201);
    expect(made.headers.get("location")).toMatch(new RegExp(`^${escape(root())}/Notes\\(`));
    expect(made.body["@context"]).toBe(`${root()}/$metadata#Notes/$entity`);
    const all = await get(emu.url, `/fmi/odata/v4/${written}/Webhook.GetAll`);
    expect(all.status, all.text).toBe(200);
    expect(all.body["@context"]).toBe(`${root()}/$metadata#WebHook Processor`);
  });

  it("the service document and $metadata name it so", async () => {
    const doc = await get(emu.url, `/fmi/odata/v4/${written}`);
    expect(doc.body.value.find((s: { name: string }) => s.name === "Contacts").url).toBe(`${root()}/Contacts`);
    const xml = await get(emu.url, `/fmi/odata/v4/${written}/$metadata`);
    expect(xml.text).toContain(`<EntityContainer Name="${written}">`);
  });

  it("a $batch part names the database as its own URL wrote it", async () => {
    // Inner URLs name the hosted file without `.fmp12` (section 4); case aside, as the outer name.
    const inner = written.replace(/\.fmp12$/i, "");
    const batch = writeBatchRequest([{ kind: "request", method: "GET", url: `/fmi/odata/v4/${inner}/Contacts('A1')` }]);
    const a = await postBatch(emu.url, batch.body, batch.contentType, {}, `/fmi/odata/v4/${written}/$batch`);
    expect(a.status, a.text).toBe(200);
    const part = single(a.items![0]);
    expect(part.status, Buffer.from(part.body).toString("utf8")).toBe(200);
    const body = partJson(part);
    expect(body["@id"] ?? body["@odata.id"], JSON.stringify(body)).toBe(`${emu.url}/fmi/odata/v4/${inner}/Contacts('A1')`);
  });
});

describe("under an API key's proxy prefix", () => {
  it("names the database as the request did, and leaves the prefix out (2.3)", async () => {
    const rows = await get(emu.url, `/otto/fmi/odata/v4/${DB}.fmp12/Contacts?$top=1`, { Authorization: "Bearer otto-key" });
    expect(rows.status, rows.text).toBe(200);
    expect(rows.body["@context"]).toBe(`${emu.url}/fmi/odata/v4/${DB}.fmp12/$metadata#Contacts`);
  });
});

describe("answers that answer no URL", () => {
  it("the service root lists each file by its own name", async () => {
    const list = await get(emu.url, `/fmi/odata/v4`);
    expect(list.body.value.map((f: { name: string }) => f.name)).toEqual([DB]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
