import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator/index.js";
import { DataApi, expectOk, p } from "../support/data-api-http.js";

// A cascading delete follows data: record n's portal relation (cascadeDelete) leads to record n + 1, so the
// number of records one delete removes, and how deep the chain goes, is the data's choice. Before, each link was a
// nested call: a chain of 20,000 ran out of stack after 2,804 removals, answered 500, and left those 2,804 deleted.
// Now the cascade is collected with a worklist, then removed in one step: the whole chain, or nothing.

const CHAIN = 20_000;

/** Table Links: each record's "Next" portal shows the record whose id is its Next (self-join), cascading. */
const LINKS = {
  database: "Chains",
  layout: "Links",
  table: "Links",
  fields: [
    { name: "id", type: "number" },
    { name: "Next", type: "number" },
  ],
  portals: [{ name: "Next", table: "Links", relation: { parentField: "Next", childField: "id", cascadeDelete: true }, fields: [{ name: "Links::id", type: "number" }] }],
};

/** Table Holders: record n's "Links" portal shows link n (cascading), so a deleteRelated starts a cascade. */
const HOLDERS = {
  database: "Chains",
  layout: "Holders",
  table: "Holders",
  fields: [{ name: "id", type: "number" }],
  portals: [{ name: "Links", table: "Links", relation: { parentField: "id", childField: "id", cascadeDelete: true }, fields: [{ name: "Links::Next", type: "number" }] }],
};

let emu: Awaited<ReturnType<typeof startEmulator>> | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

/** Links 1..count, each pointing at the next; `loop`: the last points back at the first. */
async function startChain(count: number, loop = false): Promise<{ api: DataApi; token: string }> {
  const links = Array.from({ length: count }, (_, i) => ({ id: i + 1, Next: i + 1 < count ? i + 2 : loop ? 1 : 0 }));
  emu = await startEmulator({
    layouts: [LINKS as never, HOLDERS as never],
    data: { accounts: [{ username: "web", password: "secret" }], records: { Links: links, Holders: [{ id: 1 }, { id: 2 }] } },
  });
  const api = new DataApi(emu.url);
  return { api, token: await api.login("web", "secret", "Chains") };
}

const count = (table: string) => emu!.stats().records.Chains![table];

describe("a cascading delete over a chain of records", () => {
  it(`removes every record of a ${CHAIN.toLocaleString("en-US")}-record chain, however deep`, async () => {
    const { api, token } = await startChain(CHAIN);
    expect(count("Links")).toBe(CHAIN);
    expectOk(await api.call("DELETE", p`/databases/Chains/layouts/Links/records/1`, { token }));
    expect(count("Links")).toBe(0);
  });

  it("from the middle of the chain removes that record and the ones after it, and no other", async () => {
    const { api, token } = await startChain(CHAIN);
    expectOk(await api.call("DELETE", p`/databases/Chains/layouts/Links/records/5001`, { token }));
    expect(count("Links")).toBe(5_000);
    const first = expectOk(await api.call("GET", p`/databases/Chains/layouts/Links/records` + "?_limit=10000", { token }));
    expect(first.data.map((r: { recordId: string }) => Number(r.recordId))).toEqual(Array.from({ length: 5_000 }, (_, i) => i + 1));
  });

  it("ends on a chain that loops back to its first record, removing each record once", async () => {
    const { api, token } = await startChain(CHAIN, true);
    expectOk(await api.call("DELETE", p`/databases/Chains/layouts/Links/records/7`, { token }));
    expect(count("Links")).toBe(0);
  });

  it("through deleteRelated: deleting a portal row cascades down the whole chain", async () => {
    const { api, token } = await startChain(CHAIN);
    // Holder 1's "Links" portal shows link 1 (id = id); deleting it cascades through Next to every link.
    expectOk(await api.call("PATCH", p`/databases/Chains/layouts/Holders/records/1`, { token, json: { fieldData: { deleteRelated: "Links.1" } } }));
    expect(count("Links")).toBe(0);
    expect(count("Holders")).toBe(2);
  });
});
