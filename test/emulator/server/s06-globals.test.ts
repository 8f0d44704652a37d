import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../../src/emulator/index.js";
import { DataApi, expectError, expectOk, p, type HttpResult } from "../../support/data-api-http.js";

// docs/emulator.md, "6. Globals": PATCH /databases/{db}/globals sets global fields for the calling session only,
// names fully qualified; a global field on a layout reads back its session's value; a non-global or unknown field
// is 102; globals cannot be find criteria. Over loopback HTTP, under both status modes where an error is answered.

const DB = "Prefs";
const PEOPLE = "People";
const VERSIONS = ["v1", "v2", "vLatest"] as const;

const LAYOUTS = [
  {
    database: DB,
    layout: PEOPLE,
    table: "People",
    fields: [
      { name: "Name", type: "text" },
      { name: "gGreeting", type: "text", global: true },
      { name: "gRep", type: "text", global: true, repetitions: 3 },
      { name: "gCount", type: "number", global: true },
      { name: "gDay", type: "date", global: true },
      { name: "gRequired", type: "text", global: true },
      { name: "gLogo", type: "container", global: true },
      { name: "Theme::gColor", type: "text", global: true },
      { name: "gKey", type: "number", global: true },
    ],
    portals: [
      {
        name: "Chosen",
        table: "Items",
        relation: { parentField: "gKey", childField: "Key" },
        fields: [{ name: "Items::Label", type: "text" }],
      },
    ],
  },
  { database: DB, layout: "Items", table: "Items", fields: [{ name: "Key", type: "number" }, { name: "Label", type: "text" }] },
];

const SEED = {
  accounts: [{ username: "web", password: "secret" }],
  records: {
    People: [{ Name: "Ada", gGreeting: "file hello", "gRep(3)": "third" }, { Name: "Grace" }],
    Items: [
      { Key: 1, Label: "one" },
      { Key: 2, Label: "two" },
      { Key: 2, Label: "two again" },
    ],
  },
};

type Emulator = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emulator;
let api: DataApi;
let serverEmu: Emulator;
let serverApi: DataApi;

beforeAll(async () => {
  emu = await startEmulator({ layouts: LAYOUTS as never, data: SEED });
  api = new DataApi(emu.url);
  serverEmu = await startEmulator({ layouts: LAYOUTS as never, data: SEED, serverStatuses: true });
  serverApi = new DataApi(serverEmu.url);
});
afterAll(async () => {
  await emu.close();
  await serverEmu.close();
});

const login = (a = api) => a.login("web", "secret", DB);
const setGlobals = (a: DataApi, token: string, globalFields: unknown): Promise<HttpResult> => a.call("PATCH", p`/databases/${DB}/globals`, { token, json: { globalFields } });
const fieldsOf = async (a: DataApi, token: string, recordId = "1") => (await a.getOk(token, PEOPLE, recordId, DB)).fieldData;

/** Each check under both status modes: the FileMaker error's status is 400 with the contract's, 500 with real servers'. */
async function eachStatusMode(work: (a: DataApi, token: string, fileMakerStatus: number) => Promise<void>): Promise<void> {
  for (const [a, status] of [
    [api, 400],
    [serverApi, 500],
  ] as const) {
    await work(a, await login(a), status);
  }
}

describe("the wider Data API, section 6: globals", () => {
  it.each(VERSIONS)("6. PATCH .../globals { globalFields } answers { response: {} } and the value reads back (%s)", async (version) => {
    const a = api.withVersion(version);
    const token = await login(a);
    const res = await setGlobals(a, token, { "People::gGreeting": `hi from ${version}` });
    expect(expectOk(res)).toEqual({});
    expect(res.body.messages).toEqual([{ code: "0", message: "OK" }]);
    expect((await fieldsOf(a, token)).gGreeting).toBe(`hi from ${version}`);
  });

  it('6. names are fully qualified ("TO::field"): a bare field name is 102, as is a table occurrence that has no such field', async () => {
    await eachStatusMode(async (a, token, status) => {
      for (const name of ["gGreeting", "Nobody::gGreeting", "People::nope", "::gGreeting"]) {
        const res = await setGlobals(a, token, { [name]: "x" });
        expectError(res, status, "102");
      }
      expect((await fieldsOf(a, token)).gGreeting).toBe("file hello");
    });
  });

  it('6. "TO::gRep(2)" sets that repetition only; the others keep their values (the file\'s until the session sets them)', async () => {
    const token = await login();
    expectOk(await setGlobals(api, token, { "People::gRep(2)": "second" }));
    const fields = await fieldsOf(api, token);
    expect([fields.gRep, fields["gRep(2)"], fields["gRep(3)"]]).toEqual(["", "second", "third"]);
    expectOk(await setGlobals(api, token, { "People::gRep": "first", "People::gRep(3)": "3rd" }));
    const again = await fieldsOf(api, token);
    expect([again.gRep, again["gRep(2)"], again["gRep(3)"]]).toEqual(["first", "second", "3rd"]);
    // Out of range is a field that is not there.
    expectError(await setGlobals(api, token, { "People::gRep(4)": "x" }), 400, "102");
    expectError(await setGlobals(api, token, { "People::gRep(0)": "x" }), 400, "102");
  });

  it("6. values live for the session that set them: another session does not see them", async () => {
    const mine = await login();
    const theirs = await login();
    expectOk(await setGlobals(api, mine, { "People::gGreeting": "mine", "People::gCount": 7, "Theme::gColor": "teal" }));
    expect(await fieldsOf(api, mine)).toMatchObject({ gGreeting: "mine", gCount: 7, "Theme::gColor": "teal" });
    expect(await fieldsOf(api, theirs)).toMatchObject({ gGreeting: "file hello", gCount: "", "Theme::gColor": "" });
    expectOk(await setGlobals(api, theirs, { "People::gGreeting": "theirs" }));
    expect((await fieldsOf(api, mine)).gGreeting).toBe("mine");
    expect((await fieldsOf(api, theirs)).gGreeting).toBe("theirs");
  });

  it("6. logout forgets them: the token is dead, and a new session reads the file's values", async () => {
    const token = await login();
    expectOk(await setGlobals(api, token, { "People::gGreeting": "until logout" }));
    expectOk(await api.logout(token, DB));
    expectError(await setGlobals(api, token, { "People::gGreeting": "x" }), 401, "952");
    expect((await fieldsOf(api, await login())).gGreeting).toBe("file hello");
  });

  it("6. an expired session's values go with it (the emulator's clock past 15 minutes idle)", async () => {
    const own = await startEmulator({ layouts: LAYOUTS as never, data: SEED });
    try {
      const a = new DataApi(own.url);
      const token = await a.login("web", "secret", DB);
      expectOk(await setGlobals(a, token, { "People::gGreeting": "short-lived" }));
      own.advanceTime(16 * 60_000);
      expectError(await a.get(token, PEOPLE, "1", DB), 401, "952");
      expect((await fieldsOf(a, await a.login("web", "secret", DB))).gGreeting).toBe("file hello");
    } finally {
      await own.close();
    }
  });

  it("6. a global field on a layout reads back its session's value: list, get and find, on every record, and portals keyed by a global", async () => {
    const token = await login();
    const other = await login();
    expectOk(await setGlobals(api, token, { "People::gGreeting": "everywhere", "People::gKey": 2 }));
    const page = expectOk(await api.list(token, PEOPLE, undefined, DB));
    expect(page.data.map((r: any) => r.fieldData.gGreeting)).toEqual(["everywhere", "everywhere"]);
    const found = expectOk(await api.find(token, PEOPLE, { query: [{ Name: "Grace" }] }, DB));
    expect(found.data[0].fieldData.gGreeting).toBe("everywhere");
    // The portal joins through the session's gKey: rows with Key 2 here, none for a session that has not set it.
    expect((await api.getOk(token, PEOPLE, "1", DB)).portalData.Chosen.map((row: any) => row["Items::Label"])).toEqual(["two", "two again"]);
    expect((await api.getOk(other, PEOPLE, "1", DB)).portalData.Chosen).toEqual([]);
  });

  it("6. a field that is not global is 102, and nothing of the request is set (all or nothing)", async () => {
    await eachStatusMode(async (a, token, status) => {
      const res = await setGlobals(a, token, { "People::gGreeting": "never", "People::Name": "x" });
      expectError(res, status, "102");
      expect(res.body.messages[0]!.message).toMatch(/"People::Name" of "Prefs" is not a global field/);
      expectError(await setGlobals(a, token, { "Items::Key": 1 }), status, "102");
      expect((await fieldsOf(a, token)).gGreeting).toBe("file hello");
    });
  });

  it("6. globals cannot be find criteria: a global field in a find request is 102, even beside other criteria", async () => {
    await eachStatusMode(async (a, token, status) => {
      expectOk(await setGlobals(a, token, { "People::gGreeting": "findable?" }));
      for (const query of [[{ gGreeting: "findable?" }], [{ Name: "Ada", gGreeting: "*" }], [{ Name: "Ada" }, { gCount: "", omit: "true" }]]) {
        const res = await a.find(token, PEOPLE, { query }, DB);
        expectError(res, status, "102");
        expect(res.body.messages[0]!.message).toMatch(/globals cannot be find criteria/);
      }
    });
  });

  it("6. values are checked as an edit checks them: 502 for a number, 500 for a date, 1708 for null; a container is 102", async () => {
    await eachStatusMode(async (a, token, status) => {
      expectError(await setGlobals(a, token, { "People::gCount": "many" }), status, "502");
      expectError(await setGlobals(a, token, { "People::gDay": "2024-13-45" }), status, "500");
      expectError(await setGlobals(a, token, { "People::gLogo": "logo.png" }), status, "102");
      // JSON null is 1708 (docs/emulator.md, "1. Requests every client sends"), 400 with the contract's statuses, 500
      // with real servers'.
      expectError(await setGlobals(a, token, { "People::gGreeting": null }), status, "1708");
      expectOk(await setGlobals(a, token, { "People::gCount": "12", "People::gDay": "02/29/2024" }));
      expect(await fieldsOf(a, token)).toMatchObject({ gCount: 12, gDay: "02/29/2024" });
    });
  });

  it("6. the body: globalFields is required and must be an object (1708); another key is 960 (400 under both status modes)", async () => {
    await eachStatusMode(async (a, token) => {
      const path = p`/databases/${DB}/globals`;
      expectError(await a.call("PATCH", path, { token, json: {} }), 400, "1708");
      expectError(await a.call("PATCH", path, { token, json: { globalFields: ["People::gGreeting"] } }), 400, "1708");
      expectError(await a.call("PATCH", path, { token, json: { globalFields: "People::gGreeting=x" } }), 400, "1708");
      const unknown = await a.call("PATCH", path, { token, json: { globalFields: {}, fieldData: {} } });
      expectError(unknown, 400, "960");
      expect(unknown.body.messages[0]!.message).toBe("Unknown parameter(s): fieldData");
      expectError(await a.call("PATCH", path, { json: { globalFields: {} } }), 401, "952");
      expectError(await a.call("GET", path, { token }), 405, "1630");
      expectError(await a.call("PATCH", p`/databases/${"Nope"}/globals`, { token, json: { globalFields: {} } }), a === api ? 404 : 500, "100");
    });
  });

  it("6. (choice) a create or edit that writes a global field sets it for that session only, as a FileMaker client's Set Field does", async () => {
    const writer = await login();
    const reader = await login();
    const { recordId } = await api.createOk(writer, PEOPLE, { fieldData: { Name: "Alan", gGreeting: "from a create" } }, DB);
    expect((await fieldsOf(api, writer, recordId)).gGreeting).toBe("from a create");
    expect((await fieldsOf(api, writer, "1")).gGreeting).toBe("from a create");
    expect((await fieldsOf(api, reader, recordId)).gGreeting).toBe("file hello");
    expectOk(await api.edit(writer, PEOPLE, "2", { fieldData: { "gRep(2)": "edited" } }, DB));
    expect((await fieldsOf(api, writer))["gRep(2)"]).toBe("edited");
    expect((await fieldsOf(api, reader))["gRep(2)"]).toBe("");
  });

  it("6. PATCH .../globals is not layout metadata: an emulator started with metadata: false serves it", async () => {
    const own = await startEmulator({ layouts: LAYOUTS as never, data: SEED, metadata: false });
    try {
      const a = new DataApi(own.url);
      const token = await a.login("web", "secret", DB);
      expectOk(await setGlobals(a, token, { "People::gGreeting": "no metadata" }));
      expect((await fieldsOf(a, token)).gGreeting).toBe("no metadata");
    } finally {
      await own.close();
    }
  });

  it("6. a required global is validated with the session's value", async () => {
    const layouts = [{ database: "Req", layout: "R", table: "R", fields: [{ name: "Name", type: "text" }, { name: "gMust", type: "text", global: true, required: true }] }];
    const own = await startEmulator({ layouts: layouts as never, accounts: [{ username: "web", password: "secret" }] });
    try {
      const a = new DataApi(own.url);
      const token = await a.login("web", "secret", "Req");
      expectError(await a.create(token, "R", { fieldData: { Name: "x" } }, "Req"), 400, "509");
      expectOk(await a.call("PATCH", p`/databases/Req/globals`, { token, json: { globalFields: { "R::gMust": "set" } } }));
      expectOk(await a.create(token, "R", { fieldData: { Name: "x" } }, "Req"));
      // Another session has not set it: its create still fails.
      expectError(await a.create(await a.login("web", "secret", "Req"), "R", { fieldData: { Name: "y" } }, "Req"), 400, "509");
    } finally {
      await own.close();
    }
  });
});
