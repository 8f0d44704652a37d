import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import { basic, CONTACTS, DataApi, DB, expectError, p, PASSWORD, USER, type HttpResult } from "../../support/data-api-http.js";

// docs/emulator.md, "The wider Data API of real servers": no parameter is silently ignored. A query parameter or body
// key that no real server knows answers HTTP 400, code 960, naming it, on every route, under both status modes, and
// changes nothing.

let emu: Emulator;
let api: DataApi;
let serverEmu: Emulator;
let serverApi: DataApi;

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator());
  ({ emu: serverEmu, api: serverApi } = await startConformanceEmulator({ serverStatuses: true }));
});
afterAll(async () => {
  await emu.close();
  await serverEmu.close();
});

const LAYOUT = p`/databases/${DB}/layouts/${CONTACTS}`;

/** Every route, with a request of it that carries one unknown name (the third member), in the query or the body. */
function unknownNameCalls(api: DataApi, token: string): [string, () => Promise<HttpResult>, string][] {
  const call = (method: string, path: string, json?: unknown) => () => api.call(method, path, { token, ...(json === undefined ? {} : { json }) });
  return [
    ["list: ?bogus", call("GET", `${LAYOUT}/records?bogus=1`), "bogus"],
    ["list: ?offset (find's spelling)", call("GET", `${LAYOUT}/records?_offset=1&offset=1`), "offset"],
    ["get: ?bogus", call("GET", `${LAYOUT}/records/1?bogus=1`), "bogus"],
    ["get: ?_limit (a list parameter)", call("GET", `${LAYOUT}/records/1?_limit=1`), "_limit"],
    ["delete: ?bogus", call("DELETE", `${LAYOUT}/records/999999?bogus=1`), "bogus"],
    ["create: body key bogus", call("POST", `${LAYOUT}/records`, { fieldData: { "First Name": "X" }, bogus: 1 }), "bogus"],
    ["create: body key modId (an edit's key)", call("POST", `${LAYOUT}/records`, { fieldData: { "First Name": "X" }, modId: "0" }), "modId"],
    ["edit: body key bogus", call("PATCH", `${LAYOUT}/records/1`, { fieldData: { "First Name": "X" }, bogus: 1 }), "bogus"],
    ["find: body key bogus", call("POST", `${LAYOUT}/_find`, { query: [{ "First Name": "Ada" }], bogus: 1 }), "bogus"],
    ["find: body key _limit (list's spelling)", call("POST", `${LAYOUT}/_find`, { query: [{ "First Name": "Ada" }], _limit: "1" }), "_limit"],
    ["layouts: ?bogus", call("GET", p`/databases/${DB}/layouts?bogus=1`), "bogus"],
    ["layout metadata: ?bogus", call("GET", `${LAYOUT}?bogus=1`), "bogus"],
  ];
}

describe("rule one: an unknown parameter answers 960 naming it", () => {
  it.each([
    ["the contract's statuses", () => ({ emu, api })],
    ["real servers' statuses (--server-statuses)", () => ({ emu: serverEmu, api: serverApi })],
  ] as const)("every route, %s: HTTP 400, code 960, the name in the message, nothing changed", async (_, which) => {
    const { emu, api } = which();
    const token = await api.login();
    const before = emu.stats().records;
    for (const [what, send, name] of unknownNameCalls(api, token)) {
      const res = await send();
      expectError(res, 400, "960");
      expect(res.body.messages[0]!.message, what).toBe(`Unknown parameter(s): ${name}`);
    }
    expect(emu.stats().records).toEqual(before);
  });

  it("login: a body key other than fmDataSource answers 960 and signs nobody in", async () => {
    const logins = emu.stats().logins;
    const res = await api.call("POST", p`/databases/${DB}/sessions`, { json: { fmDataSource: [], bogus: true }, headers: { Authorization: basic(USER, PASSWORD) } });
    expectError(res, 400, "960");
    expect(res.body.messages[0]!.message).toBe("Unknown parameter(s): bogus");
    expect(emu.stats().logins).toBe(logins);
  });

  it("several unknown names are all listed, once each", async () => {
    const token = await api.login();
    const res = await api.call("GET", `${LAYOUT}/records?zeta=1&alpha=2&zeta=3`, { token });
    expectError(res, 400, "960");
    expect(res.body.messages[0]!.message).toBe("Unknown parameter(s): zeta, alpha");
  });
});
