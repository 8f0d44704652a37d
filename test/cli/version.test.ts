import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { memoryIo } from "../pull/helpers.js";

const VERSION = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;

describe("fmgen --version", () => {
  it("prints the version of fmgen's package.json and exits 0", async () => {
    const io = memoryIo();
    expect(await run(["--version"], io)).toBe(0);
    expect(io.out).toEqual([VERSION]);
    expect(io.err).toEqual([]);
  });

  it("is listed in --help", async () => {
    const io = memoryIo();
    const logs: string[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => logs.push(args.join(" "));
    try {
      await run(["--help"], io);
    } finally {
      console.log = log;
    }
    expect([...logs, ...io.out].join("\n")).toMatch(/--version\s+Print fmgen's version and exit/);
  });

  it("works from the built bin, as `npx fmgen --version` runs it", () => {
    const bin = fileURLToPath(new URL("../../dist/cli/bin.js", import.meta.url));
    expect(execFileSync(process.execPath, [bin, "--version"], { encoding: "utf8" })).toBe(`${VERSION}\n`);
  });
});
