import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator/index.js";
import { downloadContainer } from "../support/container-download.js";
import { DataApi, expectOk, p } from "../support/data-api-http.js";

// An API key stands for a proxy holding its own server session (docs/emulator.md, section 9): what a request with a
// key sets in global fields, by any way of writing one (PATCH .../globals, a create's or an edit's fieldData, a
// container upload, a script handler's records), only requests with that same key see. No session, old or new, no
// other key, and no key under another path prefix reads it; a restart forgets it, as it forgets every session's.

const DB = "Prefs";
const PEOPLE = "People";
const KEY_A = "proxy-key-a";
const KEY_B = "proxy-key-b";
const KEY_OTTO = "proxy-key-otto";

const LAYOUTS = [
  {
    database: DB,
    layout: PEOPLE,
    table: "People",
    fields: [
      { name: "Name", type: "text" },
      { name: "gGreeting", type: "text", global: true },
      { name: "gLogo", type: "container", global: true },
    ],
  },
];
const SEED = { accounts: [{ username: "web", password: "secret" }], records: { People: [{ Name: "Ada", gGreeting: "file hello" }] } };
const SCRIPTS = {
  Greet: ({ param, records }: { param: string; records: { edit(layout: string, id: string, fields: Record<string, string>): unknown } }) => {
    records.edit(PEOPLE, "1", { gGreeting: param });
  },
};

type Emulator = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emulator;
let api: DataApi;
let otto: DataApi;

beforeEach(async () => {
  await emu?.close();
  emu = await startEmulator({ layouts: LAYOUTS as never, data: SEED, scripts: SCRIPTS as never, apiKeys: [{ key: KEY_A }, { key: KEY_B }, { key: KEY_OTTO, pathPrefix: "/otto" }] });
  api = new DataApi(emu.url);
  otto = new DataApi(`${emu.url}/otto`);
});
afterAll(async () => {
  await emu.close();
});

const greeting = async (a: DataApi, bearer: string): Promise<string> => expectOk(await a.get(bearer, PEOPLE, "1", DB)).data[0].fieldData.gGreeting;
const logo = async (a: DataApi, bearer: string): Promise<string> => expectOk(await a.get(bearer, PEOPLE, "1", DB)).data[0].fieldData.gLogo;

/** Every reader but key A: a session from before the write, a new one, another key, a key under /otto. */
async function othersRead(read: (a: DataApi, bearer: string) => Promise<string>, before: string): Promise<string[]> {
  return [await read(api, before), await read(api, await api.login("web", "secret", DB)), await read(api, KEY_B), await read(otto, KEY_OTTO)];
}

const WRITES: [string, (a: DataApi, bearer: string, value: string) => Promise<void>][] = [
  ["PATCH .../globals", async (a, bearer, value) => void expectOk(await a.call("PATCH", p`/databases/${DB}/globals`, { token: bearer, json: { globalFields: { "People::gGreeting": value } } }))],
  ["a create's fieldData", async (a, bearer, value) => void expectOk(await a.create(bearer, PEOPLE, { fieldData: { Name: "New", gGreeting: value } }, DB))],
  ["an edit's fieldData", async (a, bearer, value) => void expectOk(await a.edit(bearer, PEOPLE, "1", { fieldData: { gGreeting: value } }, DB))],
  ["a script handler's records.edit", async (a, bearer, value) => void expectOk(await a.call("GET", p`/databases/${DB}/layouts/${PEOPLE}/script/${"Greet"}` + `?script.param=${value}`, { token: bearer }))],
];

describe("globals set through an API key", () => {
  it.each(WRITES)("%s: only requests with that key read the value; no session, new session or other key does", async (_label, write) => {
    const before = await api.login("web", "secret", DB);
    await write(api, KEY_A, "from-key-a");
    expect(await greeting(api, KEY_A)).toBe("from-key-a");
    expect(await othersRead(greeting, before)).toEqual(["file hello", "file hello", "file hello", "file hello"]);
  });

  it("a key under a path prefix has its own values too; a session's values stay its own beside a key's", async () => {
    const session = await api.login("web", "secret", DB);
    expectOk(await otto.call("PATCH", p`/databases/${DB}/globals`, { token: KEY_OTTO, json: { globalFields: { "People::gGreeting": "otto" } } }));
    expectOk(await api.call("PATCH", p`/databases/${DB}/globals`, { token: session, json: { globalFields: { "People::gGreeting": "session" } } }));
    expect([await greeting(otto, KEY_OTTO), await greeting(api, session), await greeting(api, KEY_A), await greeting(api, await api.login("web", "secret", DB))]).toEqual([
      "otto",
      "session",
      "file hello",
      "file hello",
    ]);
  });

  it("a global container uploaded through a key: only that key's requests see the file", async () => {
    const before = await api.login("web", "secret", DB);
    const form = new FormData();
    form.append("upload", new Blob([new Uint8Array([1, 2, 3])], { type: "image/png" }), "logo.png");
    expectOk(await api.call("POST", p`/databases/${DB}/layouts/${PEOPLE}/records/${"1"}/containers/${"gLogo"}/${"1"}`, { token: KEY_A, body: form }));
    const url = await logo(api, KEY_A);
    expect(url).toMatch(/\/Streaming\/MainDB\/[0-9A-F]{64}\.png\?RCType=EmbeddedRCFileProcessor$/);
    expect(await othersRead(logo, before)).toEqual(["", "", "", ""]);
    // The key's global holds the file as a session's would: its URL serves the bytes, and the store keeps it.
    expect(emu.stats().containerFiles).toBe(1);
    const served = await downloadContainer(url);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
  });

  it("a restart forgets a key's values, as it forgets every session's", async () => {
    expectOk(await api.call("PATCH", p`/databases/${DB}/globals`, { token: KEY_A, json: { globalFields: { "People::gGreeting": "before restart" } } }));
    emu.restart();
    expect(await greeting(api, KEY_A)).toBe("file hello");
  });
});
