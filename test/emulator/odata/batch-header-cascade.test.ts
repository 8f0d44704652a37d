import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { batch, partJson, S, single } from "./batch-support.js";
import { metadataIds, startOffice } from "./serve-support.js";

// Batch-level headers cascade into the parts (docs/emulator.md "$batch", choice after FSP/12): a GET part carries no
// headers on FMS (PKS framing), so @proofkit/fmodata's `Accept: …;odata.metadata=none` and `Prefer` ride on the batch
// request; a part's own header still wins.

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startOffice(2);
});
afterAll(() => emu.close());

const read = { kind: "request", method: "GET", url: `${S}/Contacts?$top=1&$select=Name` } as const;

describe("batch-level headers reach the parts", () => {
  it("the batch's Accept odata.metadata=none drops a GET part's ids; its Prefer keys fields by FMFID", async () => {
    const a = await batch(emu.url, [read], { Accept: "application/json;odata.metadata=none" });
    expect(partJson(single(a.items![0]))).toEqual({ value: [{ Name: "Ada" }] });
    const name = (await metadataIds(emu.url)).field("Contacts", "Name");
    const b = await batch(emu.url, [{ kind: "request", method: "GET", url: `${S}/Contacts?$top=1&$select=${name}` }], { Prefer: "fmodata.entity-ids" });
    expect(partJson(single(b.items![0])).value[0][name]).toBe("Ada");
  });

  it("a part's own header wins over the batch's, and without either a part answers the defaults", async () => {
    const own = await batch(emu.url, [{ ...read, headers: [["Accept", "application/json;odata.metadata=minimal"]] }], { Accept: "application/json;odata.metadata=none" });
    // batch() sends `OData-Version: 4.0`, which cascades too: the prefixed annotations (2.2).
    expect(partJson(single(own.items![0])).value[0]).toHaveProperty(["@odata.id"]);
    const none = await batch(emu.url, [read]);
    expect(partJson(single(none.items![0])).value[0]).toHaveProperty(["@odata.id"]);
  });
});
