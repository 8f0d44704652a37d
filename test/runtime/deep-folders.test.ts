import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, ProtocolError, type FileMakerClient } from "../../src/runtime/index.js";
import { startFakeServer, type FakeServer } from "../support/runtime-emulator.js";
import { DATABASE } from "../support/runtime-layouts.js";

// fm.layouts() and fm.scripts() walk the folders the server nests, as deep as it nests them: a server (or proxy)
// answering folders 5,000 or 6,000 deep gets the flat list, never a stack overflow. A loopback server answers the
// listings (the emulator makes no such depth).

/**
 * The listing's JSON, written as text (JSON.stringify of so deep a value is itself a recursion): a script (or layout)
 * at the top, `depth` folders each inside the one before, an entry in the deepest, then one more at the top.
 */
function nested(list: "layouts" | "scripts", depth: number): string {
  const inner = list === "layouts" ? "folderLayoutNames" : "folderScriptNames";
  const entry = (name: string) => JSON.stringify({ name, ...(list === "layouts" ? { table: "T" } : {}), isFolder: false });
  return (
    `{"response":{"${list}":[${entry("first")},` +
    Array.from({ length: depth }, (_, i) => `{"name":"F${i}","isFolder":true,"${inner}":[`).join("") +
    entry("deepest") +
    "]}".repeat(depth) +
    `,${entry("last")}]},"messages":[{"code":"0","message":"OK"}]}`
  );
}

let server: FakeServer;
let depth = 0;
let broken = false;
let fm: FileMakerClient;
beforeAll(async () => {
  server = await startFakeServer((req) => {
    const list = req.url.endsWith("/layouts") ? "layouts" : "scripts";
    // A folder without its list, at the bottom.
    const body = nested(list, depth);
    return { status: 200, body: broken ? body.replace(`,"${list === "layouts" ? "folderLayoutNames" : "folderScriptNames"}":[{"name":"deepest"`, `,"x":[{"name":"deepest"`) : body };
  });
  fm = createClient({ server: server.url, database: DATABASE, auth: { username: "u", password: "p" } });
});
afterAll(async () => {
  await fm.close();
  await server.close();
});

describe.each([5_000, 6_000])("folders %i deep", (n) => {
  it("fm.scripts() lists every script, in the server's order", async () => {
    depth = n;
    expect(await fm.scripts()).toEqual([{ name: "first" }, { name: "deepest" }, { name: "last" }]);
  });

  it("fm.scripts({ folders: true }) gives the deepest its whole path, outermost first", async () => {
    depth = n;
    const scripts = await fm.scripts({ folders: true });
    expect(scripts.map((s) => [s.name, s.folder.length])).toEqual([
      ["first", 0],
      ["deepest", n],
      ["last", 0],
    ]);
    expect(scripts[1]!.folder).toEqual(Array.from({ length: n }, (_, i) => `F${i}`));
  });

  it("fm.layouts({ folders: true }) likewise", async () => {
    depth = n;
    const layouts = await fm.layouts({ folders: true });
    expect(layouts.map((l) => [l.name, l.table, l.folder.length])).toEqual([
      ["first", "T", 0],
      ["deepest", "T", n],
      ["last", "T", 0],
    ]);
  });

  it("a folder without its list at the bottom is a ProtocolError", async () => {
    depth = n;
    broken = true;
    try {
      const error = await fm.scripts().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as Error).message).toBe(
        `GET /databases/${DATABASE}/scripts: HTTP 200 answer breaks the protocol: response.scripts (or a folder's folderScriptNames) is not an array of named entries`,
      );
    } finally {
      broken = false;
    }
  });
});
