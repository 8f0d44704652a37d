import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWebViewerClient, NetworkError, RecordMissingError, StepUnsupportedError, type FileMakerClient, type WebViewerClientOptions } from "@fmgen/runtime/webviewer";
import { Contact, DATABASE } from "../support/runtime-layouts.js";

// The page's side of the Web Viewer bridge, in node with no browser: a fake window.FileMaker checks each parameter
// as FileMaker's bridge script reads it and answers later (as Perform JavaScript in Web Viewer does) by calling the
// page's callback with a canned envelope.

const SCRIPT = "fmgen webviewer";

interface Parameter {
  v: number;
  id: string;
  callback: string;
  webViewer?: string;
  request?: Record<string, unknown>;
  script?: { name: string; parameter?: string };
}

interface Sent {
  script: string;
  parameter: Parameter;
  option: string | undefined;
}

type Win = Record<string, unknown> & { FileMaker?: unknown };

const envelope = (response: object, code = "0", message = code === "0" ? "OK" : "Error") => JSON.stringify({ response, messages: [{ code, message }] });

const fieldData = (id: number) => ({
  id,
  "First Name": "Ada",
  "Last Name": "Lovelace",
  Email: "ada@example.com",
  Status: "Active",
  Birthday: "12/10/1815",
  "Wake Up": "07:00:00",
  Created: "",
  Modified: "",
  Photo: "",
  "Phone(1)": "",
  "Phone(2)": "",
  "Phone(3)": "",
  Phone: "",
  "Company::Name": "",
});
const record = (id: number, portalData: object = {}) => ({ recordId: String(id), modId: "3", fieldData: fieldData(id), portalData });
const page = (ids: number[]) => ({
  dataInfo: { database: DATABASE, layout: "Contacts Web", table: "Contacts", totalRecordCount: 10, foundCount: ids.length, returnedCount: ids.length },
  data: ids.map((id) => record(id)),
});

let win: Win;
let sent: Sent[];
/** How the fake FileMaker answers a parameter: the result text, or undefined for no answer at all. */
let answer: (parameter: Parameter) => string | undefined;
/** When set, answers wait for this promise (so that a test sees which calls are in flight). */
let hold: Promise<void> | undefined;
let clients: FileMakerClient[];

function fakeFileMaker(withOption = true): void {
  const perform = (script: string, text: string, option?: string) => {
    const parameter = JSON.parse(text) as Parameter;
    expect(parameter.v).toBe(1);
    expect(typeof parameter.id).toBe("string");
    expect(parameter.callback).toMatch(/^__fmgen_wv_[0-9a-z]+$/);
    expect(typeof win[parameter.callback]).toBe("function");
    expect("request" in parameter !== "script" in parameter).toBe(true);
    sent.push({ script, parameter, option });
    const result = answer(parameter);
    if (result === undefined) return;
    void (async () => {
      await hold;
      await new Promise((resolve) => setTimeout(resolve, 1));
      (win[parameter.callback] as (id: string, text: string) => void)(parameter.id, result);
    })();
  };
  win.FileMaker = withOption ? { PerformScriptWithOption: perform, PerformScript: () => expect.unreachable("PerformScript used although WithOption is there") } : { PerformScript: (script: string, text: string) => perform(script, text) };
}

function client(options: Partial<WebViewerClientOptions> = {}): FileMakerClient {
  const fm = createWebViewerClient({ database: DATABASE, script: SCRIPT, webViewer: "web", timeoutMs: 2_000, ...options });
  clients.push(fm);
  return fm;
}

const rejection = (promise: Promise<unknown>) => promise.then((value) => ({ resolved: value }), (error: unknown) => error);

beforeEach(() => {
  win = {};
  (globalThis as { window?: Win }).window = win;
  sent = [];
  hold = undefined;
  answer = () => envelope(page([1]));
  clients = [];
});
afterEach(async () => {
  for (const fm of clients) await fm.close();
  delete (globalThis as { window?: Win }).window;
});

describe("createWebViewerClient: the bridge", () => {
  it("sends the parameter the bridge script reads, through PerformScriptWithOption, and decodes the answer", async () => {
    fakeFileMaker();
    const fm = client({ option: 5 });
    const result = await fm.layout(Contact).list();
    expect(result.data[0]!.fieldData["Last Name"]).toBe("Lovelace");
    expect(result.data[0]!.fieldData.Birthday).toBe("1815-12-10");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.script).toBe(SCRIPT);
    expect(sent[0]!.option).toBe("5");
    expect(sent[0]!.parameter).toMatchObject({ v: 1, webViewer: "web", request: { action: "read", version: "vLatest", layouts: "Contacts Web" } });
  });

  it("names the web viewer \"fmgen\" when webViewer is not given: the bridge script answers only through a named one", async () => {
    fakeFileMaker();
    const fm = createWebViewerClient({ database: DATABASE, script: SCRIPT, timeoutMs: 2_000 });
    clients.push(fm);
    await fm.layout(Contact).list();
    expect(sent[0]!.parameter).toMatchObject({ v: 1, webViewer: "fmgen" });
  });

  it("falls back to PerformScript when FileMaker has no PerformScriptWithOption; the option defaults to 0", async () => {
    fakeFileMaker(false);
    await client().layout(Contact).get(1);
    expect(sent[0]!.option).toBeUndefined();
    sent = [];
    fakeFileMaker();
    await client().layout(Contact).get(1);
    expect(sent[0]!.option).toBe("0");
  });

  it("sends calls one at a time, in the order they were made", async () => {
    fakeFileMaker();
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    answer = (p) => envelope(page([Number((p.request as { recordId?: string }).recordId ?? 1)]));
    const contacts = client().layout(Contact);
    const first = contacts.get(7);
    const second = contacts.get(8);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The second waits for the first's answer: FileMaker runs one script at a time.
    expect(sent.map((s) => s.parameter.request!.recordId)).toEqual(["7"]);
    release();
    expect((await first).recordId).toBe("7");
    expect((await second).recordId).toBe("8");
    expect(sent.map((s) => s.parameter.request!.recordId)).toEqual(["7", "8"]);
    expect(new Set(sent.map((s) => s.parameter.id)).size).toBe(2);
  });

  it("fails a call whose answer never comes with a timeout naming the script and the action, and goes on with the next", async () => {
    fakeFileMaker();
    answer = (p) => ((p.request as { recordId?: string }).recordId === "1" ? undefined : envelope(page([2])));
    const contacts = client({ timeoutMs: 50 }).layout(Contact);
    const error = await rejection(contacts.get(1));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).reason).toBe("timeout");
    expect((error as Error).message).toContain(`FileMaker script "${SCRIPT}"`);
    expect((error as Error).message).toContain('read on layout "Contacts Web"');
    expect((error as Error).message).toContain("within 50 ms");
    expect((await contacts.get(2)).recordId).toBe("2");
  });

  it("says what is missing when the page has no window.FileMaker", async () => {
    const error = await rejection(client().layout(Contact).list());
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toContain("window.FileMaker is missing");
    expect((error as Error).message).toContain("FileMaker Web Viewer");
    expect((error as Error).message).toContain("the emulator's webviewer.js before the app");
    win.FileMaker = {};
    expect(((await rejection(client().layout(Contact).list())) as Error).message).toContain("window.FileMaker has neither PerformScriptWithOption nor PerformScript");
  });

  it("waits for window.FileMaker when FileMaker adds it after the page has loaded", async () => {
    const call = client().layout(Contact).list();
    setTimeout(() => fakeFileMaker(), 60);
    expect((await call).data).toHaveLength(1);
  });

  it("ignores an answer with an id it did not send, and a second answer to the same call", async () => {
    fakeFileMaker();
    answer = () => undefined;
    const contacts = client().layout(Contact);
    const call = contacts.get(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const { id, callback } = sent[0]!.parameter;
    const back = win[callback] as (id: string, text: string) => void;
    back("not-an-id", envelope({}, "101", "Record is missing"));
    back(id, envelope(page([1])));
    back(id, envelope({}, "101", "Record is missing"));
    expect((await call).recordId).toBe("1");
  });

  it("owns one global callback per client, removed on close", async () => {
    fakeFileMaker();
    const a = client();
    const b = client();
    await a.layout(Contact).get(1);
    await b.layout(Contact).get(1);
    const [ca, cb] = sent.map((s) => s.parameter.callback);
    expect(ca).not.toBe(cb);
    await a.close();
    expect(win[ca!]).toBeUndefined();
    expect(typeof win[cb!]).toBe("function");
  });

  it("checks its options by name", () => {
    expect(() => createWebViewerClient({ database: DATABASE, script: "" })).toThrow(/options\.script/);
    expect(() => createWebViewerClient({ database: DATABASE, script: SCRIPT, option: 9 as 0 })).toThrow(/options\.option must be one of 0\|1\|2\|3\|4\|5/);
    expect(() => createWebViewerClient({ database: DATABASE, script: SCRIPT, timeoutMs: "5" as unknown as number })).toThrow(/options\.timeoutMs must be a number/);
  });
});

describe("createWebViewerClient: each call as the step's request", () => {
  const request = (i = 0) => sent[i]!.parameter.request!;
  beforeEach(() => fakeFileMaker());

  it("list: read with offset, limit and sort", async () => {
    await client().layout(Contact).list({ offset: 11, limit: 5, sort: [{ fieldName: "Last Name", sortOrder: "descend" }] });
    expect(request()).toEqual({ action: "read", version: "vLatest", layouts: "Contacts Web", offset: 11, limit: 5, sort: [{ fieldName: "Last Name", sortOrder: "descend" }] });
  });

  it("get: read with recordId", async () => {
    await client().layout(Contact).get(42);
    expect(request()).toEqual({ action: "read", version: "vLatest", layouts: "Contacts Web", recordId: "42" });
  });

  it("find: read with query (omit kept), sort, offset and limit", async () => {
    await client().layout(Contact).find({ query: [{ Status: "Active" }, { Email: "x@example.com", omit: true }], sort: [{ fieldName: "Email" }], offset: 2, limit: 3 });
    expect(request()).toEqual({
      action: "read",
      version: "vLatest",
      layouts: "Contacts Web",
      query: [{ Status: "==Active" }, { Email: "==x\\@example\\.com", omit: "true" }],
      sort: [{ fieldName: "Email" }],
      offset: 2,
      limit: 3,
    });
  });

  it("create, edit, delete and duplicate", async () => {
    answer = (p) => envelope(p.request!.action === "delete" ? {} : p.request!.action === "update" ? { modId: "4" } : { recordId: "9", modId: "0" });
    const contacts = client().layout(Contact);
    expect(await contacts.create({ fieldData: { "First Name": "Grace" } })).toEqual({ recordId: "9", modId: "0" });
    expect(await contacts.edit(9, { fieldData: { Email: "g@example.com" }, modId: "0" })).toEqual({ modId: "4" });
    await contacts.delete(9);
    expect(await contacts.duplicate(9)).toEqual({ recordId: "9", modId: "0" });
    expect(sent.map((s) => s.parameter.request)).toEqual([
      { action: "create", version: "vLatest", layouts: "Contacts Web", fieldData: { "First Name": "Grace" } },
      { action: "update", version: "vLatest", layouts: "Contacts Web", recordId: "9", fieldData: { Email: "g@example.com" }, modId: "0" },
      { action: "delete", version: "vLatest", layouts: "Contacts Web", recordId: "9" },
      { action: "duplicate", version: "vLatest", layouts: "Contacts Web", recordId: "9" },
    ]);
  });

  it("portal ranges and portalData on a create", async () => {
    answer = (p) => envelope(p.request!.action === "create" ? { recordId: "9", modId: "0" } : { ...page([]), data: [record(1, { Invoices: [] })] });
    const contacts = client().layout(Contact);
    await contacts.get(1, { portals: { Invoices: { offset: 2, limit: 10 } } });
    await contacts.find({ query: [{ Status: "Active" }], portals: { Invoices: { limit: 4 } } });
    await contacts.create({ fieldData: {}, portalData: { Invoices: [{ "Invoices::Amount": 12 }] } });
    expect(request(0)).toEqual({ action: "read", version: "vLatest", layouts: "Contacts Web", recordId: "1", portal: ["Invoices"], "offset.Invoices": 2, "limit.Invoices": 10 });
    expect(request(1)).toMatchObject({ action: "read", portal: ["Invoices"], "limit.Invoices": 4, query: [{ Status: "==Active" }] });
    expect(request(2)).toEqual({ action: "create", version: "vLatest", layouts: "Contacts Web", fieldData: {}, portalData: { Invoices: [{ "Invoices::Amount": 12 }] } });
  });

  it("the response layout and script options, with the scripts' results read back", async () => {
    answer = () => envelope({ ...page([1]), scriptResult: "done", scriptError: "0" });
    const result = await client().layout(Contact).list({ response: Contact, script: { name: "After", param: "p" } });
    expect(request()).toEqual({ action: "read", version: "vLatest", layouts: "Contacts Web", "layout.response": "Contacts Web", script: "After", "script.param": "p" });
    expect(result.scripts).toEqual({ after: { result: "done", error: "0" } });
  });

  it("dateFormat iso sends dateformats 2", async () => {
    answer = () => envelope({ ...page([]), data: [{ ...record(1), fieldData: { ...fieldData(1), Birthday: "1815-12-10" } }] });
    await client({ dateFormat: "iso" }).layout(Contact).get(1);
    expect(request()).toMatchObject({ recordId: "1", dateformats: 2 });
  });

  it("runScript: a named script with its parameter, and its result and error", async () => {
    answer = () => envelope({ scriptResult: "sent", scriptError: "0" });
    expect(await client().runScript(Contact, "Send Invoice", { param: "7" })).toEqual({ result: "sent", error: "0" });
    expect(sent[0]!.parameter.script).toEqual({ name: "Send Invoice", parameter: "7" });
    expect(sent[0]!.parameter.request).toBeUndefined();
    await client().runScript("Contacts Web", "No Param");
    expect(sent[1]!.parameter.script).toEqual({ name: "No Param" });
  });

  it("layouts(): metaData with empty layouts", async () => {
    answer = () => envelope({ layouts: [{ name: "Contacts Web" }] });
    expect(await client().layouts()).toEqual([{ name: "Contacts Web" }]);
    expect(request()).toEqual({ action: "metaData", version: "vLatest", layouts: "" });
  });
});

describe("createWebViewerClient: answers and refusals as over HTTP", () => {
  beforeEach(() => fakeFileMaker());

  it("101 is a RecordMissingError; a find matching nothing (401) an empty page; a list returning nothing (101) too", async () => {
    answer = () => envelope({}, "101", "Record is missing");
    const contacts = client().layout(Contact);
    const error = await rejection(contacts.get(5));
    expect(error).toBeInstanceOf(RecordMissingError);
    expect((error as RecordMissingError).code).toBe("101");
    // No HTTP exchange took place: the error claims no status.
    expect((error as RecordMissingError).httpStatus).toBe(0);
    expect((error as Error).message).not.toMatch(/HTTP/);
    expect((await contacts.list()).data).toEqual([]);
    answer = () => envelope({}, "401", "No records match the request");
    const found = await contacts.find({ query: [{ Status: "Active" }] });
    expect(found.data).toEqual([]);
    expect(found.dataInfo.foundCount).toBe(0);
  });

  it("a result that is not an envelope is a ProtocolError quoting its start", async () => {
    answer = () => "Error: the Data API step failed";
    const error = await rejection(client().layout(Contact).get(1));
    expect((error as Error).name).toBe("ProtocolError");
    expect((error as Error).message).toContain("Error: the Data API step failed");
  });

  it("sign-ins and logouts are answered without FileMaker", async () => {
    const fm = client();
    await fm.layout(Contact).get(1);
    await fm.logout();
    await fm.layout(Contact).get(1);
    expect(sent.map((s) => s.parameter.request!.action)).toEqual(["read", "read"]);
  });

  it("an upload is refused, saying why, and nothing is sent", async () => {
    const error = await rejection(client().layout(Contact).upload(1, "Photo", new Uint8Array([1, 2, 3])));
    expect(error).toBeInstanceOf(StepUnsupportedError);
    expect((error as Error).message).toContain("cannot upload into a container field");
    expect(sent).toEqual([]);
  });

  it("setGlobals, productInfo, databases and scripts are refused, saying why", async () => {
    const fm = client();
    expect(((await rejection(fm.setGlobals({ "G::x": "1" }))) as Error).message).toContain("cannot set global fields");
    expect(await rejection(fm.productInfo())).toBeInstanceOf(StepUnsupportedError);
    expect(await rejection(fm.databases())).toBeInstanceOf(StepUnsupportedError);
    expect(((await rejection(fm.scripts())) as Error).message).toContain("cannot list the file's scripts");
    expect(sent).toEqual([]);
  });

  it("an aborted call rejects and its late answer is ignored", async () => {
    answer = () => undefined;
    const controller = new AbortController();
    const contacts = client().layout(Contact);
    const call = rejection(contacts.get(1, { signal: controller.signal }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const error = await call;
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).reason).toBe("aborted");
  });
});
