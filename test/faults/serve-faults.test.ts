import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.js";
import { run } from "../../src/cli/run.js";
import { parseFaultOptions } from "../../src/emulator/index.js";

// `fmgen serve --faults '<json>'`: the same options as startEmulator's `faults`, checked before it starts.

function memoryIo(stop: Promise<void> = new Promise(() => {})): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (l) => out.push(l), stderr: (l) => err.push(l), stopSignal: () => stop };
}

describe("fmgen serve --faults", () => {
  it("injects the faults it is given", async () => {
    let stop!: () => void;
    const io = memoryIo(new Promise<void>((resolve) => (stop = resolve)));
    const done = run(["serve", "--layouts", "examples/contacts/layouts", "--account", "web:secret", "--faults", '{"rates":{"capacity956":1},"seed":3}'], io);
    await expect.poll(() => io.out.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const res = await fetch(`${io.out[0]}/fmi/data/vLatest/databases/Contacts/sessions`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from("web:secret").toString("base64")}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { messages: { code: string }[] }).messages[0]!.code).toBe("956");
    stop();
    expect(await done).toBe(0);
  });

  it("refuses malformed or impossible fault options with exit 1", async () => {
    for (const bad of ["{nope", "[1]", '{"rate":2}', '{"kinds":["flood"]}']) {
      const io = memoryIo();
      expect(await run(["serve", "--layouts", "examples/contacts/layouts", "--faults", bad], io)).toBe(1);
      expect(io.err.join("\n")).toMatch(/faults|fault|rate/);
    }
    expect(parseFaultOptions('{"rate":0.2,"seed":9}')).toEqual({ rate: 0.2, seed: 9 });
  });
});
