import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { boundsOf, makeCaller } from "../../../src/runtime/odata/client-caller.js";
import { fetchCarrier } from "../../../src/runtime/core/fetch-carrier.js";
import { undiciCarrier } from "../../../src/runtime/core/undici-carrier.js";
import { RecordMissingError, ResponseTooLargeError } from "../../../src/runtime/odata/index.js";
import { PASSWORD, startOffice, USER } from "./support.js";

// The caller's `open` (what container downloads build on): the answer's body as a stream, bounded by maxResponseBytes
// as it is read, an error answer thrown as the typed error, on both carriers.

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startOffice();
});
afterAll(() => emu.close());

const options = (maxResponseBytes: number) => ({ server: emu.url, database: "Office", auth: { username: USER, password: PASSWORD }, maxResponseBytes });
const carriers = {
  undici: (max: number) => undiciCarrier(boundsOf(options(max))),
  fetch: (max: number) => fetchCarrier(boundsOf(options(max))),
};

describe.each(Object.entries(carriers))("open, over %s", (_, carrier) => {
  it("streams the body, errors past the bound, and throws an error answer typed", async () => {
    const big = carrier(1_000_000);
    const caller = makeCaller(options(1_000_000), big);
    const opened = await caller.open({ method: "GET", path: "/Contacts('A1')/Name/$value", idempotent: true });
    expect(opened.status).toBe(200);
    expect(await new Response(opened.body).text()).toBe("Ada");
    await expect(caller.open({ method: "GET", path: "/Contacts('none')/Name/$value", idempotent: true })).rejects.toBeInstanceOf(RecordMissingError);
    await big.close();

    const small = carrier(100);
    const bounded = makeCaller(options(100), small);
    const read = bounded.open({ method: "GET", path: "/Contacts", idempotent: true }).then((o) => new Response(o.body).text());
    await expect(read).rejects.toBeInstanceOf(ResponseTooLargeError);
    await small.close();
  });
});
