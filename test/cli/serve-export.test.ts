import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

// `fmgen serve --export-on-exit FILE` (docs/emulator.md, "Snapshots"), the built CLI: stopped by SIGTERM or SIGINT it
// writes FILE, which --data reads back (even as the same file: nothing lost); a FILE it cannot write is named on
// stderr and the command exits 1. Bounded: every wait has a timeout.

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(ROOT, "dist/cli/bin.js");
const LAYOUTS = join(ROOT, "examples/contacts/layouts");
const SEED = join(ROOT, "examples/contacts/seed.json");
const BASIC = `Basic ${Buffer.from("web:secret").toString("base64")}`;
const RECORDS = "/fmi/data/vLatest/databases/Contacts/layouts/Contacts%20Web/records";

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

interface Served {
  url: string;
  stop(signal: NodeJS.Signals): Promise<{ code: number | null; stderr: string }>;
}

function serve(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [BIN, "serve", "--layouts", LAYOUTS, "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async (signal: NodeJS.Signals) => {
    child.kill(signal);
    const code = await Promise.race([exited, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no exit within 10 s of ${signal}: ${stderr}`)), 10_000))]);
    return { code, stderr };
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 20 s: ${stderr}`)), 20_000);
    child.stdout!.setEncoding("utf8").once("data", (chunk: string) => {
      clearTimeout(timer);
      resolve({ url: chunk.split("\n")[0]!.trim(), stop });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`fmgen serve exited (code ${code}) before its URL: ${stderr}`));
    });
  });
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
