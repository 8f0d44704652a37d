import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { f, type ODataClient } from "../../../src/runtime/odata/index.js";
import { auth, DB, startOffice } from "../../emulator/odata/serve-support.js";
import { Receiver } from "../../emulator/odata/webhook-receiver.js";
import { Contacts, Elsewhere, Notes, officeClient } from "./support.js";

// od.webhooks against the emulator: added with a typed select and filter, delivered to a loopback receiver, listed,
// got (null when unknown), invoked and removed.

let emu: RunningEmulator;
let receiver: Receiver;
let od: ODataClient<"Office">;
beforeAll(async () => {
  emu = await startOffice(3, { webhooks: { retryDelayMs: 20, maxRetryDelayMs: 80, timeoutMs: 2_000 } });
  receiver = await Receiver.start();
  od = officeClient(emu.url);
});
afterAll(async () => {
  await od?.close();
  await emu?.close();
  await receiver?.close();
});
const hooks = () => od.webhooks;

describe("od.webhooks", () => {
  it("adds a webhook whose select and filter are rendered from the table's fields, and lists and gets it", async () => {
    const { id } = await hooks().add({ url: `${receiver.url}/notes`, table: Notes, headers: { "X-Secret": "s3" }, select: ["Text", "N"], filter: f.and(f.gt("N", 10), f.contains("Text", "it's")) });
    const expected = { id, table: "Notes", url: `${receiver.url}/notes`, headers: { "X-Secret": "s3" }, notifySchemaChanges: false, select: '"Text","N"', filter: `"N" gt 10 and contains("Text",'it''s')` };
    expect(await hooks().get(id)).toMatchObject({ ...expected, pendingOperations: [] });
    expect(await hooks().list()).toEqual(expect.arrayContaining([expect.objectContaining(expected)]));

    // A change the filter keeps is delivered, with the selected fields and the endpoint's header.
    await fetch(`${emu.url}/fmi/odata/v4/${DB}/Notes`, { method: "POST", headers: { Authorization: auth(), "Content-Type": "application/json" }, body: JSON.stringify({ Text: "it's new", N: 11 }) });
    await fetch(`${emu.url}/fmi/odata/v4/${DB}/Notes`, { method: "POST", headers: { Authorization: auth(), "Content-Type": "application/json" }, body: JSON.stringify({ Text: "filtered out", N: 1 }) });
    const [delivery] = await receiver.wait(1);
    expect(delivery!.path).toBe("/notes");
    expect(delivery!.headers["x-secret"]).toBe("s3");
    expect(delivery!.body.value).toEqual([expect.objectContaining({ Text: "it's new", N: 11 })]);
    expect(Object.keys(delivery!.body.value[0]).filter((k) => !k.startsWith("@"))).toEqual(["N", "Text"]);

    // Invoke sends the payload now, for the rows named.
    const payload = (await hooks().invoke(id, { rowIds: [4] })) as { value: unknown[] };
    expect(payload.value).toEqual([expect.objectContaining({ Text: "it's new" })]);
    await receiver.wait(2);

    await hooks().remove(id);
    expect(await hooks().get(id)).toBeNull();
    expect((await hooks().list()).map((h) => h.id)).not.toContain(id);
  });

  it("refuses bad registrations before sending: another database's table, an unknown field, a bad URL or id", async () => {
    await expect(hooks().add({ url: `${receiver.url}/x`, table: Elsewhere as never })).rejects.toThrow(/database "Other"/);
    await expect(hooks().add({ url: `${receiver.url}/x`, table: Contacts, select: ["Nope" as never] })).rejects.toThrow(/table "Contacts" has no field "Nope"/);
    await expect(hooks().add({ url: "ftp://x/y", table: Contacts })).rejects.toThrow(/url must be an http\(s\) URL/);
    await expect(hooks().add({ url: `${receiver.url}/x`, table: Contacts, headers: { "Bad Name": "v" } })).rejects.toThrow(/header "Bad Name"/);
    await expect(hooks().get(-1)).rejects.toThrow(/id must be a webhook's id/);
    await expect(hooks().remove(999)).rejects.toMatchObject({ code: "-1061" });
    expect(await hooks().list()).toEqual([]);
  });
});
