import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { DataApi } from "../../support/data-api-http.js";
import { auth, DB, expectODataError, PASSWORD, send as sendTo, startOffice, USER, type Answer } from "./serve-support.js";
import { Receiver, sleep, until } from "./webhook-receiver.js";

// OData webhooks over loopback HTTP (docs/emulator.md "Webhooks"): registration, the
// listings, deliveries of changes made through either API, select/filter, retries, maxFailedAttempts, hostile bodies.

let emu: RunningEmulator;
let receiver: Receiver;
const logs: string[] = [];
const S = `/fmi/odata/v4/${DB}`;

beforeAll(async () => {
  emu = await startOffice(4, { webhooks: { retryDelayMs: 20, maxRetryDelayMs: 80, timeoutMs: 2_000 }, log: (line) => logs.push(line) });
  receiver = await Receiver.start();
});
afterAll(async () => {
  await emu.close();
  await receiver.close();
});

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => sendTo(emu.url, method, path, body, headers);

const added: number[] = [];

async function addHook(body: Record<string, unknown>): Promise<number> {
  const a = await send("POST", `${S}/Webhook.Add`, body);
  expect(a.status, a.text).toBe(200);
  const id = a.body.webhookResult.webhookID as number;
  added.push(id);
  return id;
}

const getHook = async (id: number) => (await send("GET", `${S}/Webhook.Get(${id})`)).body;

afterEach(async () => {
  for (const id of added.splice(0)) await send("POST", `${S}/Webhook.Delete(${id})`);
  receiver.got.length = 0;
  receiver.statuses = [200];
});

describe("registration (section 7)", () => {
  it("Add answers the id; ids are sequential and never reused; Get, GetAll and Delete answer section 7's shapes", async () => {
    const a = await addHook({ webhook: `${receiver.url}/a`, tableName: "Contacts", endpointHeaders: { "X-Custom-Header": "test-value" } });
    const b = await addHook({ webhook: `${receiver.url}/b`, tableName: "Notes", headers: { "X-Legacy": "1" }, notifySchemaChanges: true, select: "Text", filter: "N gt 1", maxFailedAttempts: 3, queryHeaders: { Prefer: "fmodata.entity-ids" } });
    expect(b).toBe(a + 1);
    const del = await send("POST", `${S}/Webhook.Delete(${b})`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ webhookResult: { webhookID: b } });
    expectODataError(await send("POST", `${S}/Webhook.Delete(${b})`), 404, "-1061");
    const c = await addHook({ webhook: `${receiver.url}/c`, tableName: "Notes" });
    expect(c).toBe(b + 1);

    const all = await send("GET", `${S}/Webhook.GetAll`);
    expect(all.status).toBe(200);
    expect(all.headers.get("content-type")).toBe("application/json;charset=utf-8");
    expect(all.body).toEqual({
      "@context": `${emu.url}/fmi/odata/v4/${DB}/$metadata#WebHook Processor`,
      status: "ACTIVE",
      webhooks: [
        { webhookID: a, tableName: "Contacts", webhook: `${receiver.url}/a`, headers: { "X-Custom-Header": "test-value" }, notifySchemaChanges: false, select: "", filter: "", pendingOperations: [] },
        { webhookID: c, tableName: "Notes", webhook: `${receiver.url}/c`, headers: {}, notifySchemaChanges: false, select: "", filter: "", pendingOperations: [] },
      ],
    });
    const one = await send("GET", `${S}/Webhook.Get(${a})`, undefined, { "OData-Version": "4.0" });
    expect(one.body).toEqual({ "@odata.context": `${emu.url}/fmi/odata/v4/${DB}/$metadata#WebHook`, ...all.body.webhooks[0] });
    expect(expectODataError(await send("GET", `${S}/Webhook.Get(999)`), 404, "-1061").message).toBe("Specified WebHook not found");
    expectODataError(await send("POST", `${S}/Webhook.Invoke(999)`), 404, "-1061");
  });

  it("survives the restart fault; wrong methods are 405, query options 400, an unknown table 404 -1020", async () => {
    const id = await addHook({ webhook: receiver.url, tableName: "Contacts" });
    emu.restart();
    emu.setFaults({ rates: { restart: 1 } });
    expect((await send("GET", `${S}/Webhook.Get(${id})`)).status).toBe(200);
    expect(emu.stats().faults.restart).toBe(1);
    emu.setFaults();
    expect((await getHook(id)).webhookID).toBe(id);
    expectODataError(await send("GET", `${S}/Webhook.Add`), 405, "-1002");
    expectODataError(await send("POST", `${S}/Webhook.GetAll`), 405, "-1002");
    expectODataError(await send("DELETE", `${S}/Webhook.Delete(${id})`), 405, "-1002");
    expectODataError(await send("GET", `${S}/Webhook.GetAll?$top=1`), 400, "-1002");
    expect(expectODataError(await send("POST", `${S}/Webhook.Add`, { webhook: receiver.url, tableName: "Nope" }), 404, "-1020").message).toBe("Table 'Nope' not defined in database");
    expectODataError(await send("POST", `${S}/Webhook.Delete(${id})`, { x: 1 }), 400, "-1002");
  });
});

describe("targets and options", () => {
  it("allowedHosts admits more hosts at Add; a bad webhooks option fails startEmulator naming it", async () => {
    const other = await startOffice(1, { webhooks: { allowedHosts: ["hooks.example.test", "::2"] } });
    try {
      const add = (webhook: string) => fetch(`${other.url}${S}/Webhook.Add`, { method: "POST", headers: { Authorization: auth(), "Content-Type": "application/json" }, body: JSON.stringify({ webhook, tableName: "Notes" }) });
      expect((await add("https://hooks.example.test/x")).status).toBe(200);
      expect((await add("http://[::2]:8080/x")).status).toBe(200);
      expect((await add("https://other.example.test/x")).status).toBe(400);
    } finally {
      await other.close();
    }
    await expect(startOffice(1, { webhooks: { allowedHosts: ["a.test:80"] } })).rejects.toThrow(/webhooks\.allowedHosts\[0\]/);
    await expect(startOffice(1, { webhooks: { retryDelayMs: 0 } })).rejects.toThrow(/webhooks\.retryDelayMs/);
    await expect(startOffice(1, { webhooks: { retries: 1 } as never })).rejects.toThrow(/webhooks\.retries is not an option/);
  });
});

describe("deliveries", () => {
  it("OData create, update and delete each POST to the webhook: JSON, endpoint headers, section 7's payload", async () => {
    const id = await addHook({ webhook: `${receiver.url}/hook?x=1`, tableName: "Contacts", endpointHeaders: { "X-Secret": "s3" }, select: "Name,Age,ROWID" });
    const c = await send("POST", `${S}/Contacts`, { Name: "Hook", Age: 5 });
    const rowid = (await send("GET", `${S}/Contacts('${c.body.id}')?$select=ROWID`)).body.ROWID as number;
    const [add] = await receiver.wait(1);
    expect(add).toMatchObject({ method: "POST", path: "/hook?x=1" });
    expect(add!.headers["content-type"]).toBe("application/json");
    expect(add!.headers["x-secret"]).toBe("s3");
    const link = `fmi/odata/v4/${DB}/Contacts('${c.body.id}')`;
    expect(add!.body).toEqual({ "@odata.context": `fmi/odata/v4/${DB}/$metadata#Contacts("Name","Age","ROWID")`, value: [{ "@odata.editLink": link, "@odata.id": link, Age: 5, Name: "Hook", ROWID: rowid }] });
    // Keys alphabetical (DSC), as sent on the wire.
    expect(Object.keys(add!.body.value[0])).toEqual(["@odata.editLink", "@odata.id", "Age", "Name", "ROWID"]);

    await send("PATCH", `${S}/Contacts('${c.body.id}')`, { Age: 6 });
    const [, update] = await receiver.wait(2);
    expect(update!.body.value).toEqual([{ "@odata.editLink": link, "@odata.id": link, Age: 6, Name: "Hook", ROWID: rowid }]);
    await send("DELETE", `${S}/Contacts('${c.body.id}')`);
    const [, , del] = await receiver.wait(3);
    expect(del!.body).toEqual({ "@odata.context": `fmi/odata/v4/${DB}/$metadata#Contacts("ROWID")`, value: [{ ROWID: rowid }] });
    expect((await getHook(id)).pendingOperations).toEqual([]);
  });

  it("Data API create, edit, duplicate and delete deliver too; a PATCH by $filter of several records is one POST, in order", async () => {
    await addHook({ webhook: receiver.url, tableName: "Contacts", select: "Name,ROWID" });
    const api = new DataApi(emu.url);
    const token = await api.login(USER, PASSWORD, DB);
    const created = await api.call("POST", `/databases/${DB}/layouts/Contacts/records`, { token, json: { fieldData: { Name: "viaDAPI" } } });
    const rid = Number(created.body.response.recordId);
    await api.call("PATCH", `/databases/${DB}/layouts/Contacts/records/${rid}`, { token, json: { fieldData: { Name: "edited" } } });
    const dup = await api.call("POST", `/databases/${DB}/layouts/Contacts/records/${rid}`, { token, json: {} });
    const copy = Number(dup.body.response.recordId);
    // Payloads are built when sent: the copy's ADD is out before it is deleted, or it would tell of nothing.
    await receiver.wait(3);
    await api.call("DELETE", `/databases/${DB}/layouts/Contacts/records/${copy}`, { token });
    const got = await receiver.wait(4);
    expect(got.map((g) => g.body.value)).toEqual([
      [expect.objectContaining({ Name: "viaDAPI", ROWID: rid })],
      [expect.objectContaining({ Name: "edited", ROWID: rid })],
      [expect.objectContaining({ Name: "edited", ROWID: copy })],
      [{ ROWID: copy }],
    ]);
    receiver.got.length = 0;
    const many = await send("PATCH", `${S}/Contacts?$filter=Name%20eq%20'edited'%20or%20Name%20eq%20'Ada'`, { Age: 77 });
    expect(many.headers.get("fmodata.affected_rows")).toBe("2");
    const [both] = await receiver.wait(1);
    expect(both!.body.value.map((v: any) => v.Name)).toEqual(["Ada", "edited"]);
    await sleep(50);
    expect(receiver.got).toHaveLength(1);
  });

  it("select and filter are the read path's: a change the filter does not keep is not sent; a bare id never delivers", async () => {
    await addHook({ webhook: receiver.url, tableName: "Notes", select: "Text", filter: "N gt 100" });
    await send("POST", `${S}/Notes`, { Text: "small", N: 1 });
    await send("POST", `${S}/Notes`, { Text: "big", N: 101 });
    const [one] = await receiver.wait(1);
    expect(one!.body.value).toEqual([{ "@odata.editLink": expect.stringMatching(/^fmi\/odata\/v4\/Office\/Notes\(\d+\)$/), "@odata.id": expect.any(String), Text: "big" }]);
    await sleep(50);
    expect(receiver.got).toHaveLength(1);

    // DSC: a select containing a bare `id` never delivers; the operation waits with the parse error.
    const bad = await addHook({ webhook: receiver.url, tableName: "Contacts", select: "id,Name", maxFailedAttempts: 0 });
    await send("POST", `${S}/Contacts`, { Name: "never" });
    await until(async_(() => getHook(bad), (h) => h.pendingOperations[0]?.sendAttempts >= 2));
    const op = (await getHook(bad)).pendingOperations[0];
    expect(op).toMatchObject({ operation: "ADD", status: "NOT_SENT", lastErrorCode: -1002, lastErrorMessage: "Error: parse failure in URL at: 'id'" });
    expect(receiver.got).toHaveLength(1);
    // Invoke builds the same payload at once: the read path's error, nothing queued.
    expect(expectODataError(await send("POST", `${S}/Webhook.Invoke(${bad})`), 400, "-1002").message).toBe("Error: parse failure in URL at: 'id'");
  });

  it("a failing receiver is retried, the attempts shown in pendingOperations, until it answers 2xx", async () => {
    receiver.statuses = [503];
    const id = await addHook({ webhook: receiver.url, tableName: "Notes", select: "Text" });
    await send("POST", `${S}/Notes`, { Text: "retry me" });
    // It fails until the receiver is mended: the operation waits, its attempts counted.
    await until(async_(() => getHook(id), (h) => h.pendingOperations[0]?.sendAttempts >= 2), 3_000);
    const [during] = (await getHook(id)).pendingOperations;
    expect(during).toMatchObject({ operation: "ADD", rowIDs: [expect.any(Number)], status: "NOT_SENT", lastErrorCode: 503, lastErrorMessage: "HTTP 503 Service Unavailable" });
    receiver.statuses = [204];
    await until(async_(() => getHook(id), (h) => h.pendingOperations.length === 0));
    const tries = receiver.got.length;
    expect(tries).toBeGreaterThanOrEqual(3);
    expect(new Set(receiver.got.map((g) => g.body.value[0].Text))).toEqual(new Set(["retry me"]));
    await sleep(150);
    expect(receiver.got).toHaveLength(tries);
  });

  it("maxFailedAttempts drops the operation after that many failures (logged); the next one is still sent", async () => {
    receiver.statuses = [500, 500, 500, 200];
    const id = await addHook({ webhook: receiver.url, tableName: "Notes", select: "Text", maxFailedAttempts: 2 });
    await send("POST", `${S}/Notes`, { Text: "doomed" });
    await receiver.wait(2);
    await until(() => logs.some((l) => l.includes(`webhook ${id} (Notes): dropped ADD of 1 record(s) after 2 failed attempt(s); last error 500`)));
    expect((await getHook(id)).pendingOperations).toEqual([]);
    await send("POST", `${S}/Notes`, { Text: "after" });
    const got = await receiver.wait(4);
    expect(got.map((g) => g.body.value[0].Text)).toEqual(["doomed", "doomed", "after", "after"]);
  });

  it("a receiver that is not there is retried with the connection error shown", async () => {
    const gone = await Receiver.start();
    const url = gone.url;
    await gone.close();
    const id = await addHook({ webhook: url, tableName: "Notes", maxFailedAttempts: 2 });
    await send("POST", `${S}/Notes`, { Text: "nobody" });
    // Retried every 20 ms, so the log line of the drop (after 2 attempts) is where the error is read.
    await until(() => logs.some((l) => l.startsWith(`webhook ${id} `)));
    expect(logs.find((l) => l.startsWith(`webhook ${id} `))).toMatch(/^webhook \d+ \(Notes\): dropped ADD of 1 record\(s\) after 2 failed attempt\(s\); last error -1: Error: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
    expect((await getHook(id)).pendingOperations).toEqual([]);
  });
});

describe("Invoke", () => {
  it("answers the payload of the rowIDs given (or of all records) and POSTs the same payload", async () => {
    const id = await addHook({ webhook: receiver.url, tableName: "Notes", select: "N", filter: "N le 3 and Text ne 'small'" });
    const some = await send("POST", `${S}/Webhook.Invoke(${id})`, { rowIDs: [2, 1, 4000, 2] });
    expect(some.status).toBe(200);
    expect(some.body["@odata.context"]).toBe(`fmi/odata/v4/${DB}/$metadata#Notes("N")`);
    expect(some.body.value.map((v: any) => v.N)).toEqual([2, 1]);
    const all = await send("POST", `${S}/Webhook.Invoke(${id})`);
    expect(all.body.value.map((v: any) => v.N)).toEqual([1, 2, 3]);
    const got = await receiver.wait(2);
    expect(got.map((g) => g.body)).toEqual([some.body, all.body]);
    for (const body of [{ rowIDs: "1" }, { rowIDs: [1.5] }, { rowIDs: [0] }, { rows: [1] }, "[1]", "{"]) expectODataError(await send("POST", `${S}/Webhook.Invoke(${id})`, body), 400, "-1002");
  });
});

describe("hostile bodies get an OData error naming the key", () => {
  const base = () => ({ webhook: "http://127.0.0.1:9/x", tableName: "Contacts" });
  it.each([
    [{ tableName: "Contacts" }, /"webhook" is required/],
    [{ webhook: "http://127.0.0.1:9/" }, /"tableName" is required/],
    [{ ...base(), webhook: 5 }, /"webhook" must be a string, got 5/],
    [{ ...base(), tableName: ["Contacts"] }, /"tableName" must be a string, got an array/],
    [{ ...base(), notifySchemaChanges: "yes" }, /"notifySchemaChanges" must be true or false/],
    [{ ...base(), maxFailedAttempts: -1 }, /"maxFailedAttempts" must be a whole number/],
    [{ ...base(), maxFailedAttempts: 1.5 }, /"maxFailedAttempts"/],
    [{ ...base(), select: 1 }, /"select" must be a string/],
    [{ ...base(), filter: {} }, /"filter" must be a string, got an object/],
    [{ ...base(), endpointHeaders: "X: y" }, /"endpointHeaders" must be an object/],
    [{ ...base(), endpointHeaders: { "X-N": 1 } }, /"endpointHeaders"."X-N" must be a string/],
    [{ ...base(), endpointHeaders: { "Bad Name": "v" } }, /not an HTTP token/],
    [{ ...base(), endpointHeaders: { "X-Inject": "a\r\nHost: evil" } }, /line break or control character/],
    [{ ...base(), endpointHeaders: { "Content-Length": "1" } }, /set by the emulator's delivery itself/],
    [{ ...base(), endpointHeaders: {}, headers: {} }, /not both/],
    [{ ...base(), queryHeaders: { "X-Other": "1" } }, /"queryHeaders"."X-Other" is not applied/],
    [{ ...base(), queryHeaders: { Accept: "application/xml" } }, /must allow application\/json/],
    [{ ...base(), queryHeaders: { Prefer: "return=minimal" } }, /does not apply to a webhook's payload/],
    [{ ...base(), nope: 1 }, /unknown key "nope"/],
    [{ ...base(), webhook: "ftp://127.0.0.1/x" }, /http or https URL/],
    [{ ...base(), webhook: "not a url" }, /absolute http or https URL/],
    [{ ...base(), webhook: "http://u:p@127.0.0.1/x" }, /user name or password/],
    [{ ...base(), webhook: "http://example.com/hook" }, /names "example.com"; the emulator delivers to loopback/],
    [{ ...base(), webhook: "http://10.0.0.1/hook" }, /loopback/],
    [{ ...base(), webhook: `http://127.0.0.1/${"x".repeat(1_000_000)}` }, /"webhook" is 1000017 characters long; at most 2048/],
    [{ ...base(), select: "a".repeat(100_000) }, /"select" is 100000 characters long/],
    [{ ...base(), endpointHeaders: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`X-H${i}`, "v"])) }, /more than 64 headers/],
    [{ ...base(), endpointHeaders: { "X-Big": "v".repeat(100_000) } }, /"endpointHeaders"."X-Big" is 100000 characters long/],
  ])("%#", async (body, message) => {
    const e = expectODataError(await send("POST", `${S}/Webhook.Add`, body), 400, "-1002");
    expect(e.message).toMatch(message);
    expect(e.message.length).toBeLessThan(400);
  });

  it("malformed JSON, a non-object and an empty body are refused; nothing was registered", async () => {
    for (const body of ["{", "[]", "42", ""]) expectODataError(await send("POST", `${S}/Webhook.Add`, body), 400, "-1002");
    expect((await send("GET", `${S}/Webhook.GetAll`)).body.webhooks).toEqual([]);
  });
});

/** A poll condition over an async read: the last value read is tested. */
function async_<T>(read: () => Promise<T>, test: (value: T) => boolean): () => boolean {
  let last: T | undefined;
  let busy = false;
  return () => {
    if (!busy) {
      busy = true;
      void read().then((v) => {
        last = v;
        busy = false;
      });
    }
    return last !== undefined && test(last);
  };
}
