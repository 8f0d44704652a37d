import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DATA_FILES, DataDirectory, DataDirectoryError } from "../../../src/emulator/store/data-directory.js";
import { NumberToken } from "../../../src/runtime/core/json-numbers.js";

// The data directory's files (src/emulator/store/data-directory.ts): what was appended comes back in order after a
// reopen, a snapshot replaces the journal, a torn last line is dropped, damage is refused by name, one holder at a time.

const dirs: string[] = [];
const open: DataDirectory[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "fmgen-data-dir-"));
  dirs.push(dir);
  return dir;
}
async function opened<S = unknown, E = unknown>(dir: string, options?: { reset?: boolean }) {
  const result = await DataDirectory.open<S, E>(dir, options);
  open.push(result.directory as DataDirectory);
  return result;
}
afterEach(async () => {
  for (const d of open.splice(0)) await d.close();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe("a data directory", () => {
  it("starts empty, and gives back every appended entry in order after a reopen", async () => {
    const dir = await freshDir();
    const first = await opened<unknown, { n: number }>(dir);
    expect(first.stored).toEqual({ snapshot: undefined, entries: [] });
    await Promise.all(Array.from({ length: 100 }, (_, n) => first.directory.append({ n })));
    await first.directory.close();
    const again = await opened<unknown, { n: number }>(dir);
    expect(again.stored.entries.map((e) => e.n)).toEqual(Array.from({ length: 100 }, (_, n) => n));
  });

  it("keeps long numbers digit for digit", async () => {
    const dir = await freshDir();
    const key = "1234567890123456789012345678901234567890123456789012345678";
    const first = await opened(dir);
    await first.directory.append({ key: new NumberToken(key) });
    await first.directory.close();
    const again = await opened<unknown, { key: NumberToken }>(dir);
    expect(again.stored.entries[0]!.key).toBeInstanceOf(NumberToken);
    expect(again.stored.entries[0]!.key.text).toBe(key);
  });

  it("replaces the journal with a snapshot; entries after it come back after it", async () => {
    const dir = await freshDir();
    const first = await opened<{ total: number }, { n: number }>(dir);
    for (let n = 1; n <= 3; n++) await first.directory.append({ n });
    await first.directory.snapshot({ total: 6 });
    expect(first.directory.journalBytes).toBe(0);
    await first.directory.append({ n: 4 });
    await first.directory.close();
    const again = await opened<{ total: number }, { n: number }>(dir);
    expect(again.stored).toEqual({ snapshot: { total: 6 }, entries: [{ n: 4 }] });
  });

  it("writes entries appended while a snapshot is written after it, none lost", async () => {
    const dir = await freshDir();
    const first = await opened<{ upTo: number }, { n: number }>(dir);
    await first.directory.append({ n: 1 });
    const snapshot = first.directory.snapshot({ upTo: 1 });
    const later = Array.from({ length: 20 }, (_, i) => first.directory.append({ n: 2 + i }));
    await Promise.all([snapshot, ...later]);
    await first.directory.close();
    const again = await opened<{ upTo: number }, { n: number }>(dir);
    expect(again.stored.snapshot).toEqual({ upTo: 1 });
    expect(again.stored.entries.map((e) => e.n)).toEqual(Array.from({ length: 20 }, (_, i) => 2 + i));
  });

  it("drops a torn last line (a write the process was killed in) and appends after it on a line of its own", async () => {
    const dir = await freshDir();
    const first = await opened<unknown, { n: number }>(dir);
    await first.directory.append({ n: 1 });
    await first.directory.close();
    await appendFile(join(dir, DATA_FILES.journal), '0badc0de 2 {"n":2');
    const second = await opened<unknown, { n: number }>(dir);
    expect(second.stored.entries).toEqual([{ n: 1 }]);
    await second.directory.append({ n: 3 });
    await second.directory.close();
    expect((await opened<unknown, { n: number }>(dir)).stored.entries).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it("refuses a damaged line, naming the file and the line, and a snapshot it did not write", async () => {
    const dir = await freshDir();
    const first = await opened(dir);
    await first.directory.append({ n: 1 });
    await first.directory.append({ n: 2 });
    await first.directory.close();
    const journal = join(dir, DATA_FILES.journal);
    const lines = (await readFile(journal, "utf8")).split("\n");
    await writeFile(journal, [lines[0], lines[1]!.replace('"n":2', '"n":9'), ""].join("\n"));
    await expect(DataDirectory.open(dir)).rejects.toThrow(new DataDirectoryError(`${journal}: line 2 is damaged (its checksum does not match): the data directory cannot be opened as it is; restore it from a copy, or start over with --reset`));
    await writeFile(join(dir, DATA_FILES.snapshot), "{not json");
    await expect(DataDirectory.open(dir)).rejects.toThrow(`${join(dir, DATA_FILES.snapshot)}: not a snapshot fmgen wrote`);
    // --reset starts over, and the refused opens left the lock free.
    expect((await opened(dir, { reset: true })).stored).toEqual({ snapshot: undefined, entries: [] });
  });

  it("is held by one emulator at a time: a second in this process, or another process, is refused", async () => {
    const dir = await freshDir();
    await opened(dir);
    await expect(DataDirectory.open(dir)).rejects.toThrow(`${dir} is already open in this process`);
    const other = await freshDir();
    // A lock held by a live process that is not this one: the one that started this test.
    await writeFile(join(other, DATA_FILES.lock), JSON.stringify({ pid: process.ppid }));
    await expect(DataDirectory.open(other)).rejects.toThrow(`${other} is in use by another fmgen serve (process ${process.ppid})`);
    // A lock whose process is gone (a pid above Linux's highest): taken over.
    await writeFile(join(other, DATA_FILES.lock), JSON.stringify({ pid: 2 ** 22 + 1 }));
    expect((await opened(other)).stored.entries).toEqual([]);
    expect(JSON.parse(await readFile(join(other, DATA_FILES.lock), "utf8"))).toEqual({ pid: process.pid });
  });
});
