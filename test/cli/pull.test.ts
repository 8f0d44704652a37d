import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import type { PullResult } from "../../src/pull/index.js";
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
    const html = createServer((_, res) => res.writeHead(404, { "content-type": "text/html" }).end("<html>Not Found</html>"));
    await new Promise<void>((resolve) => html.listen(0, "127.0.0.1", resolve));
    const web = await runPull(root, `http://127.0.0.1:${(html.address() as AddressInfo).port}`);
    html.close();
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
