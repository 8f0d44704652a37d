import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createClient,
  defineDatabase,
  defineLayout,
  FieldMissingError,
  FileMakerError,
  InvalidCredentialsError,
  LayoutMissingError,
  ProtocolError,
  ScriptMissingError,
  type FileMakerClient,
} from "../../src/runtime/index.js";
import type { LayoutDescriptionInput } from "../../src/layout/schema.js";
import { connect, envelope, exampleSeed, startFakeServer, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { Contact, DATABASE, EXAMPLE_LAYOUTS, PASSWORD, typesDescription, USERNAME, WEIRD_DATABASE, weirdDescription } from "../support/runtime-layouts.js";

// The client's calls outside a layout's records (issue 15): fm.runScript (the standalone script endpoint), fm.setGlobals,
// fm.productInfo, fm.databases, and fm.layouts / fm.scripts with their folders, against the emulator over loopback HTTP.

const SLASHED = "Reports / Q?1 #2";

/** Layouts in folders (one nested) beside the example's, and a layout of global fields. */
const EXTRA_LAYOUTS: LayoutDescriptionInput[] = [
  {
    database: DATABASE,
    layout: "Prefs",
    table: "Prefs",
    folder: "Settings",
    fields: [
      { name: "Name", type: "text" },
      { name: "gUser", type: "text", global: true },
      { name: "gCount", type: "number", global: true },
    ],
  },
  { database: DATABASE, layout: "Old Prefs", table: "Prefs", folder: "Settings/Archive", fields: [{ name: "Name", type: "text" }] },
];

const Prefs = defineLayout<{
  fields: { Name: string; gUser: string; gCount: number | null };
  input: { Name?: string | null };
  portals: Record<never, never>;
  portalInput: Record<never, never>;
  containers: never;
}>({ layout: "Prefs", database: DATABASE, fields: { Name: { type: "text" }, gUser: { type: "text" }, gCount: { type: "number" } } });

const Contacts = defineDatabase({
  database: DATABASE,
  scripts: ["Echo", "Nothing", "Fails", "Count", SLASHED, "Monthly"],
  globals: { "Prefs::gUser": { type: "text" }, "Prefs::gCount": { type: "number" } },
});

let emu: Emulator;
let fm: FileMakerClient<typeof Contacts>;
const seenParams: string[] = [];

beforeAll(async () => {
  const data = exampleSeed();
  (data.records as Record<string, unknown[]>).Prefs = [{ Name: "only" }];
  emu = await startRuntimeEmulator({
    layouts: [EXAMPLE_LAYOUTS, typesDescription, weirdDescription, ...EXTRA_LAYOUTS],
    data,
    scripts: {
      Echo: ({ param }) => {
        seenParams.push(param);
        return param;
      },
      Nothing: () => undefined,
      Fails: () => ({ error: 3 }),
      Count: ({ records }) => records.list("Contacts Web").length,
      [SLASHED]: ({ layout }) => `on ${layout}`,
    },
    databases: [{ database: DATABASE, scripts: [{ name: "Echo" }, { name: "Monthly", folder: ["Billing", "Monthly"] }, { name: "Fails", folder: "Billing" }] }],
  });
  fm = createClient({ server: emu.url, database: Contacts, auth: { username: USERNAME, password: PASSWORD } });
});
afterAll(async () => {
  await fm.close();
  await emu.close();
});

describe("fm.runScript", () => {
  it("runs a script on a layout (its definition or its name) with a parameter; the result and error are data", async () => {
    expect(await fm.runScript(Contact, "Echo", { param: "hello wörld & more=1" })).toEqual({ result: "hello wörld & more=1", error: "0" });
    expect(seenParams.at(-1)).toBe("hello wörld & more=1");
    expect(await fm.runScript("Contacts Web", "Count")).toEqual({ result: "4", error: "0" });
    expect(await fm.runScript(Contact, "Nothing")).toEqual({ error: "0" });
    // A script that fails is an answer, not an exception.
    expect(await fm.runScript(Contact, "Fails")).toEqual({ error: "3" });
    // The script and layout names are one percent-encoded path segment each.
    expect(await fm.runScript("Prefs", SLASHED)).toEqual({ result: "on Prefs", error: "0" });
  });

  it("a script the file lacks is a ScriptMissingError (104), a layout it lacks a LayoutMissingError", async () => {
    const untyped = connect(emu.url);
    const error = await untyped.runScript(Contact, "No Such Script").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScriptMissingError);
    expect(error).toMatchObject({ code: "104", call: { method: "GET", path: "/databases/Contacts/layouts/Contacts%20Web/script/No%20Such%20Script" } });
    await expect(untyped.runScript("Nowhere", "Echo")).rejects.toBeInstanceOf(LayoutMissingError);
    await untyped.close();
  });

  it("refuses bad arguments before sending, naming the call and what is wrong", async () => {
    const untyped = connect(emu.url);
    const before = emu.stats().requests;
    await expect(untyped.runScript(Contact, "Echo", { param: 42 as never })).rejects.toThrow(new TypeError("runScript: param must be a string, got 42"));
    await expect(untyped.runScript(Contact, "")).rejects.toThrow(/^runScript: name must be a script name, got ""$/);
    await expect(untyped.runScript(Contact, undefined as never)).rejects.toThrow(/^runScript: name must be a script name/);
    await expect(untyped.runScript("", "Echo")).rejects.toThrow(/^runScript: layout must be a layout definition or name$/);
    await expect(untyped.runScript(null as never, "Echo")).rejects.toThrow(TypeError);
    expect(emu.stats().requests).toBe(before);
    await untyped.close();
  });
});

describe("fm.setGlobals", () => {
  it("sets global fields for the client's session; a layout showing them reads them back; numbers go as text", async () => {
    await fm.setGlobals({ "Prefs::gUser": "ada", "Prefs::gCount": 42 });
    const prefs = fm.layout(Prefs);
    expect((await prefs.list()).data[0]!.fieldData).toEqual({ Name: "only", gUser: "ada", gCount: 42 });
    await fm.setGlobals({ "Prefs::gCount": 1e21, "Prefs::gUser": undefined as never });
    expect((await prefs.list()).data[0]!.fieldData).toEqual({ Name: "only", gUser: "ada", gCount: 1e21 });
    // Another session does not see them.
    const other = connect(emu.url);
    expect((await other.layout(Prefs).list()).data[0]!.fieldData.gUser).toBe("");
    await other.close();
  });

  it("the values are checked before sending: a TypeError naming the field", async () => {
    const before = emu.stats().requests;
    for (const [value, says] of [
      [null, "null"],
      [Number.NaN, "NaN"],
      [Infinity, "Infinity"],
      [{}, "object"],
      [true, "boolean"],
    ] as const) {
      await expect(fm.setGlobals({ "Prefs::gUser": value as never })).rejects.toThrow(new TypeError(`setGlobals: field "Prefs::gUser": ${says} is not a string or a finite number`));
    }
    await expect(fm.setGlobals(null as never)).rejects.toThrow(/^setGlobals: values must be an object/);
    await expect(fm.setGlobals(["x"] as never)).rejects.toThrow(TypeError);
    expect(emu.stats().requests).toBe(before);
  });

  it("a field that is not global is the server's 102; a name like __proto__ is sent as a name", async () => {
    const untyped = connect(emu.url);
    const error = await untyped.setGlobals({ "Prefs::Name": "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FieldMissingError);
    expect(error).toMatchObject({ call: { method: "PATCH", path: "/databases/Contacts/globals" } });
    await expect(untyped.setGlobals(JSON.parse('{"__proto__": "x"}'))).rejects.toBeInstanceOf(FieldMissingError);
    await untyped.close();
  });
});

describe("fm.productInfo and fm.databases", () => {
  it("productInfo needs no session: no login, even with a token the server does not know", async () => {
    const before = emu.stats();
    const client = createClient({ server: emu.url, database: DATABASE, auth: { token: "not-a-token" } });
    expect(await client.productInfo()).toEqual({
      name: "FileMaker Data API Engine",
      buildDate: expect.stringMatching(/^\d\d\/\d\d\/\d{4}$/),
      version: expect.any(String),
      dateFormat: "MM/dd/yyyy",
      timeFormat: "HH:mm:ss",
      timeStampFormat: "MM/dd/yyyy HH:mm:ss",
    });
    expect(emu.stats().logins).toBe(before.logins);
  });

  it("databases lists the hosted files with the client's account and opens no session", async () => {
    const client = connect(emu.url);
    const before = emu.stats();
    expect(await client.databases()).toEqual([{ name: DATABASE }, { name: WEIRD_DATABASE }]);
    expect(emu.stats().logins).toBe(before.logins);
    expect(emu.stats().activeSessions).toBe(before.activeSessions);
    // With a token (no account), it asks with no Authorization, which servers answer too.
    expect(await createClient({ server: emu.url, database: DATABASE, auth: { token: "t" } }).databases()).toHaveLength(2);
  });

  it("databases with a wrong password is an InvalidCredentialsError that does not show the password", async () => {
    const client = createClient({ server: emu.url, database: DATABASE, auth: { username: USERNAME, password: "wrong-pass-123" } });
    const error = (await client.databases().catch((e: unknown) => e)) as FileMakerError;
    expect(error).toBeInstanceOf(InvalidCredentialsError);
    expect(error.call).toEqual({ method: "GET", path: "/databases" });
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain("wrong-pass-123");
  });
});

describe("fm.layouts and fm.scripts, with folders", () => {
  it("layouts stay a flat list; folders: true gives each its folder path", async () => {
    const flat = await fm.layouts();
    expect(flat.map((l) => l.name)).toEqual(["Contacts Web", "Invoices Web", "Types Web", "Prefs", "Old Prefs"]);
    expect(flat.find((l) => l.name === "Prefs")).toEqual({ name: "Prefs", table: "Prefs" });
    const foldered = await fm.layouts({ folders: true });
    expect(foldered.find((l) => l.name === "Contacts Web")).toEqual({ name: "Contacts Web", table: "Contacts", folder: [] });
    expect(foldered.find((l) => l.name === "Prefs")).toEqual({ name: "Prefs", table: "Prefs", folder: ["Settings"] });
    expect(foldered.find((l) => l.name === "Old Prefs")).toEqual({ name: "Old Prefs", table: "Prefs", folder: ["Settings", "Archive"] });
    expect(foldered.map((l) => l.name)).toEqual(flat.map((l) => l.name));
  });

  it("scripts: the same, from GET /scripts", async () => {
    expect(await fm.scripts()).toEqual([{ name: "Echo" }, { name: "Monthly" }, { name: "Fails" }, { name: "Nothing" }, { name: "Count" }, { name: SLASHED }]);
    expect(await fm.scripts({ folders: true })).toEqual([
      { name: "Echo", folder: [] },
      { name: "Monthly", folder: ["Billing", "Monthly"] },
      { name: "Fails", folder: ["Billing"] },
      { name: "Nothing", folder: [] },
      { name: "Count", folder: [] },
      { name: SLASHED, folder: [] },
    ]);
  });
});

describe("malformed answers of code 0 are ProtocolErrors naming the call and what is wrong", () => {
  const CASES: [string, (fm: FileMakerClient) => Promise<unknown>, string, object, string][] = [
    ["runScript, no scriptError", (c) => c.runScript("L", "S"), "GET /databases/Contacts/layouts/L/script/S", { scriptResult: "x" }, "response.scriptError or scriptResult is not a string"],
    ["runScript, a numeric scriptResult", (c) => c.runScript("L", "S"), "GET /databases/Contacts/layouts/L/script/S", { scriptResult: 5, scriptError: "0" }, "response.scriptError or scriptResult is not a string"],
    ["productInfo, none", (c) => c.productInfo(), "GET /productInfo", {}, "response.productInfo.name is not a string"],
    ["productInfo, a numeric version", (c) => c.productInfo(), "GET /productInfo", { productInfo: { name: "n", buildDate: "b", version: 21, dateFormat: "d", timeFormat: "t", timeStampFormat: "s" } }, "response.productInfo.version is not a string"],
    ["databases, none", (c) => c.databases(), "GET /databases", {}, "response.databases is not an array"],
    ["databases, an entry without a name", (c) => c.databases(), "GET /databases", { databases: [{ name: "A" }, {}] }, "response.databases[1].name is not a string"],
    ["scripts, none", (c) => c.scripts(), "GET /databases/Contacts/scripts", {}, "response.scripts (or a folder's folderScriptNames) is not an array of named entries"],
    ["scripts, a folder without its list", (c) => c.scripts({ folders: true }), "GET /databases/Contacts/scripts", { scripts: [{ name: "F", isFolder: true }] }, "response.scripts (or a folder's folderScriptNames) is not an array of named entries"],
    ["scripts, a nameless entry", (c) => c.scripts(), "GET /databases/Contacts/scripts", { scripts: [null] }, "response.scripts (or a folder's folderScriptNames) is not an array of named entries"],
  ];
  let answer: object = {};
  let server: Awaited<ReturnType<typeof startFakeServer>>;
  let client: FileMakerClient;
  beforeAll(async () => {
    server = await startFakeServer(() => ({ status: 200, body: envelope(answer) }));
    client = connect(server.url, { retry: { retries: 0 } });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it.each(CASES)("%s", async (_name, run, call, response, says) => {
    answer = response;
    const error = (await run(client).catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toBe(`${call}: HTTP 200 answer breaks the protocol: ${says}`);
  });

  it("well-formed answers pass", async () => {
    answer = { scriptError: "0" };
    expect(await client.runScript("L", "S", { param: "a b+c/d" })).toEqual({ error: "0" });
    expect(server.requests.at(-1)!.url).toBe("/fmi/data/vLatest/databases/Contacts/layouts/L/script/S?script.param=a%20b%2Bc%2Fd");
    answer = { databases: [{ name: "A", extra: 1 }] };
    expect(await client.databases()).toEqual([{ name: "A" }]);
    expect(server.requests.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString("base64")}`);
    answer = { productInfo: { name: "n", buildDate: "b", version: "v", dateFormat: "d", timeFormat: "t", timeStampFormat: "s" } };
    await client.productInfo();
    expect(server.requests.at(-1)!.headers.authorization).toBeUndefined();
    answer = {};
    await client.setGlobals({ "T::g": 5, "T::h": "x" });
    expect(JSON.parse(server.requests.at(-1)!.body.toString())).toEqual({ globalFields: { "T::g": "5", "T::h": "x" } });
  });
});
