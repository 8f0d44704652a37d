import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfigFile } from "../../src/project/config.js";
import { loadLayoutFile } from "../../src/layout/load.js";
import { loadTableFile } from "../../src/table/load.js";
import { loadDatabaseFile } from "../../src/layout/database-load.js";
import { PullState } from "../../src/pull/state.js";
import { readSeedFile } from "../../src/emulator/hosted-file/seed.js";
import { parseFaultOptions } from "../../src/emulator/http/faults.js";

// Every JSON file fmgen reads for a user goes through one parser, so that each syntax error names the file, the line
// and the column, on Node 20 too (where "Unexpected end of JSON input" holds no position).

/** Ends before its value: Node 20 says only "Unexpected end of JSON input". */
const TRUNCATED = '{\n  "a": ';
/** A trailing comma before `}` at the start of a line: Node 20 gives a position here. */
const TRAILING = '{\n  "a": 1,\n}';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "fmgen-json-readers-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const READERS: [string, string, (file: string) => Promise<unknown>][] = [
  ["the config", "fmgen.config.json", loadConfigFile],
  ["a layout description", "Contacts.layout.json", loadLayoutFile],
  ["a table description", "Contacts.table.json", loadTableFile],
  ["a database description", "Contacts.database.json", loadDatabaseFile],
  ["fmgen.pulled.json", "fmgen.pulled.json", (file) => PullState.read(file)],
  ["a seed (--data)", "seed.json", readSeedFile],
];

describe.each(READERS)("%s", (_what, name, read) => {
  it.each([
    [TRUNCATED, 2, 8],
    [TRAILING, 3, 1],
  ])("%j: names the file, line and column", async (text, line, column) => {
    const file = join(folder, name);
    await writeFile(file, text);
    const error = await read(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: invalid JSON at line ${line}, column ${column}: `));
  });
});

describe("--faults", () => {
  it("names the line and column of its syntax error", () => {
    expect(() => parseFaultOptions('{"rate": ')).toThrow(/^--faults must be JSON like \{"rate":0\.2,"seed":1\}: invalid JSON at line 1, column 10: Unexpected end of JSON input$/);
  });
});
