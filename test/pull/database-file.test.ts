import { readFile, rm, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator/index.js";
import type { DatabaseDescriptionInput, DatabaseScriptInput } from "../../src/layout/index.js";
import { diffDatabase, mergeDatabase, type PullResult } from "../../src/pull/index.js";
import { parseDatabaseDescription } from "../../src/layout/index.js";
import { listenLoopback } from "../support/loopback-server.js";
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

/** A loopback proxy to `target` that answers `GET .../scripts` itself, with `status` and `body` (a text as it is). */
async function scriptsProxy(target: string, status: number, body: unknown): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(target);
  return listenLoopback((req, res) => {
    if (req.method === "GET" && /\/databases\/[^/]+\/scripts$/.test(req.url ?? "")) {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
      return;
    }
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
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
    ["answers it in a shape a list cannot have", 200, { messages: [{ code: "0", message: "OK" }], response: { scripts: [{ name: "A" }, { isFolder: true, name: "F", folderScriptNames: [{ name: 3 }] }] } }, /the script list failed: GET \/databases\/Contacts\/scripts: HTTP 200 answer breaks the protocol: response.scripts \(or a folder.s folderScriptNames\) is not an array of named entries/],
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

describe("folders nested thousands deep", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await contactsEmulator(SCRIPTS);
  });
  afterAll(() => emu.close());

  /**
   * `GET /scripts` with `depth` folders each inside the one before (`F0` outermost), a script in every `every`th of
   * them and in the deepest, one at the top before and after; written as text (JSON.stringify of so deep a value is a
   * recursion of its own).
   */
  function nestedScripts(depth: number, every: number): string {
    const script = (name: string) => `{"name":${JSON.stringify(name)},"isFolder":false}`;
    let text = `[${script("first")}`;
    for (let i = 0; i < depth; i++) text += `,{"name":"F${i}","isFolder":true,"folderScriptNames":[${i % every === 0 || i === depth - 1 ? script(`S${i}`) : ""}`;
    text = text.replace(/\[,/g, "[") + "]}".repeat(depth) + `,${script("last")}]`;
    return `{"response":{"scripts":${text}},"messages":[{"code":"0","message":"OK"}]}`;
  }

  async function pullNested(depth: number, every: number): Promise<{ text: string; listing: string; check: Awaited<ReturnType<typeof runPull>> }> {
    const listing = nestedScripts(depth, every);
    const proxy = await scriptsProxy(emu.url, 200, listing);
    try {
      const root = await copyExample("contacts");
      const pulled = await runPull(root, proxy.url);
      expect(pulled.err).toBe("");
      expect(pulled.code).toBe(0);
      const text = await readFile(join(root, FILE), "utf8");
      // A second pull finds the file up to date: what it wrote reads back as the same scripts and folders.
      const check = await runPull(root, proxy.url, ["--check"]);
      return { text, listing, check };
    } finally {
      await proxy.close();
    }
  }

  it("3,000 folders with a script in each: the file's size is linear in the listing's, and --check reads it back", async () => {
    const { text, listing, check } = await pullNested(3_000, 1);
    expect(check.code).toBe(0);
    expect(check.out).toMatch(/Contacts\.database\.json: up to date/);
    // Each script once, each folder once: at most twice the listing (it is about 100 B per level), never its square.
    expect(text.length).toBeLessThan(2 * listing.length);
    const file = JSON.parse(text) as DatabaseDescriptionInput;
    expect(file.scripts).toHaveLength(3_002);
    expect(file.scripts![0]).toEqual({ name: "first" });
    expect(file.scripts![1]).toEqual({ name: "S0", folder: "F0" });
  });

  it("6,000 folders deep: the pull writes the file and --check reads it back", async () => {
    const { text, check } = await pullNested(6_000, 1_000);
    expect(check.code).toBe(0);
    expect(check.out).toMatch(/Contacts\.database\.json: up to date/);
    expect((JSON.parse(text) as DatabaseDescriptionInput).scripts!.map((s) => s.name)).toEqual(["first", "S0", "S1000", "S2000", "S3000", "S4000", "S5000", "S5999", "last"]);
  });
});

describe("folders by index (the format for folders more than 8 deep)", () => {
  const chain = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `F${i}`, ...(i ? { in: i - 1 } : {}) }));
  const path = (n: number) => Array.from({ length: n }, (_, i) => `F${i}`);

  it("mergeDatabase writes a folder up to 8 deep as its path, a deeper one as its index in folders, each folder once", () => {
    const live = [
      { name: "Eight", folder: path(8) },
      { name: "Nine", folder: path(9) },
      { name: "Ten", folder: path(10) },
      { name: "Other", folder: [...path(8), "G"] },
    ];
    expect(mergeDatabase("Contacts", live, undefined, undefined)).toEqual({
      database: "Contacts",
      scripts: [
        { name: "Eight", folder: path(8) },
        { name: "Nine", folder: 8 },
        { name: "Ten", folder: 9 },
        { name: "Other", folder: 10 },
      ],
      folders: [...chain(10), { name: "G", in: 7 }],
    });
  });

  it("parseDatabaseDescription gives each script its path, 6,000 deep, walking the folders without recursion", () => {
    const parsed = parseDatabaseDescription({ database: "Contacts", scripts: [{ name: "Deep", folder: 5_999 }, { name: "Top" }], folders: chain(6_000) });
    expect(parsed.scripts[0]!.folder).toEqual(path(6_000));
    expect(parsed.scripts[1]!.folder).toEqual([]);
  });

  it("refuses a folder in a later (or its own) folder and a script in a folder that is not there, naming the paths", () => {
    expect(() => parseDatabaseDescription({ database: "Contacts", scripts: [{ name: "A", folder: 2 }], folders: [{ name: "F", in: 0 }] }, "x.database.json")).toThrow(
      "x.database.json: folders[0].in: must be the index of an earlier folder (below 0); scripts[0].folder: folders has no index 2 (it has 1 folders)",
    );
  });

  it("diffDatabase: the same folder by path or by index is no change; a deep move shows each end's first and last names and depth", () => {
    const byPath: DatabaseDescriptionInput = { database: "Contacts", scripts: [{ name: "A", folder: path(12) }, { name: "B", folder: path(3) }] };
    const byIndex: DatabaseDescriptionInput = { database: "Contacts", scripts: [{ name: "A", folder: 11 }, { name: "B", folder: 2 }], folders: chain(12) };
    expect(diffDatabase(byPath, byIndex)).toEqual([]);
    const moved: DatabaseDescriptionInput = { database: "Contacts", scripts: [{ name: "A", folder: 10 }, { name: "B", folder: path(3) }], folders: chain(12) };
    expect(diffDatabase(byIndex, moved)).toEqual([{ kind: "moved", name: "A", from: "F0/F1/F2/.../F9/F10/F11 (12 folders deep)", to: "F0/F1/F2/.../F8/F9/F10 (11 folders deep)", breaking: false }]);
  });
});
