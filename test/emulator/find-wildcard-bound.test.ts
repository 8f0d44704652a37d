import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFORMANCE_LAYOUTS, DataApi, expectError, expectOk, NOTES, p, type HttpResult } from "../support/data-api-http.js";
import { startEmulatorProcess, type EmulatorProcess } from "../support/emulator-process.js";

// A find's cost is bounded by (value length) x (criterion length), whatever the wildcards: a criterion with 50
// wildcards against a 10,000-character value is answered at once, and the emulator keeps answering others
// meanwhile. A backtracking matcher takes longer than the age of the universe here, so these tests fail by
// their timeout; the emulator runs in its own process so that a stuck one cannot stall the test itself.

const TIMEOUT_MS = 5_000;
const LONG = 10_000;
/** 10,000 characters: only `a`, so no criterion that needs a `b` or `c` can match it. */
const ALL_A = "a".repeat(LONG);
/** 10,000 characters: `a`s then one `b`. */
const A_THEN_B = `${"a".repeat(LONG - 1)}b`;

let emu: EmulatorProcess;
let api: DataApi;
let token: string;
let seedDir: string;

beforeAll(async () => {
  seedDir = await mkdtemp(join(tmpdir(), "fmgen-wildcard-seed-"));
  const seed = join(seedDir, "seed.json");
  const notes = [{ Title: "all a", Body: ALL_A }, { Title: "a then b", Body: A_THEN_B }, { Title: "short", Body: "ab" }];
  await writeFile(seed, JSON.stringify({ accounts: [{ username: "web", password: "secret", privileges: ["fmrest"] }], records: { Notes: notes } }));
  emu = await startEmulatorProcess({ layouts: [CONFORMANCE_LAYOUTS], data: seed });
  api = new DataApi(emu.url);
  token = await api.login();
});
afterAll(async () => {
  await emu?.stop();
  await rm(seedDir, { recursive: true, force: true });
});

/** A find and, sent right after it, a plain record read; both must be answered. */
async function findWithNeighbour(criterion: string): Promise<{ find: HttpResult; neighbour: HttpResult }> {
  const find = api.call("POST", p`/databases/Contacts/layouts/${NOTES}/_find`, { token, json: { query: [{ Body: criterion }] } });
  const neighbour = api.call("GET", p`/databases/Contacts/layouts/${NOTES}/records/3`, { token });
  return { find: await find, neighbour: await neighbour };
}

function titles(res: HttpResult): string[] {
  return expectOk(res).data.map((record: { fieldData: { Title: string } }) => record.fieldData.Title);
}

const STARS_50 = "a*".repeat(50);

describe("finds with 50 wildcards against 10,000-character values", () => {
  it("a word criterion that matches: the right record, and a concurrent request answered", { timeout: TIMEOUT_MS }, async () => {
    const { find, neighbour } = await findWithNeighbour(`${STARS_50}b`);
    expect(titles(find)).toEqual(["a then b"]);
    expect(expectOk(neighbour).data[0].fieldData.Title).toBe("short");
  });

  it("a word criterion that matches nothing: 404 / 401, and a concurrent request answered", { timeout: TIMEOUT_MS }, async () => {
    const { find, neighbour } = await findWithNeighbour(`${STARS_50}c`);
    expectError(find, 404, "401");
    expect(expectOk(neighbour).data[0].fieldData.Title).toBe("short");
  });

  it("a whole-field (==) criterion with `*` and `@` that matches: the right record", { timeout: TIMEOUT_MS }, async () => {
    const { find, neighbour } = await findWithNeighbour(`==${"@*".repeat(25)}${"a*".repeat(25)}b`);
    expect(titles(find)).toEqual(["a then b"]);
    expectOk(neighbour);
  });

  it("a whole-field (==) criterion that matches nothing: 404 / 401", { timeout: TIMEOUT_MS }, async () => {
    const { find, neighbour } = await findWithNeighbour(`==${"*a".repeat(50)}*c`);
    expectError(find, 404, "401");
    expectOk(neighbour);
  });

  it("a `=` whole-word criterion with `#` and `*` that matches nothing: 404 / 401", { timeout: TIMEOUT_MS }, async () => {
    const { find, neighbour } = await findWithNeighbour(`=${"*a".repeat(49)}*#`);
    expectError(find, 404, "401");
    expectOk(neighbour);
  });
});
