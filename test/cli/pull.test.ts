import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import type { PullResult } from "../../src/pull/index.js";
import { listenLoopback } from "../support/loopback-server.js";
import { copyExample, memoryIo, PULL_PASSWORD, PULL_USER, readTree, runPull, startExampleEmulator, tempDir, type Emulator } from "../pull/helpers.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await startExampleEmulator("contacts");
});
afterAll(() => emu.close());

describe("fmgen pull: output", () => {
  it("shows progress only on a terminal, and the plain report otherwise", async () => {
    const root = await copyExample("contacts");
    const progress: string[] = [];
    const tty = await runPull(root, emu.url, [], memoryIo({ progress: (line) => progress.push(line) }));
    expect(tty.code).toBe(0);
    expect(progress).toEqual(["fmgen pull: 1/2 Contacts Web", "fmgen pull: 2/2 Invoices Web", ""]);

    const plain = await runPull(root, emu.url);
    expect(plain.out.split("\n")).toEqual([
      `fmgen pull: database "Contacts" on ${emu.url}`,
      "Contacts Web -> layouts/Contact.layout.json (metadata): up to date",
      "Invoices Web -> layouts/Invoice.layout.json (metadata): up to date",
      'scripts of "Contacts": none on the server, so no layouts/Contacts.database.json',
      "fmgen pull: nothing to write: the descriptions match the server",
    ]);
    expect(plain.err).toBe("");
  });

  it("--json prints the whole result as one JSON document", async () => {
    const root = await copyExample("contacts");
    const { code, out } = await runPull(root, emu.url, ["--json", "--check"]);
    expect(code).toBe(0);
    const result = JSON.parse(out) as PullResult;
    expect(result).toMatchObject({ database: "Contacts", check: true, drift: false, failed: false, written: [], skipped: [] });
    expect(result.layouts.map((l) => [l.layout, l.file, l.status, l.source])).toEqual([
      ["Contacts Web", "layouts/Contact.layout.json", "unchanged", "metadata"],
      ["Invoices Web", "layouts/Invoice.layout.json", "unchanged", "metadata"],
    ]);
  });

  it("--list prints the server's layouts", async () => {
    const root = await copyExample("contacts");
    expect((await runPull(root, emu.url, ["--list"])).out).toBe("Contacts Web\t(table Contacts)\nInvoices Web\t(table Invoices)");
    expect(JSON.parse((await runPull(root, emu.url, ["--list", "--json"])).out)).toMatchObject({ layouts: [{ name: "Contacts Web" }, { name: "Invoices Web" }] });
  });
});

describe("fmgen pull: which layouts, where", () => {
  it("writes new layouts to --dir, and leaves descriptions of another database alone", async () => {
    const root = await copyExample("contacts");
    await writeFile(join(root, "layouts", "Other.layout.json"), JSON.stringify({ database: "Elsewhere", layout: "X", table: "X", fields: [] }));
    const dir = join(root, "more");
    const { code, out } = await runPull(root, emu.url, ["Invoices Web", "--dir", dir]);
    expect(code).toBe(0);
    // An existing description of the layout is updated in place, wherever --dir points.
    expect(out).toMatch(/Invoices Web -> layouts\/Invoice\.layout\.json \(metadata\): up to date/);
    expect(out).not.toMatch(/Contacts Web/);
    const all = await runPull(root, emu.url);
    expect(all.out).toMatch(/skipped layouts\/Other\.layout\.json: it describes another database/);
    const fresh = await copyExample("contacts", { withLayouts: false, withState: false });
    expect((await runPull(fresh, emu.url, ["Invoices Web", "--dir", join(fresh, "elsewhere")])).code).toBe(0);
    expect(await readdir(join(fresh, "elsewhere"))).toEqual(["InvoicesWeb.layout.json"]);
  });

  it("is a usage error (exit 2) with nothing to pull, no server, a bad --sample or --source", async () => {
    const empty = await copyExample("contacts", { withLayouts: false, withState: false });
    const none = await runPull(empty, emu.url);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/no layouts to pull: name them \(fmgen pull "Layout Name" \.\.\.\)/);

    const dir = await tempDir("no-server");
    await writeFile(join(dir, "fmgen.config.json"), JSON.stringify({ layouts: ["layouts"], outDir: "generated" }));
    const io = memoryIo();
    expect(await run(["pull", "--config", join(dir, "fmgen.config.json")], io)).toBe(2);
    expect(io.err.join("\n")).toMatch(/fmgen pull needs a server: pass --server <url>, or set "server" in fmgen\.config\.json/);

    expect((await runPull(empty, emu.url, ["X", "--sample", "0"])).code).toBe(2);
    expect((await runPull(empty, emu.url, ["X", "--source", "guess"])).code).toBe(2);
  });

  it("names a description file it cannot read and writes nothing", async () => {
    const root = await copyExample("contacts");
    await writeFile(join(root, "layouts", "Broken.layout.json"), '{ "database": "Contacts" }');
    const before = await readTree(root);
    const { code, err } = await runPull(root, emu.url);
    expect(code).toBe(1);
    expect(err).toMatch(/Broken\.layout\.json: /);
    expect(await readTree(root)).toEqual(before);
  });
});

describe("fmgen pull: credentials", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of ["FM_USERNAME", "FM_PASSWORD", "PULL_USER_VAR", "PULL_PASSWORD_VAR"]) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  it("reads the variables the config names from the environment, which wins over .env", async () => {
    const root = await copyExample("contacts");
    const config = JSON.parse(await readFile(join(root, "fmgen.config.json"), "utf8")) as Record<string, unknown>;
    config.auth = { usernameEnv: "PULL_USER_VAR", passwordEnv: "PULL_PASSWORD_VAR" };
    await writeFile(join(root, "fmgen.config.json"), JSON.stringify(config));
    await writeFile(join(root, ".env"), `PULL_USER_VAR=${PULL_USER}\nPULL_PASSWORD_VAR='${PULL_PASSWORD}'\n`);
    expect((await runPull(root, emu.url)).code).toBe(0);

    process.env.PULL_PASSWORD_VAR = "wrong";
    const wrong = await runPull(root, emu.url);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/cannot log in to database "Contacts" on http:\/\/127\.0\.0\.1:\d+: wrong account name or password \(FileMaker error 212\); the credentials come from PULL_USER_VAR and PULL_PASSWORD_VAR/);
    expect(wrong.err).not.toContain("wrong\n");
  });

  it("says which variables to set when they are missing (exit 2)", async () => {
    const root = await copyExample("contacts");
    await writeFile(join(root, ".env"), "# nothing here\n");
    delete process.env.FM_USERNAME;
    delete process.env.FM_PASSWORD;
    const { code, err } = await runPull(root, emu.url);
    expect(code).toBe(2);
    expect(err).toMatch(/fmgen pull logs in with the account in FM_USERNAME and FM_PASSWORD; set FM_USERNAME and FM_PASSWORD in the environment or in a \.env file/);
  });

  it("names an unreachable server, a web server that is not a Data API, and an unknown database", async () => {
    const root = await copyExample("contacts");
    const down = await runPull(root, "http://127.0.0.1:9", []);
    expect(down.code).toBe(1);
    expect(down.err).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9: /);
    const html = await listenLoopback((_, res) => res.writeHead(404, { "content-type": "text/html" }).end("<html>Not Found</html>"));
    const web = await runPull(root, html.url);
    await html.close();
    expect(web.code).toBe(1);
    expect(web.err).toMatch(/does not answer as a FileMaker Data API server \(is the URL right\?\): POST \/databases\/Contacts\/sessions: HTTP 404 answer is not a Data API envelope; it begins "<html>Not Found<\/html>"/);
    const nodb = await runPull(root, emu.url, ["--database", "Nowhere", "X"]);
    expect(nodb.code).toBe(1);
    expect(nodb.err).toMatch(/no database "Nowhere" is hosted on http:\/\/127\.0\.0\.1:\d+ \(FileMaker error 100\)/);
  });
});

it("creates the layouts folder it writes into", async () => {
  const root = await copyExample("contacts", { withLayouts: false, withState: false });
  await mkdir(join(root, "unrelated"));
  expect((await runPull(root, emu.url, ["Contacts Web"])).code).toBe(0);
  expect(await readdir(join(root, "layouts"))).toEqual(["ContactsWeb.layout.json"]);
});

describe("fmgen pull: what a new user met", () => {
  it("--name gives the one layout named its TypeScript name, in a new description and in an existing one", async () => {
    const root = await copyExample("contacts", { withLayouts: false, withState: false });
    const first = await runPull(root, emu.url, ["Contacts Web", "--name", "Contact"]);
    expect(first.code).toBe(0);
    expect(await readdir(join(root, "layouts"))).toEqual(["Contact.layout.json"]);
    expect(JSON.parse(await readFile(join(root, "layouts", "Contact.layout.json"), "utf8"))).toMatchObject({ layout: "Contacts Web", name: "Contact" });
    // Without --name the file keeps its name; with another, the rename is reported as breaking.
    expect((await runPull(root, emu.url, ["Contacts Web"])).out).toMatch(/Contacts Web -> layouts\/Contact\.layout\.json \(metadata\): up to date/);
    const renamed = await runPull(root, emu.url, ["Contacts Web", "--name", "Person"]);
    expect(renamed.out).toMatch(/\(metadata\): 1 change, 1 breaking\n {2}~ layout name: Contact -> Person {2}\[breaking\]/);
    expect(JSON.parse(await readFile(join(root, "layouts", "Contact.layout.json"), "utf8"))).toMatchObject({ name: "Person" });
  });

  it.each([
    [["Contacts Web", "Invoices Web", "--name", "Contact"], /--name names one layout: pull it alone/],
    [["--name", "Contact"], /--name names one layout/],
    [["Contacts Web", "--name", "Contacts Web"], /--name must be a TypeScript identifier .*got "Contacts Web"/],
  ])("refuses --name where it cannot apply (%j), writing nothing", async (args, message) => {
    const root = await copyExample("contacts");
    const before = await readTree(root);
    const { code, err } = await runPull(root, emu.url, args);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(await readTree(root)).toEqual(before);
  });

  it("names the description files it found when none is of the --database given", async () => {
    const root = await copyExample("contacts");
    const { code, err } = await runPull(root, emu.url, ["--database", "Contcts"]);
    expect(code).toBe(2);
    expect(err).toContain(
      'no description file is of database "Contcts", so there is no layout to pull: found layouts/Contact.layout.json (database "Contacts"), layouts/Invoice.layout.json (database "Contacts"). ' +
        'Check --database (or "database" in the config): did you mean "Contacts"? or name the layouts to pull',
    );
  });

  it("says every layout failed, and exits 1, when none could be read", async () => {
    const root = await copyExample("contacts", { withLayouts: false, withState: false });
    const { code, out, err } = await runPull(root, emu.url, ["Nope", "Neither"]);
    expect(code).toBe(1);
    expect(out).toMatch(/^Nope -> layouts\/Nope\.layout\.json: FAILED: no layout named "Nope"/m);
    expect(err).toBe("fmgen pull: every layout failed (Nope, Neither, see above); nothing written");
    expect(out).toMatch(/^scripts of "Contacts" -> layouts\/Contacts\.database\.json: not read, so left as it is: every layout failed$/m);
    expect(err).not.toMatch(/match the server/);
    const some = await runPull(await copyExample("contacts"), emu.url, ["Contacts Web", "Nope"]);
    expect(some.code).toBe(1);
    expect(some.err).toBe("fmgen pull: failed: Nope, see above; the other descriptions match the server, nothing written");
  });

  it("--env names an env file that does not exist (exit 2); --env-file is the same flag", async () => {
    const root = await copyExample("contacts");
    const missing = await runPull(root, emu.url, ["--env", join(root, "nope.env")]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/the env file .*nope\.env does not exist: pass --env with a file of NAME=value lines/);
    await writeFile(join(root, "other.env"), `FM_USERNAME=${PULL_USER}\nFM_PASSWORD="${PULL_PASSWORD}"\n`);
    await writeFile(join(root, ".env"), "FM_USERNAME=nobody\nFM_PASSWORD=wrong\n");
    expect((await runPull(root, emu.url, ["--env-file", join(root, "other.env")])).code).toBe(0);
    expect((await runPull(root, emu.url, ["--env", join(root, "other.env")])).code).toBe(0);
  });

  it("takes a server URL that already ends in /fmi/data/vLatest", async () => {
    const root = await copyExample("contacts");
    const { code, out } = await runPull(root, `${emu.url}/fmi/data/vLatest`);
    expect(code).toBe(0);
    expect(out).toMatch(/nothing to write: the descriptions match the server/);
  });
});

describe('fmgen pull: a layout named "." or ".."', () => {
  it.each([".", ".."])("%j is refused by name, never read from another URL", async (layout) => {
    const root = await copyExample("contacts");
    const before = emu.stats().requests;
    const { code, out, err } = await runPull(root, emu.url, [layout, "--source", "metadata"]);
    expect(code).toBe(1);
    expect(`${out}\n${err}`).toContain(`layout "${layout}": layoutMetadata: layout "${layout}" cannot be a URL path segment`);
    // The login and the layout list (the metadata endpoint's check), no read of the layout.
    expect(emu.stats().requests - before).toBeLessThanOrEqual(3);
    expect(await readdir(join(root, "layouts"))).toEqual(["Contact.layout.json", "Invoice.layout.json"]);
  });
});
