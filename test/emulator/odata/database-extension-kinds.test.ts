import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { auth, DB, expectODataError, get, send as sendTo, startOffice, type Answer } from "./serve-support.js";
import { Receiver } from "./webhook-receiver.js";
import { writeBatchRequest } from "../../../src/emulator/odata/batch-write.js";
import { partJson, postBatch, single } from "./batch-support.js";

// docs/emulator.md, "Third-party clients": `DB.fmp12` names the hosted file `DB` on every path kind, not only on reads.
// @proofkit/fmodata adds `.fmp12` on its webhook calls only; a webhook added as `DB.fmp12` is the file's webhook, seen
// as `DB` too.

let emu: RunningEmulator;
let receiver: Receiver;
const X = `/fmi/odata/v4/${DB}.fmp12`;
const S = `/fmi/odata/v4/${DB}`;

beforeAll(async () => {
  emu = await startOffice(2, { scripts: { Db: ({ database }) => database }, webhooks: { retryDelayMs: 20, maxRetryDelayMs: 40, timeoutMs: 2_000 } });
  receiver = await Receiver.start();
});
afterAll(async () => {
  await emu.close();
  await receiver.close();
});

const send = (method: string, path: string, body?: unknown): Promise<Answer> => sendTo(emu.url, method, path, body);

describe("`.fmp12` on every path kind (1.1)", () => {
  it("webhooks: Add, GetAll, Get, Invoke and Delete as DB.fmp12 reach the file's one registry, and the delivery comes", async () => {
    const add = await send("POST", `${X}/Webhook.Add`, { webhook: `${receiver.url}/x`, tableName: "Contacts", select: "Name" });
    expect(add.status, add.text).toBe(200);
    const id = add.body.webhookResult.webhookID as number;
    const all = await send("GET", `${X}/Webhook.GetAll`);
    expect(all.status, all.text).toBe(200);
    // The answer's URLs name the file as the request's URL did (docs/emulator.md, "Names"); the registry is the file's.
    expect(all.body["@context"]).toBe(`${emu.url}${X}/$metadata#WebHook Processor`);
    expect(all.body.webhooks.map((h: { webhookID: number }) => h.webhookID)).toEqual([id]);
    expect((await send("GET", `${S}/Webhook.GetAll`)).body.webhooks).toEqual(all.body.webhooks);
    expect((await send("GET", `${X}/Webhook.Get(${id})`)).body).toEqual({ "@context": `${emu.url}${X}/$metadata#WebHook`, ...all.body.webhooks[0] });
    const invoked = await send("POST", `${X}/Webhook.Invoke(${id})`, { rowIDs: [1] });
    expect(invoked.status, invoked.text).toBe(200);
    expect(invoked.body.value).toEqual([expect.objectContaining({ Name: "Ada" })]);
    const [delivery] = await receiver.wait(1);
    // A delivery answers no request: it names the file by its own name.
    expect(delivery!.body["@odata.context"]).toMatch(new RegExp(`^fmi/odata/v4/${DB}/\\$metadata#Contacts\\(`));
    expect((await send("POST", `${X}/Webhook.Delete(${id})`)).body).toEqual({ webhookResult: { webhookID: id } });
    expect((await send("GET", `${S}/Webhook.GetAll`)).body.webhooks).toEqual([]);
    expectODataError(await send("GET", `/fmi/odata/v4/Nope.fmp12/Webhook.GetAll`), 404, "-1000");
  });

  it("scripts run in the hosted file", async () => {
    const a = await send("POST", `${X}/Script.Db`);
    expect(a.status, a.text).toBe(200);
    expect(a.body).toEqual({ scriptResult: { code: 0, resultParameter: DB } });
  });

  it("schema: FileMaker_Tables lists and changes the hosted file", async () => {
    const made = await send("POST", `${X}/FileMaker_Tables`, { tableName: "Ext", fields: [{ name: "A", type: "varchar(10)" }] });
    expect(made.status, made.text).toBe(200);
    const m = await get(emu.url, `${S}/$metadata`, { Accept: "application/json", Authorization: auth() });
    expect(Object.keys(m.body[DB])).toContain("Ext_");
  });

  it("$batch: the outer DB.fmp12 serves parts naming DB, webhook parts included", async () => {
    const written = writeBatchRequest([{ kind: "request", method: "GET", url: `${S}/Webhook.GetAll` }]);
    const a = await postBatch(emu.url, written.body, written.contentType, {}, `${X}/$batch`);
    expect(a.status, a.text).toBe(200);
    const part = single(a.items![0]);
    expect(part.status, Buffer.from(part.body).toString("utf8")).toBe(200);
    expect(partJson(part).webhooks).toEqual([]);
  });
});
