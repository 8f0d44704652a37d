import { readFile, rm, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator/index.js";
import type { DatabaseDescriptionInput, DatabaseScriptInput } from "../../src/layout/index.js";
import { diffDatabase, mergeDatabase, type PullResult } from "../../src/pull/index.js";
import { copyExample, EXAMPLES, PULL_PASSWORD, PULL_USER, readTree, runPull, type Emulator } from "./helpers.js";

// fmgen pull and the database description (<Database>.database.json): the server's script list, merged into the
// file beside the layout descriptions, checked by --check, and a refused list that leaves the layouts' pull alone.

const FILE = "layouts/Contacts.database.json";
// In the order of the server's list: a folder's scripts (its subfolders' too) where the folder is.
const SCRIPTS: DatabaseScriptInput[] = [
  { name: "Send Invoice", folder: "Billing" },
  { name: "Export PDF", folder: ["Billing", "Print"] },
  { name: "Log Find" },
];

function contactsEmulator(scripts: DatabaseScriptInput[]): Promise<Emulator> {
  return startEmulator({
    layouts: [join(EXAMPLES, "contacts/layouts")],
    data: join(EXAMPLES, "contacts/seed.json"),
    accounts: [{ username: PULL_USER, password: PULL_PASSWORD }],
    // The handlers run the description's scripts; the list shows the description's folders, then the other handlers.
    databases: [{ database: "Contacts", scripts }],
    scripts: { "Log Find": () => "ok" },
  });
}

async function readDatabaseFile(root: string): Promise<DatabaseDescriptionInput> {
  return JSON.parse(await readFile(join(root, FILE), "utf8")) as DatabaseDescriptionInput;
}

/** A loopback proxy to `target` that answers `GET .../scripts` itself, with `status` and `body`. */
async function scriptsProxy(target: string, status: number, body: unknown): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    if (req.method === "GET" && /\/databases\/[^/]+\/scripts$/.test(req.url ?? "")) {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
      return;
    }
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe("fmgen pull writes the database description from the script list", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await contactsEmulator(SCRIPTS);
  });
  afterAll(() => emu.close());

  it("creates <Database>.database.json beside the layouts, names it, and --check then passes", async () => {
    const root = await copyExample("contacts");
    const { code, out } = await runPull(root, emu.url);
    expect(code).toBe(0);
    expect(out).toMatch(/^scripts of "Contacts" -> layouts\/Contacts\.database\.json: new file, 3 scripts$/m);
    expect(out).toMatch(/^fmgen pull: wrote layouts\/Contacts\.database\.json$/m);
    // Folders as the format spells them: one folder as its name, nested folders as the path.
    expect(await readDatabaseFile(root)).toEqual({ database: "Contacts", scripts: SCRIPTS });
    expect(await readFile(join(root, FILE), "utf8")).toBe(
      '{\n  "database": "Contacts",\n  "scripts": [\n    { "name": "Send Invoice", "folder": "Billing" },\n    { "name": "Export PDF", "folder": ["Billing", "Print"] },\n    { "name": "Log Find" }\n  ]\n}\n',
    );

    const check = await runPull(root, emu.url, ["--check"]);
    expect(check.code).toBe(0);
    expect(check.out).toMatch(/^scripts of "Contacts" -> layouts\/Contacts\.database\.json: up to date$/m);
    expect(check.out).toMatch(/fmgen pull --check: 2 layouts match the server and so does layouts\/Contacts\.database\.json$/);
  });

  it("--check without the file is drift naming it, exit 1, writing nothing", async () => {
    const root = await copyExample("contacts");
    const before = await readTree(root);
    const check = await runPull(root, emu.url, ["--check"]);
    expect(check.code).toBe(1);
    expect(check.err).toMatch(/the descriptions differ from the server: layouts\/Contacts\.database\.json \(no such file\)\. Run "fmgen pull"/);
    expect(await readTree(root)).toEqual(before);
  });

  it("keeps hand edits the server does not contradict: $schema, a folder's spelling, an entry's order is the server's", async () => {
    const root = await copyExample("contacts");
    const edited = `${JSON.stringify(
      { $schema: "../my/schema.json", database: "Contacts", scripts: [{ name: "Log Find" }, { name: "Export PDF", folder: ["Billing", "Print"] }, { name: "Send Invoice", folder: ["Billing"] }] },
      null,
      4,
    )}\n`;
    await writeFile(join(root, FILE), edited);
    const check = await runPull(root, emu.url, ["--check"]);
    expect(check.code).toBe(1);
    expect(check.out).toMatch(/^scripts of "Contacts" -> layouts\/Contacts\.database\.json: 1 change$/m);
    expect(check.out).toMatch(/^ {2}~ the order of the scripts$/m);

    expect((await runPull(root, emu.url)).code).toBe(0);
    expect(await readDatabaseFile(root)).toEqual({
      $schema: "../my/schema.json",
      database: "Contacts",
      scripts: [{ name: "Send Invoice", folder: ["Billing"] }, { name: "Export PDF", folder: ["Billing", "Print"] }, { name: "Log Find" }],
    });
  });

  it("rewrites a file that only differs in layout without calling it drift", async () => {
    const root = await copyExample("contacts");
    await writeFile(join(root, FILE), JSON.stringify({ database: "Contacts", scripts: SCRIPTS }));
    const check = await runPull(root, emu.url, ["--check"]);
    expect(check.code).toBe(0);
    expect(check.out).toMatch(/layouts\/Contacts\.database\.json: up to date \(the file is rewritten in fmgen's format\)/);
    // --check wrote nothing; a pull rewrites it in fmgen's layout, the same scripts.
    expect(await readFile(join(root, FILE), "utf8")).toBe(JSON.stringify({ database: "Contacts", scripts: SCRIPTS }));
    expect((await runPull(root, emu.url)).code).toBe(0);
    expect(await readFile(join(root, FILE), "utf8")).toBe(
      '{\n  "database": "Contacts",\n  "scripts": [\n    { "name": "Send Invoice", "folder": "Billing" },\n    { "name": "Export PDF", "folder": ["Billing", "Print"] },\n    { "name": "Log Find" }\n  ]\n}\n',
    );
  });

  it("refuses a malformed database description, naming the file and the path inside it, before any request", async () => {
    const root = await copyExample("contacts");
    await writeFile(join(root, FILE), JSON.stringify({ database: "Contacts", scripts: [{ name: "A", folder: [] }] }));
    const before = emu.stats().requests;
    const { code, err } = await runPull(root, emu.url);
    expect(code).toBe(1);
    expect(err).toMatch(/Contacts\.database\.json: scripts\[0\]\.folder: /);
    expect(emu.stats().requests).toBe(before);
  });

  it("writes no file for a server without scripts, and a file that exists gets an empty list", async () => {
    const bare = await startEmulator({ layouts: [join(EXAMPLES, "contacts/layouts")], accounts: [{ username: PULL_USER, password: PULL_PASSWORD }] });
    try {
      const root = await copyExample("contacts");
      const none = await runPull(root, bare.url, ["--check"]);
      expect(none.code).toBe(0);
      expect(none.out).toMatch(/^scripts of "Contacts": none on the server, so no layouts\/Contacts\.database\.json$/m);
      expect(none.out).toMatch(/fmgen pull --check: 2 layouts match the server$/);
      await writeFile(join(root, FILE), `${JSON.stringify({ database: "Contacts", scripts: [{ name: "Gone" }] })}\n`);
      expect((await runPull(root, bare.url)).out).toMatch(/^ {2}- script "Gone" \(at the top\) {2}\[breaking\]$/m);
      expect(await readDatabaseFile(root)).toEqual({ database: "Contacts", scripts: [] });
    } finally {
      await bare.close();
    }
  });

  it("leaves the description of another database alone", async () => {
    const root = await copyExample("contacts");
    const other = '{ "database": "Other", "scripts": [{ "name": "X" }] }\n';
    await writeFile(join(root, "layouts/Other.database.json"), other);
    expect((await runPull(root, emu.url)).code).toBe(0);
    expect(await readFile(join(root, "layouts/Other.database.json"), "utf8")).toBe(other);
    expect((await readDatabaseFile(root)).scripts).toEqual(SCRIPTS);
  });
});

describe("when the server's scripts change", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await contactsEmulator([{ name: "Send Invoice", folder: ["Billing", "Sent"] }, { name: "Archive" }, { name: "Log Find" }]);
  });
  afterAll(() => emu.close());

  it("--check names the added, removed and moved scripts, marks the removed one breaking, exits 1; the JSON result has them", async () => {
    // Billing/Sent holds "Send Invoice" and comes first; "Export PDF" is gone; "Archive" is new.
    const root = await copyExample("contacts");
    await writeFile(join(root, FILE), `${JSON.stringify({ database: "Contacts", scripts: SCRIPTS })}\n`);
    const check = await runPull(root, emu.url, ["--check"]);
    expect(check.code).toBe(1);
    expect(check.out).toMatch(/^scripts of "Contacts" -> layouts\/Contacts\.database\.json: 3 changes, 1 breaking$/m);
    expect(check.out).toMatch(/^ {2}~ script "Send Invoice": moved from Billing to Billing\/Sent$/m);
    expect(check.out).toMatch(/^ {2}\+ script "Archive" \(at the top\)$/m);
    expect(check.out).toMatch(/^ {2}- script "Export PDF" \(in Billing\/Print\) {2}\[breaking\]$/m);
    expect(check.err).toMatch(/differ from the server: layouts\/Contacts\.database\.json \(3 changes, 1 breaking\)/);

    const json = JSON.parse((await runPull(root, emu.url, ["--check", "--json"])).out) as PullResult;
    expect(json.drift).toBe(true);
    expect(json.databaseFile.file).toBe(FILE);
    expect(json.databaseFile.changes.map((c) => [c.kind, c.name, c.breaking])).toEqual([
      ["moved", "Send Invoice", false],
      ["added", "Archive", false],
      ["removed", "Export PDF", true],
    ]);
  });
});

describe("a server that does not give the script list", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await contactsEmulator(SCRIPTS);
  });
  afterAll(() => emu.close());

  it.each([
    ["refuses it to the account (error 9)", 401, { messages: [{ code: "9", message: "Insufficient privileges" }], response: {} }, /FileMaker error 9, insufficient privileges/],
    ["has no such endpoint", 404, { messages: [{ code: "1630", message: "URL is not supported" }], response: {} }, /no script list endpoint \(FileMaker error 1630/],
    ["answers it in a shape a list cannot have", 200, { messages: [{ code: "0", message: "OK" }], response: { scripts: [{ name: "A" }, { isFolder: true, name: "F", folderScriptNames: [{ name: 3 }] }] } }, /the script list failed: GET \/databases\/Contacts\/scripts: HTTP 200 answer breaks the protocol: a script or folder has no name/],
  ])("is reported, naming the file, and the layouts are still pulled: the server %s", async (_, status, body, reason) => {
    const proxy = await scriptsProxy(emu.url, status, body);
    try {
      const root = await copyExample("contacts", { withState: false });
      await rm(join(root, "layouts/Invoice.layout.json"));
      const existing = `${JSON.stringify({ database: "Contacts", scripts: [{ name: "Kept" }] })}\n`;
      await writeFile(join(root, FILE), existing);
      const pulled = await runPull(root, proxy.url);
      expect(pulled.code).toBe(0);
      const line = pulled.out.split("\n").find((l) => l.startsWith('scripts of "Contacts"'));
      expect(line).toMatch(/^scripts of "Contacts" -> layouts\/Contacts\.database\.json: not read, so left as it is: /);
      expect(line).toMatch(reason);
      expect(pulled.out).toMatch(/wrote fmgen\.pulled\.json/);
      expect(await readFile(join(root, FILE), "utf8")).toBe(existing);

      const check = await runPull(root, proxy.url, ["--check"]);
      expect(check.code).toBe(0);
      expect(check.out).toMatch(/1 layout matches the server; the scripts were not read \(see layouts\/Contacts\.database\.json above\)$/);
    } finally {
      await proxy.close();
    }
  });
});

describe("mergeDatabase and diffDatabase", () => {
  it("takes the server's list and order, keeps the file's $schema, folder spelling and extra keys of an entry of the same name", () => {
    const file = {
      database: "D",
      scripts: [{ name: "B", folder: ["F"], note: "mine" } as DatabaseScriptInput, { name: "Gone" }, { name: "A", folder: "Old" }],
    };
    const merged = mergeDatabase("D", [{ name: "A", folder: ["New", "Deep"] }, { name: "B", folder: ["F"] }, { name: "C", folder: [] }], file, "ignored.json");
    expect(merged).toEqual({ database: "D", scripts: [{ name: "A", folder: ["New", "Deep"] }, { name: "B", folder: ["F"], note: "mine" }, { name: "C" }] });
    expect(mergeDatabase("D", [], undefined, "s.json")).toEqual({ $schema: "s.json", database: "D", scripts: [] });
    expect(diffDatabase(file, merged).map((c) => c.kind)).toEqual(["moved", "added", "removed", "reordered"]);
    expect(diffDatabase(merged, merged)).toEqual([]);
  });
});
