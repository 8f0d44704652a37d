import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { startBuiltServe, stopAllServes } from "../support/built-serve.js";

// `fmgen serve --export-on-exit FILE` (docs/emulator.md, "Snapshots"), the built CLI: stopped by SIGTERM or SIGINT it
// writes FILE, which --data reads back (even as the same file: nothing lost); a FILE it cannot write is named on
// stderr and the command exits 1. Bounded: every wait has a timeout.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const LAYOUTS = join(ROOT, "examples/contacts/layouts");
const SEED = join(ROOT, "examples/contacts/seed.json");
const BASIC = `Basic ${Buffer.from("web:secret").toString("base64")}`;
const RECORDS = "/fmi/data/vLatest/databases/Contacts/layouts/Contacts%20Web/records";

const dirs: string[] = [];
afterAll(async () => {
  stopAllServes();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** The built `fmgen serve` on the contacts example; `stop` resolves with its exit code and what it wrote to stderr. */
async function serve(args: string[]): Promise<{ url: string; stop(signal: NodeJS.Signals): Promise<{ code: number | null; stderr: string }> }> {
  const served = await startBuiltServe(["--layouts", LAYOUTS, ...args]);
  return { url: served.url, stop: async (signal) => ({ code: await served.stop(signal), stderr: served.stderr() }) };
}

async function create(url: string, name: string): Promise<string> {
  const login = await fetch(`${url}/fmi/data/vLatest/databases/Contacts/sessions`, { method: "POST", headers: { Authorization: BASIC, "Content-Type": "application/json" }, body: "{}" });
  const token = ((await login.json()) as { response: { token: string } }).response.token;
  const res = await fetch(`${url}${RECORDS}`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify({ fieldData: { "First Name": name } }) });
  return ((await res.json()) as { response: { recordId: string } }).response.recordId;
}

describe("fmgen serve --export-on-exit", () => {
  it("writes the hosted data when stopped, and a start from that file (written over again) loses nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fmgen-serve-export-"));
    dirs.push(dir);
    const file = join(dir, "session.json");
    const first = await serve(["--data", SEED, "--export-on-exit", file]);
    const recordId = await create(first.url, "Hand-made");
    const fromHttp = (await (await fetch(`${first.url}/fmgen/export`)).json()) as { files: unknown };
    expect(await first.stop("SIGTERM")).toMatchObject({ code: 0 });
    const exported = JSON.parse(await readFile(file, "utf8"));
    expect(exported.accounts).toEqual(JSON.parse(await readFile(SEED, "utf8")).accounts);
    expect(exported.files).toEqual(fromHttp.files);
    expect(exported.files.Contacts.tables.Contacts.records.at(-1)).toMatchObject({ recordId: Number(recordId), fieldData: { "First Name": "Hand-made" } });
    expect(await readdir(dir)).toEqual(["session.json"]);

    const second = await serve(["--data", file, "--export-on-exit", file]);
    expect(await second.stop("SIGINT")).toMatchObject({ code: 0 });
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual(exported);
  });

  it("names FILE and the reason on stderr and exits 1 when FILE cannot be written", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fmgen-serve-export-"));
    dirs.push(dir);
    const file = join(dir, "no-such-folder", "out.json");
    const served = await serve(["--export-on-exit", file, "--no-inspector"]);
    const { code, stderr } = await served.stop("SIGTERM");
    expect(code).toBe(1);
    expect(stderr).toContain(`fmgen: ${file}: cannot write the export: ENOENT`);
  });
});
