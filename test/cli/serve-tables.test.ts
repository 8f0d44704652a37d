import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import type { CliIo } from "../../src/cli/io.js";

// `fmgen serve --tables <file|dir>...` (docs/emulator.md, "Table descriptions"): the built CLI in its own process,
// serving a table that only a table description describes, through OData, seeded by table name.

const bin = new URL("../../dist/cli/bin.js", import.meta.url).pathname;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "fmgen-serve-tables-"));
  await writeFile(
    join(dir, "Tasks.table.json"),
    JSON.stringify({
      $schema: "../schema/table.schema.json",
      database: "Work",
      table: "Tasks",
      id: "FMTID:1065300",
      key: "No",
      fields: [
        { name: "No", type: "number", autoEnter: "serial", readOnly: true, notNull: true },
        { name: "Title", type: "text", notNull: true, maxLength: 80 },
      ],
    }),
  );
  await writeFile(join(dir, "seed.json"), JSON.stringify({ records: { Tasks: [{ Title: "first" }] } }));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function memoryIo(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (l) => out.push(l), stderr: (l) => err.push(l), stopSignal: () => new Promise(() => {}) };
}

describe("fmgen serve --tables", () => {
  it("serves a table described only by a table description, read and written through OData", async () => {
    const child = spawn(process.execPath, [bin, "serve", "--tables", dir, "--data", join(dir, "seed.json"), "--account", "me:pw"], { stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
    });
    const headers = { Authorization: `Basic ${Buffer.from("me:pw").toString("base64")}`, "Content-Type": "application/json" };
    const base = `${url}/fmi/odata/v4/Work`;
    const created = await fetch(`${base}/Tasks`, { method: "POST", headers, body: JSON.stringify({ Title: "second" }), signal: AbortSignal.timeout(10_000) });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ No: 2, Title: "second" });
    const read = await fetch(`${base}/Tasks(1)`, { headers, signal: AbortSignal.timeout(10_000) });
    expect(await read.json()).toMatchObject({ No: 1, Title: "first" });
    const metadata = await (await fetch(`${base}/$metadata`, { headers, signal: AbortSignal.timeout(10_000) })).text();
    expect(metadata).toContain(`<Annotation Term="com.filemaker.odata.TableID" String="FMTID:1065300" />`);
    expect(metadata).toContain(`<Property Name="Title" Type="Edm.String" Nullable="false" MaxLength="80">`);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("names a bad table description file and exits 1", async () => {
    const bad = join(dir, "bad.json");
    await writeFile(bad, JSON.stringify({ database: "Work", table: "T", key: "nope", fields: [{ name: "a", type: "text" }] }));
    const io = memoryIo();
    expect(await run(["serve", "--tables", bad], io)).toBe(1);
    expect(io.err.join("\n")).toContain(`${bad}: key: names no field of the table: "nope"`);
  });
});
