import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import { createODataClient, f, type TableSpec } from "../../src/runtime/odata/index.js";
import type { TableDescriptionInput } from "../../src/table/schema.js";
import { memoryIo, PULL_PASSWORD, PULL_USER } from "../pull/helpers.js";
import { DB, fmfid, tableProject } from "../pull/odata-support.js";

// Names whose edges are whitespace of every kind: `fmgen pull --odata` keeps them as `$metadata` states them (an XML
// reader that trims values would pull names the server does not have, and every call would fail with 8309), `--check`
// then matches, and a call of the generated module on those fields is answered.

const STOCK: TableDescriptionInput = {
  database: DB,
  table: " Stock\u00a0",
  id: "FMTID:1065400",
  key: "Code ",
  fields: [
    { name: "Code ", type: "text", notNull: true, id: fmfid(1, 1065400) },
    { name: "Price\u00a0", type: "number", id: fmfid(2, 1065400) },
    { name: "\u00a0Lead", type: "text", id: fmfid(3, 1065400) },
    { name: "Wide\u3000", type: "text", id: fmfid(4, 1065400) },
    { name: "\tTabbed\t", type: "text", id: fmfid(5, 1065400) },
    { name: "Lines\r\n", type: "text", id: fmfid(6, 1065400) },
  ],
};

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ tables: [STOCK], accounts: [{ username: PULL_USER, password: PULL_PASSWORD }], log: () => {} });
});
afterAll(() => emu.close());

async function cli(root: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await run([...args, "--config", join(root, "fmgen.config.json")], io);
  return { code, out: io.out.join("\n"), err: io.err.join("\n") };
}

describe("fmgen pull --odata: names with whitespace at their edges", () => {
  it("keeps NBSP, ideographic space, tab, CR/LF and spaces as $metadata states them; --check is clean; a generated call on them is answered", async () => {
    const root = await tableProject();
    const pulled = await cli(root, ["pull", "--odata", "--server", emu.url]);
    expect(pulled.err).toBe("");
    expect(pulled.code).toBe(0);
    const file = JSON.parse(await readFile(join(root, "tables", "Stock.table.json"), "utf8")) as TableDescriptionInput;
    expect(file).toEqual(STOCK);
    expect(await cli(root, ["pull", "--odata", "--server", emu.url, "--check"])).toMatchObject({ code: 0, err: "" });

    expect(await cli(root, ["generate"])).toMatchObject({ code: 0, err: "" });
    const module = (await import(pathToFileURL(join(root, "generated", "stock.table.ts")).href)) as { Stock: TableSpec };
    const od = createODataClient({ server: emu.url, database: DB, auth: { username: PULL_USER, password: PULL_PASSWORD } });
    try {
      const stock = od.table(module.Stock);
      await stock.create({ "Code ": "A", "Price\u00a0": 2.5, "\u00a0Lead": "l", "Wide\u3000": "w", "\tTabbed\t": "t", "Lines\r\n": "n" });
      expect((await stock.list({ select: ["Price\u00a0", "Wide\u3000"], filter: f.eq("\u00a0Lead", "l") })).value).toEqual([{ "Price\u00a0": 2.5, "Wide\u3000": "w" }]);
      expect(await stock.get("A")).toMatchObject({ "Code ": "A", "\tTabbed\t": "t", "Lines\r\n": "n" });
    } finally {
      await od.close();
    }
  });
});
