import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createState } from "../../../src/emulator/index.js";
import { SCRIPT_ENTRY } from "../../../src/emulator/hosted-file/records/entry-options.js";
import { FILE_GLOBALS } from "../../../src/emulator/hosted-file/globals.js";
import { buildNewRecord, commitRecord } from "../../../src/emulator/hosted-file/records/record-writes.js";
import { Persistence } from "../../../src/emulator/store/persistence.js";

// The data directory's group commit (persistence.ts `durable()`): every caller while a write is under way shares the
// one write after it, and a caller resolves as soon as the write holding its changes is on disk, never after a later
// one. Each journal append is slowed here (a real fdatasync is too quick to line up calls by hand).

const SLOW_MS = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const opened: { persistence: Persistence; dir: string }[] = [];
afterEach(async () => {
  for (const { persistence, dir } of opened.splice(0)) {
    await persistence.close();
    await rm(dir, { recursive: true, force: true });
  }
});

async function openSlow() {
  const dir = await mkdtemp(join(tmpdir(), "fmgen-group-commit-"));
  const state = await createState({ layouts: [{ database: "Shop", layout: "Items", table: "Items", fields: [{ name: "Name", type: "text" }] }] });
  const persistence = await Persistence.open(dir, state, { seed: () => {} });
  opened.push({ persistence, dir });
  const db = state.databases.get("Shop")!;
  const table = db.tables.get("Items")!;
  const name = table.model.fields.get("Name")!;
  const create = (text: string) => commitRecord(table, buildNewRecord(table, [{ field: name, repetition: 0, value: text }], state.clock, FILE_GLOBALS, SCRIPT_ENTRY), FILE_GLOBALS, db);
  const append = persistence.directory.append.bind(persistence.directory);
  let appends = 0;
  persistence.directory.append = async (entry) => {
    await sleep(SLOW_MS);
    await append(entry);
    appends++;
  };
  const journalLines = async () => (await readFile(join(dir, "journal.log"), "utf8")).split("\n").filter(Boolean).length;
  return { persistence, create, journalLines, appends: () => appends };
}

describe("the data directory's group commit", () => {
  it("answers a caller once the write holding its change is on disk, not after the writes queued behind it", async () => {
    const { persistence, create, journalLines, appends } = await openSlow();
    create("A");
    const a = persistence.durable();
    await sleep(SLOW_MS / 3); // A's write is under way.
    create("B");
    const b = persistence.durable();
    create("C");
    const c = persistence.durable();
    expect(c).toBe(b); // one write for both, after A's
    await a;
    await sleep(SLOW_MS / 3); // B and C's write is under way.
    create("D");
    const d = persistence.durable();
    // Written when C's caller is answered: A's entry and B and C's, not D's yet.
    expect(await c.then(() => appends())).toBe(2);
    await d;
    expect(appends()).toBe(3);
    expect(await journalLines()).toBe(3);
  });

  it("lets a caller with nothing new to write (a read) wait only for the write under way", async () => {
    const { persistence, create, appends } = await openSlow();
    create("A");
    const a = persistence.durable();
    await sleep(SLOW_MS / 3);
    const read = persistence.durable();
    await read;
    expect(appends()).toBe(1);
    await a;
    // Nothing under way and nothing new: at once, with no write.
    await persistence.durable();
    expect(appends()).toBe(1);
  });
});
