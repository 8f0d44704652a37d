import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEVER_ANSWERING_SCRIPT, startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import type { LayoutDescriptionInput } from "../../src/layout/schema.js";

// docs/emulator.md, "Web Viewer bridge": the in-process bridge (startEmulator().webViewer()) with a fake window
// object: the bridge protocol's calls answered from the hosted file through the Data API's own logic, the callback
// called asynchronously and in order.

const DB = "Shop";
const CUSTOMERS: LayoutDescriptionInput = {
  database: DB,
  layout: "Customers",
  table: "Customers",
  fields: [
    { name: "id", type: "number", readOnly: true, autoEnter: "serial" },
    { name: "Name", type: "text" },
    { name: "City", type: "text" },
  ],
  portals: [
    {
      name: "Orders",
      table: "Orders",
      relation: { parentField: "id", childField: "CustomerID" },
      fields: [{ name: "Orders::Item", type: "text" }],
    },
  ],
};
const ORDERS: LayoutDescriptionInput = {
  database: DB,
  layout: "Orders",
  table: "Orders",
  fields: [
    { name: "CustomerID", type: "number" },
    { name: "Item", type: "text" },
  ],
};

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({
    layouts: [CUSTOMERS, ORDERS],
    data: { accounts: [{ username: "web", password: "secret" }], records: { Customers: [{ Name: "Ada", City: "London" }] } },
    scripts: { Greet: (ctx) => ({ result: `hello ${ctx.param}` }), Fail: () => ({ error: "101" }) },
    log: () => undefined,
  });
});
afterAll(() => emulator.close());

type Answers = [id: string, result: any][];

/** A page: a fake window with the callback, the emulated Web Viewer installed on it. */
function page(options?: Parameters<RunningEmulator["webViewer"]>[0]) {
  const answers: Answers = [];
  const window: Record<string, unknown> = { fmgenAnswer: (id: string, result: string) => answers.push([id, JSON.parse(result)]) };
  const viewer = emulator.webViewer(options);
  viewer.install(window);
  let n = 0;
  const call = (request: object) => {
    const id = `c${++n}`;
    (window.FileMaker as any).PerformScriptWithOption("fmgen webviewer", JSON.stringify({ v: 1, id, callback: "fmgenAnswer", webViewer: "web", request }), 0);
    return id;
  };
  const script = (name: string, parameter?: string) => {
    const id = `c${++n}`;
    (window.FileMaker as any).PerformScript("fmgen webviewer", JSON.stringify({ v: 1, id, callback: "fmgenAnswer", webViewer: "web", script: { name, parameter } }));
    return id;
  };
  return { window, viewer, answers, call, script, answer: (id: string) => answers.find(([i]) => i === id)?.[1] };
}

const code = (result: any) => result.messages[0].code;

describe("the emulated Web Viewer bridge, in process", () => {
  it("creates a record with portal rows, gets it and finds it", async () => {
    const p = page();
    const created = p.call({ action: "create", layouts: "Customers", fieldData: { Name: "Grace", City: "Arlington" }, portalData: { Orders: [{ "Orders::Item": "Compiler" }, { "Orders::Item": "Manual" }] } });
    await p.viewer.settled();
    expect(code(p.answer(created))).toBe("0");
    const recordId = p.answer(created).response.recordId;
    expect(recordId).toMatch(/^\d+$/);

    const got = p.call({ action: "read", layouts: "Customers", recordId });
    const found = p.call({ action: "read", layouts: "Customers", query: [{ City: "Arlington" }] });
    const listed = p.call({ layouts: "Customers", limit: 1, sort: [{ fieldName: "Name", sortOrder: "descend" }] });
    await p.viewer.settled();
    const record = p.answer(got).response.data[0];
    expect(record.fieldData.Name).toBe("Grace");
    expect(record.portalData.Orders.map((row: any) => row["Orders::Item"])).toEqual(["Compiler", "Manual"]);
    expect(p.answer(found).response.data.map((r: any) => r.fieldData.Name)).toEqual(["Grace"]);
    expect(p.answer(listed).response.data.map((r: any) => r.fieldData.Name)).toEqual(["Grace"]);
    expect(p.answer(listed).response.dataInfo.returnedCount).toBe(1);
  });

  it("answers the Data API's error codes in the envelope: a find with no match 401, a missing record 101, a missing layout 105, a stale modId 306", async () => {
    const p = page();
    const none = p.call({ layouts: "Customers", query: [{ City: "Atlantis" }] });
    const missing = p.call({ layouts: "Customers", recordId: 999 });
    const noLayout = p.call({ layouts: "Nope" });
    const created = p.call({ action: "create", layouts: "Customers", fieldData: { Name: "Alan" } });
    await p.viewer.settled();
    expect(code(p.answer(none))).toBe("401");
    expect(code(p.answer(missing))).toBe("101");
    expect(code(p.answer(noLayout))).toBe("105");
    const { recordId, modId } = p.answer(created).response;
    const edited = p.call({ action: "update", layouts: "Customers", recordId, modId, fieldData: { City: "Wilmslow" } });
    const stale = p.call({ action: "update", layouts: "Customers", recordId, modId, fieldData: { City: "Bletchley" } });
    const duplicated = p.call({ action: "duplicate", layouts: "Customers", recordId });
    const deleted = p.call({ action: "delete", layouts: "Customers", recordId });
    await p.viewer.settled();
    expect(code(p.answer(edited))).toBe("0");
    expect(code(p.answer(stale))).toBe("306");
    expect(code(p.answer(duplicated))).toBe("0");
    expect(code(p.answer(deleted))).toBe("0");
  });

  it("passes the step's other keys to the call: portal ranges as the GET or _find names them, an unknown key 960; version is the step's own", async () => {
    const p = page();
    const created = p.call({ action: "create", layouts: "Customers", fieldData: { Name: "Katherine", City: "Hampton" }, portalData: { Orders: [{ "Orders::Item": "A" }, { "Orders::Item": "B" }, { "Orders::Item": "C" }] } });
    await p.viewer.settled();
    const { recordId } = p.answer(created).response;
    const got = p.call({ version: "v1", layouts: "Customers", recordId, "offset.Orders": 2, "limit.Orders": 1 });
    const found = p.call({ version: "vLatest", layouts: "Customers", query: [{ City: "Hampton" }], "limit.Orders": 2 });
    const unknown = p.call({ layouts: "Customers", colour: "blue" });
    const bad = p.call({ action: "upsert", layouts: "Customers" });
    await p.viewer.settled();
    expect(p.answer(got).response.data[0].portalData.Orders.map((row: any) => row["Orders::Item"])).toEqual(["B"]);
    expect(p.answer(found).response.data[0].portalData.Orders.map((row: any) => row["Orders::Item"])).toEqual(["A", "B"]);
    expect(code(p.answer(unknown))).toBe("960");
    expect(code(p.answer(bad))).toBe("1708");
  });

  it("answers metaData: a layout's, the layout list; tables is an error code", async () => {
    const p = page();
    const layout = p.call({ action: "metaData", layouts: "Customers" });
    const list = p.call({ action: "metaData" });
    const tables = p.call({ action: "metaData", tables: "Customers" });
    await p.viewer.settled();
    expect(p.answer(layout).response.fieldMetaData.map((f: any) => f.name)).toEqual(["id", "Name", "City"]);
    expect(p.answer(list).response.layouts.map((l: any) => l.name)).toEqual(expect.arrayContaining(["Customers", "Orders"]));
    expect(code(p.answer(tables))).toBe("1708");
  });

  it("runs a named script through the handlers: scriptResult and scriptError", async () => {
    const p = page();
    const greeted = p.script("Greet", "Ada");
    const failed = p.script("Fail");
    await p.viewer.settled();
    expect(p.answer(greeted)).toEqual({ response: { scriptResult: "hello Ada", scriptError: "0" }, messages: [{ code: "0", message: "OK" }] });
    expect(p.answer(failed).response.scriptError).toBe("101");
  });

  it("calls the callback asynchronously, never in the turn of the call, and in the order of the calls", async () => {
    const p = page();
    const ids = [p.call({ layouts: "Customers", query: [{ City: "Atlantis" }] }), p.script("Greet", "x"), p.call({ layouts: "Customers", limit: 1 })];
    expect(p.answers).toEqual([]);
    await Promise.resolve();
    expect(p.answers).toEqual([]);
    await p.viewer.settled();
    expect(p.answers.map(([id]) => id)).toEqual(ids);
  });

  it("never answers a silenced call or the never-answering script, and answers the calls after them", async () => {
    const p = page();
    p.viewer.neverAnswer((call) => call.request?.layouts === "Orders");
    const hung = p.call({ layouts: "Orders" });
    const hungScript = p.script(NEVER_ANSWERING_SCRIPT);
    const after = p.call({ layouts: "Customers", limit: 1 });
    await p.viewer.settled();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(p.answer(hung)).toBeUndefined();
    expect(p.answer(hungScript)).toBeUndefined();
    expect(code(p.answer(after))).toBe("0");
  });

  it("signs in again once the session has expired", async () => {
    const p = page({ account: "web" });
    const first = p.call({ layouts: "Customers", limit: 1 });
    await p.viewer.settled();
    emulator.advanceTime(16 * 60_000);
    const second = p.call({ layouts: "Customers", limit: 1 });
    await p.viewer.settled();
    expect([code(p.answer(first)), code(p.answer(second))]).toEqual(["0", "0"]);
  });

  it("refuses an unknown account, and leaves a call for another Web Viewer unanswered", async () => {
    expect(() => emulator.webViewer({ account: "nobody" })).toThrow(/no password account named "nobody"/);
    const p = page({ webViewer: "other" });
    const id = p.call({ layouts: "Customers" });
    await p.viewer.settled();
    expect(p.answer(id)).toBeUndefined();
  });
});
