import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import type { TableDescriptionInput } from "../../src/table/schema.js";
import { typeCheckDir } from "../generate/typecheck.js";
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

/** An app's calls on the generated table: a create, a list with select and filter, and a get, each naming those fields. */
const USAGE = `import { createODataClient, f } from "@fmgen/runtime/odata";
import { Stock } from "./stock.table.js";

export async function useStock(server: string, username: string, password: string) {
  const od = createODataClient({ server, database: "Office", auth: { username, password } });
  try {
    const stock = od.table(Stock);
    await stock.create({ "Code ": "A", "Price\\u00a0": 2.5, "\\u00a0Lead": "l", "Wide\\u3000": "w", "\\tTabbed\\t": "t", "Lines\\r\\n": "n" });
    const listed = (await stock.list({ select: ["Price\\u00a0", "Wide\\u3000"], filter: f.eq("\\u00a0Lead", "l") })).value;
    const row = await stock.get("A");
    return { listed, got: { "Code ": row["Code "], "\\tTabbed\\t": row["\\tTabbed\\t"], "Lines\\r\\n": row["Lines\\r\\n"] } };
  } finally {
    await od.close();
  }
}
`;

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
    // A typed call of the generated module on those fields: it compiles, and the server answers it.
    const generated = join(root, "generated");
    await writeFile(join(generated, "package.json"), '{ "type": "module" }');
    await writeFile(join(generated, "usage.ts"), USAGE);
    expect(typeCheckDir(generated)).toEqual([]);
    const { useStock } = (await import(pathToFileURL(join(generated, "usage.ts")).href)) as { useStock: (server: string, username: string, password: string) => Promise<unknown> };
    expect(await useStock(emu.url, PULL_USER, PULL_PASSWORD)).toEqual({ listed: [{ "Price\u00a0": 2.5, "Wide\u3000": "w" }], got: { "Code ": "A", "\tTabbed\t": "t", "Lines\r\n": "n" } });
  });
});
