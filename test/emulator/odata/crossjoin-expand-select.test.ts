import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { auth, DB, expectODataError, get, startOffice } from "./serve-support.js";

// `$crossjoin(A,B)?$expand=B($select=x,y)` (docs/emulator.md, "`$crossjoin`"): CL/request-cross-join documents
// `$select` inside an expand; the live capture (PKX) refuses two expands and a top-level `$select`, and says nothing
// against one expand with a `$select`. fm-odata-client's `crossJoin(T, { select: { T2: [...] } })` sends exactly that.

let emu: RunningEmulator;
const S = `/fmi/odata/v4/${DB}`;

beforeAll(async () => {
  emu = await startOffice(3);
});
afterAll(() => emu.close());

const cj = (query: string, headers: Record<string, string> = {}) => get(emu.url, `${S}/$crossjoin(Contacts,Notes)${query}`, { Authorization: auth(), ...headers });

describe("$crossjoin with one $expand holding a $select", () => {
  it("keeps the expanded set's selected columns only, in $select's order, with every set's link", async () => {
    const a = await cj("?$top=2&$expand=Notes($select=Text)");
    expect(a.status, a.text).toBe(200);
    expect(a.body.value).toEqual([
      { "Contacts@navigationLink": `${emu.url}${S}/Contacts('A1')`, "Notes@navigationLink": `${emu.url}${S}/Notes(1)`, Text: "note 1" },
      { "Contacts@navigationLink": `${emu.url}${S}/Contacts('A1')`, "Notes@navigationLink": `${emu.url}${S}/Notes(2)`, Text: "note 2" },
    ]);
    const b = await cj("?$top=1&$expand=Contacts($select=Age,Name,ROWID)", { Prefer: "odata.maxpagesize=5" });
    expect(Object.keys(b.body.value[0]).slice(2)).toEqual(["Age", "Name", "ROWID"]);
    expect(b.body.value[0]).toMatchObject({ Age: 36, Name: "Ada", ROWID: 1 });
  });

  it("still refuses other options inside the expand, a Nav/Field path, an unknown field, and two expands", async () => {
    expect(expectODataError(await cj("?$top=1&$expand=Notes($top=1)"), 400, "-1002").message).toBe("Error: syntax error in URL at: 'Notes'");
    expect(expectODataError(await cj("?$top=1&$expand=Notes($select=Text;$filter=N%20gt%201)"), 400, "-1002").message).toBe("Error: syntax error in URL at: 'Notes'");
    expectODataError(await cj("?$top=1&$expand=Notes($select=Contacts/Name)"), 400, "-1002");
    expectODataError(await cj("?$top=1&$expand=Notes($select=Nope)"), 400, "8309");
    expectODataError(await cj("?$top=1&$expand=Contacts($select=Name),Notes($select=Text)"), 400, "-1002");
  });
});
