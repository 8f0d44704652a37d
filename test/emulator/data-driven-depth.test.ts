import { describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator/index.js";
import { MAX_FOLDER_DEPTH } from "../../src/emulator/hosted-file/layout-folders.js";
import { DataApi, expectError, expectOk, p } from "../support/data-api-http.js";

// Work whose depth the data chooses must not take a stack frame per step (cascade-delete.test.ts has the record
// chains). Before: a find criterion of 300,000 literal characters was spread into one call's arguments and
// answered 500 (stack overflow); a layout or script folder nested 20,000 deep made every layout or script list
// call end with no answer at all. Now the criterion is built by a loop, and folders deeper than MAX_FOLDER_DEPTH
// are refused when the emulator starts, naming the description.

const ACCOUNTS = [{ username: "web", password: "secret" }];

describe("a long find criterion", () => {
  it("of 300,000 literal characters is searched, not a stack overflow", async () => {
    const emu = await startEmulator({ layouts: [{ database: "X", layout: "L", table: "T", fields: [{ name: "a", type: "text" }] }], data: { accounts: ACCOUNTS, records: { T: [{ a: "hello" }, { a: "x".repeat(300_000) }] } } });
    try {
      const api = new DataApi(emu.url);
      const token = await api.login("web", "secret", "X");
      const find = (a: string) => api.call("POST", p`/databases/X/layouts/L/_find`, { token, json: { query: [{ a }] } });
      expect(expectOk(await find("x".repeat(300_000))).data.map((r: { recordId: string }) => r.recordId)).toEqual(["2"]);
      expect(expectOk(await find("x".repeat(300_000) + "*")).data.map((r: { recordId: string }) => r.recordId)).toEqual(["2"]);
      expectError(await find("y".repeat(300_000)), 404, "401");
    } finally {
      await emu.close();
    }
  });
});

describe("folders nested deeper than the emulator serves", () => {
  const deep = MAX_FOLDER_DEPTH + 1;

  it("a layout's folder: refused at start, naming the layout", async () => {
    const folder = Array.from({ length: 20_000 }, () => "f").join("/");
    await expect(startEmulator({ layouts: [{ database: "X", layout: "Deep", table: "T", folder, fields: [{ name: "a", type: "text" }] }] })).rejects.toThrow(
      /layout "Deep": its folder nests 20000 folders deep; the emulator serves folders at most 64 deep/,
    );
    const justTooDeep = Array.from({ length: deep }, () => "f").join("/");
    await expect(startEmulator({ layouts: [{ database: "X", layout: "Deep", table: "T", folder: justTooDeep, fields: [{ name: "a", type: "text" }] }] })).rejects.toThrow(/nests 65 folders/);
  });

  it("a script's folder: refused at start, naming the script", async () => {
    await expect(
      startEmulator({
        layouts: [{ database: "X", layout: "L", table: "T", fields: [{ name: "a", type: "text" }] }],
        databases: [{ database: "X", scripts: [{ name: "Deep", folder: Array.from({ length: 20_000 }, () => "g") }] }],
      }),
    ).rejects.toThrow(/script "Deep": its folder nests 20000 folders deep/);
  });

  it(`folders ${MAX_FOLDER_DEPTH} deep are served, in both lists`, async () => {
    const path = Array.from({ length: MAX_FOLDER_DEPTH }, (_, i) => `f${i}`);
    const emu = await startEmulator({
      layouts: [{ database: "X", layout: "L", table: "T", folder: path.join("/"), fields: [{ name: "a", type: "text" }] }],
      databases: [{ database: "X", scripts: [{ name: "S", folder: path }] }],
      data: { accounts: ACCOUNTS },
    });
    try {
      const api = new DataApi(emu.url);
      const token = await api.login("web", "secret", "X");
      let level = expectOk(await api.call("GET", p`/databases/X/layouts`, { token })).layouts;
      for (const name of path) {
        expect(level[0].name).toBe(name);
        level = level[0].folderLayoutNames;
      }
      expect(level).toEqual([{ name: "L", table: "T" }]);
      let scripts = expectOk(await api.call("GET", p`/databases/X/scripts`, { token })).scripts;
      for (let i = 0; i < MAX_FOLDER_DEPTH; i++) scripts = scripts[0].folderScriptNames;
      expect(scripts).toEqual([{ name: "S", isFolder: false }]);
    } finally {
      await emu.close();
    }
  });
});
