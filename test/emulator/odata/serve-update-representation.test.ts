import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { auth, DB, startOffice } from "./serve-support.js";

// docs/emulator.md, "Third-party clients": `PATCH T(k)` with `Prefer: return=representation` answers 200 and the
// entity, which
// @proofkit/fmodata relies on (PKS). The client reads `fmodata.affected_rows` before the body, so the header must
// not come with the entity, or the client returns the count in its place (test/peer-clients/proofkit-fmodata.test.ts).

let emu: RunningEmulator;
const S = `/fmi/odata/v4/${DB}`;

beforeAll(async () => {
  emu = await startOffice(2);
});
afterAll(() => emu.close());

async function patch(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${emu.url}${path}`, {
    method: "PATCH",
    headers: { Authorization: auth(), "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
}

describe("PATCH by key with return=representation (3.2)", () => {
  it("answers 200 and the entity without fmodata.affected_rows; without the preference 204 with it", async () => {
    const whole = await patch(`${S}/Contacts('B2')`, { Age: 42 }, { Prefer: "return=representation" });
    expect(whole.status).toBe(200);
    expect(whole.headers.get("fmodata.affected_rows")).toBeNull();
    expect(await whole.json()).toMatchObject({ id: "B2", Age: 42, Label: "bob (42)" });
    const minimal = await patch(`${S}/Contacts('B2')`, { Age: 43 });
    expect(minimal.status).toBe(204);
    expect(minimal.headers.get("fmodata.affected_rows")).toBe("1");
  });
});
