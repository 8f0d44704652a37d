import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { createODataClient, f, type ODataClient } from "../../../src/runtime/odata/index.js";
import { Audit, PASSWORD, startOffice, USER } from "./support.js";

// The server cuts a page at 10,000 rows (wire contract 2.5, with a nextLink): list without `top` reads on until every
// match is in; with `top`, one request. One table of 10,003 rows.

let emu: RunningEmulator;
let od: ODataClient<"Office">;
beforeAll(async () => {
  emu = await startOffice({}, 10_003);
  od = createODataClient({ server: emu.url, database: "Office", auth: { username: USER, password: PASSWORD } });
});
afterAll(async () => {
  await od.close();
  await emu.close();
});

it("list reads past the server's 10,000-row page, and count: true counts every match", async () => {
  const all = await od.table(Audit).list({ select: ["N"], count: true });
  expect(all.value).toHaveLength(10_003);
  expect(all.count).toBe(10_003);
  expect(all.value.at(-1)).toEqual({ N: 10_003 });
  expect(new Set(all.value.map((r) => r.N)).size).toBe(10_003);
  expect((await od.table(Audit).list({ select: ["N"], filter: f.gt("N", 5), skip: 2 })).value).toHaveLength(9_996);
  expect((await od.table(Audit).list({ select: ["N"], top: 10_000 })).value).toHaveLength(10_000);
});
