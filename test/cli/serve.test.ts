import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import type { CliIo } from "../../src/cli/io.js";

const bin = new URL("../../dist/cli/bin.js", import.meta.url).pathname;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

function serve(args: string[]): { child: ChildProcess; firstLine: Promise<string> } {
  const child = spawn(process.execPath, [bin, "serve", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  const firstLine = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
  });
  return { child, firstLine };
}

function memoryIo(stop: Promise<void> = new Promise(() => {})): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (l) => out.push(l), stderr: (l) => err.push(l), stopSignal: () => stop };
}

describe("fmgen serve", () => {
  it("prints its loopback base URL first, serves the example, and stops when killed", async () => {
    const { child, firstLine } = serve(["--layouts", "examples/contacts/layouts", "--data", "examples/contacts/seed.json", "--account", "me:p:w"]);
    const url = await firstLine;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // "--account me:p:w" is user "me" with password "p:w": only the first colon separates them.
    const res = await fetch(`${url}/fmi/data/vLatest/databases/Contacts/sessions`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from("me:p:w").toString("base64")}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { messages: { code: string }[] }).messages[0]!.code).toBe("0");
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("runs in-process and closes on the stop signal", async () => {
    let stop!: () => void;
    const io = memoryIo(new Promise<void>((resolve) => (stop = resolve)));
    const done = run(["serve", "--layouts", "examples/contacts/layouts"], io);
    await expect.poll(() => io.out.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(io.out[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    stop();
    expect(await done).toBe(0);
  });

  it("prints the base URL first, then the Data API's and OData's base URLs (and those under an API key's prefix), then the inspector's, each of which answers", async () => {
    let stop!: () => void;
    const io = memoryIo(new Promise<void>((resolve) => (stop = resolve)));
    const done = run(["serve", "--layouts", "examples/contacts/layouts", "--account", "me:pw", "--api-key", "k1", "--api-key", "k2@/otto"], io);
    await expect.poll(() => io.out.length, { timeout: 30_000 }).toBe(6);
    const url = io.out[0]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(io.out.slice(1)).toEqual([
      `Data API: ${url}/fmi/data/vLatest`,
      `OData:    ${url}/fmi/odata/v4`,
      `Data API (API keys under /otto): ${url}/otto/fmi/data/vLatest`,
      `OData (API keys under /otto):    ${url}/otto/fmi/odata/v4`,
      `Inspector: ${url}/fmgen/`,
    ]);
    const at = (line: string) => line.slice(line.indexOf("http://"));
    const basic = `Basic ${Buffer.from("me:pw").toString("base64")}`;
    const odata = await fetch(at(io.out[2]!), { headers: { authorization: basic } });
    expect(odata.status).toBe(200);
    expect(((await odata.json()) as { value: { name: string }[] }).value.map((v) => v.name)).toContain("Contacts");
    const login = await fetch(`${at(io.out[1]!)}/databases/Contacts/sessions`, { method: "POST", headers: { authorization: basic, "content-type": "application/json" }, body: "{}" });
    expect(login.status).toBe(200);
    expect((await fetch(`${at(io.out[4]!)}/Contacts/Contacts?$top=1`, { headers: { authorization: "Bearer k2" } })).status).toBe(200);
    expect((await fetch(`${at(io.out[3]!)}/databases/Contacts/layouts`, { headers: { authorization: "Bearer k2" } })).status).toBe(200);
    const page = await fetch(at(io.out[5]!));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("fmgen emulator inspector");
    stop();
    expect(await done).toBe(0);
  });

  it("names a bad description file and exits 1", async () => {
    const io = memoryIo();
    expect(await run(["serve", "--layouts", "examples/contacts/seed.json"], io)).toBe(1);
    expect(io.err.join("\n")).toMatch(/examples\/contacts\/seed\.json: /);
  });

  it("rejects a malformed --account, and neither --layouts nor --tables, with usage errors", async () => {
    const io = memoryIo();
    expect(await run(["serve", "--layouts", "examples/contacts/layouts", "--account", "nocolon"], io)).toBe(1);
    expect(io.err.join("\n")).toMatch(/--account must be user:password/);
    const io2 = memoryIo();
    expect(await run(["serve"], io2)).toBe(2);
    expect(io2.err.join("\n")).toMatch(/fmgen serve needs --layouts, --tables or both/);
  });
});
