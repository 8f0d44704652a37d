import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { createClient } from "../../src/runtime/index.js";
import { createClient as createFetchClient } from "../../src/runtime/fetch.js";
import { copyExample, memoryIo, runPull, startExampleEmulator, tempDir, type Emulator } from "../pull/helpers.js";

// A server URL with credentials in it (http://user:secret@host): createClient dropped them silently and fmgen pull
// echoed them in its errors. Both refuse such a URL, saying where credentials go, and never show it.

const SECRET = "s3cret-Pa55";
let emu: Emulator;
beforeAll(async () => {
  emu = await startExampleEmulator("contacts");
});
afterAll(() => emu.close());

/** Server URLs that hold the secret: in the userinfo, with a "/" or "#" cutting it early, and without a scheme. */
const urls = (base: string) => [
  base.replace("://", `://web:${SECRET}@`),
  base.replace("://", `://${SECRET}@`),
  base.replace("://", `://web:${SECRET}/x@`),
  base.replace("://", `://web:${SECRET}#@`),
  `web:${SECRET}@${base.replace(/^https?:\/\//, "")}`,
  `ftp://web:${SECRET}@example.com`,
];

describe("createClient refuses a server URL with credentials", () => {
  it.each(urls("http://127.0.0.1:9"))("%s", (server) => {
    for (const create of [createClient, createFetchClient]) {
      let error: unknown;
      try {
        create({ server, database: "Contacts", auth: { username: "web", password: "pw" } });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toBe("createClient: server must not hold credentials (user:password@): pass them in auth");
    }
  });
});

const CLI_MESSAGE =
  "the server URL must not hold credentials (user:password@): fmgen pull signs in with the account in the environment variables FM_USERNAME and FM_PASSWORD (or a .env file), an app with createClient's auth option";

describe("fmgen refuses a server URL with credentials, and never prints it", () => {
  it("pull --server", async () => {
    for (const server of urls(emu.url)) {
      const root = await copyExample("contacts");
      const before = emu.stats().requests;
      const { code, out, err } = await runPull(root, server);
      expect(code).not.toBe(0);
      expect(`${out}\n${err}`).toContain(CLI_MESSAGE);
      expect(`${out}\n${err}`).not.toContain(SECRET);
      expect(emu.stats().requests).toBe(before);
    }
  });

  it("pull with the server in fmgen.config.json, and generate reading that config", async () => {
    const root = await copyExample("contacts");
    const file = join(root, "fmgen.config.json");
    const config = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...config, server: emu.url.replace("://", `://web:${SECRET}@`) }));
    for (const args of [["pull", "--config", file], ["generate", "--config", file]]) {
      const io = memoryIo();
      expect(await run(args, io)).not.toBe(0);
      const shown = [...io.out, ...io.err].join("\n");
      expect(shown).toContain(CLI_MESSAGE);
      expect(shown).not.toContain(SECRET);
    }
  });

  it("init --server writes nothing", async () => {
    for (const server of urls("https://fms.example.com/fmi/data/vLatest")) {
      const dir = await tempDir("init-credentials");
      const io = memoryIo();
      expect(await run(["init", "--dir", dir, "--server", server, "--database", "Contacts"], io)).not.toBe(0);
      const shown = [...io.out, ...io.err].join("\n");
      expect(shown).toContain(CLI_MESSAGE);
      expect(shown).not.toContain(SECRET);
      expect(await readdir(dir)).toEqual([]);
    }
  });
});
