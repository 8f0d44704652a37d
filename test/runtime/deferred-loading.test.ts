import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeGraph } from "../support/runtime-graph.js";
import { startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { DATABASE, PASSWORD, USERNAME } from "../support/runtime-layouts.js";

// What most apps never use is loaded on its first use (a dynamic import), not by `import "@fmgen/runtime"`: the
// client-level calls (runScript, setGlobals, productInfo, databases, layouts, scripts), uploads, downloads, and the portal rows and
// related-row deletions of creates and edits. The size budgets of scripts/runtime-size.mjs count the entries without
// them and each of them on its own.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
// container-field: the container check upload and download share, loaded with the first of them; container-file
// (core/): the file a download hands out, loaded with the first download.
const DEFERRED = ["database-calls", "layout-list", "upload", "download", "container-field", "container-file", "portal-writes"];

describe("features loaded on first use", () => {
  it.each([
    ["index.ts", "node"],
    ["fetch.ts", "neutral"],
  ] as const)("are outside the static module graph of %s", async (entry, platform) => {
    const graph = await runtimeGraph(entry, platform, { staticOnly: true });
    expect(graph).toEqual(expect.arrayContaining(["client.ts", "layout-client.ts", "session.ts"]));
    for (const name of DEFERRED) expect(graph).not.toContain(`${name}.ts`);
  });

  describe("the built package, in a Node process", () => {
    let emu: Emulator;
    let dir: string;
    beforeAll(async () => {
      if (!existsSync(join(ROOT, "packages/runtime/dist/data-api/upload.js"))) throw new Error("build the runtime first (npm run build)");
      emu = await startRuntimeEmulator();
      dir = mkdtempSync(join(tmpdir(), "fmgen-load-log-"));
    });
    afterAll(async () => {
      await emu?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it.each([
      ["@fmgen/runtime", "index"],
      ["@fmgen/runtime/fetch", "fetch"],
    ])("%s loads none of them for records, and each on the first call that needs it", { timeout: 30_000 }, async (specifier, entry) => {
      const log = join(dir, `loads-${entry}.txt`);
      // A marker line in the log between the steps says what was loaded before which call.
      const script = `
        import { appendFileSync } from "node:fs";
        import { createClient, defineLayout } from "${specifier}";
        const Contact = defineLayout()({ database: "Contacts", layout: "Contacts Web", fields: { "First Name": { type: "text" } }, containers: { Photo: {} }, portals: { Invoices: { fields: { "Invoices::Amount": { type: "number" } } } } });
        const mark = (step) => appendFileSync(process.env.FMGEN_LOAD_LOG, "step " + step + "\\n");
        const fm = createClient({ server: ${JSON.stringify(emu.url)}, database: ${JSON.stringify(DATABASE)}, auth: { username: ${JSON.stringify(USERNAME)}, password: ${JSON.stringify(PASSWORD)} } });
        const contacts = fm.layout(Contact);
        const { data } = await contacts.list({ limit: 1 });
        await contacts.find({ query: [{ "First Name": "Ada" }] });
        mark("records");
        const info = await fm.productInfo();
        const layouts = await fm.layouts();
        mark("client calls");
        const { modId } = await contacts.upload(data[0].recordId, "Photo", new Uint8Array([1, 2, 3]), { filename: "a.bin" });
        mark("upload");
        const downloaded = (await (await contacts.download(data[0].recordId, "Photo")).bytes()).length;
        mark("download");
        await contacts.edit(data[0].recordId, { portalData: { Invoices: [{ "Invoices::Amount": 5 }] } });
        mark("portal writes");
        await fm.close();
        console.log(JSON.stringify({ product: info.name, layouts: layouts.length, modId, downloaded }));`;
      const out = await runNode(["--import", "./test/support/load-log.mjs", "--input-type=module", "-e", script], { FMGEN_LOAD_LOG: log });
      expect(JSON.parse(out)).toEqual({ product: expect.any(String), layouts: expect.any(Number), modId: expect.any(String), downloaded: 3 });

      // The runtime's files loaded in each step, by name.
      const steps: Record<string, string[]> = {};
      let loaded: string[] = [];
      for (const line of readFileSync(log, "utf8").split("\n")) {
        if (line.startsWith("step ")) {
          steps[line.slice(5)] = loaded;
          loaded = [];
        } else if (line.includes("/packages/runtime/dist/")) loaded.push(line.split("/").pop()!.replace(/\.js$/, ""));
      }
      expect(steps.records).toEqual(expect.arrayContaining([entry, "client", "layout-client"]));
      for (const name of DEFERRED) expect(steps.records).not.toContain(name);
      expect(steps["client calls"]!.sort()).toEqual(["database-calls", "layout-list"]);
      expect(steps.upload).toEqual(["upload", "container-field"]);
      expect(steps.download).toEqual(["download", "container-file"]);
      expect(steps["portal writes"]).toEqual(["portal-writes"]);
    });
  });
});

/** Runs Node with `args` at the repository's root; resolves to its stdout. */
function runNode(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, timeout: 20_000 });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`))));
  });
}
