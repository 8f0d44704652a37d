import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { auth, DB, get, startOffice } from "./serve-support.js";

// `Prefer: fmodata.basic-timestamp` and `fmodata.gmtoffset` (docs/emulator.md, "Timestamps: `basic-timestamp`,
// `gmtoffset`"): timestamps as `"2026-11-27 09:15:00"` and `"2026-11-27T09:15:00+00:00"` (the server's zone is UTC,
// 2.7), in every answer that carries a timestamp value: collections, one record, expanded (Nav) rows, `T(k)/F`,
// `/$value`, a write's representation. Dates and times are not timestamps and stay as they are.

let emu: RunningEmulator;
const S = `/fmi/odata/v4/${DB}`;

beforeAll(async () => {
  emu = await startOffice(2);
});
afterAll(() => emu.close());

const read = (path: string, prefer?: string) => get(emu.url, path, prefer === undefined ? {} : { Prefer: prefer });
const seen = async (prefer?: string) => (await read(`${S}/Contacts?$select=Name,Seen,Born,Alarm`, prefer)).body.value;

describe("Prefer: fmodata.basic-timestamp / fmodata.gmtoffset", () => {
  it("without them timestamps are Zulu; basic-timestamp drops the T and Z; gmtoffset puts +00:00 for Z; both combine", async () => {
    expect((await seen()).map((r: any) => r.Seen)).toEqual(["2026-11-27T09:15:00Z", null, "2020-01-01T00:00:00Z"]);
    expect((await seen("fmodata.basic-timestamp")).map((r: any) => r.Seen)).toEqual(["2026-11-27 09:15:00", null, "2020-01-01 00:00:00"]);
    expect((await seen("fmodata.gmtoffset")).map((r: any) => r.Seen)).toEqual(["2026-11-27T09:15:00+00:00", null, "2020-01-01T00:00:00+00:00"]);
    expect((await seen("fmodata.basic-timestamp, fmodata.gmtoffset")).map((r: any) => r.Seen)).toEqual(["2026-11-27 09:15:00+00:00", null, "2020-01-01 00:00:00+00:00"]);
    // `=false` turns one off; dates and times never change.
    const rows = await seen("fmodata.basic-timestamp=false, fmodata.gmtoffset");
    expect(rows[0]).toMatchObject({ Seen: "2026-11-27T09:15:00+00:00", Born: "1815-12-10", Alarm: "07:30:00" });
  });

  it("applies beside other preferences, to one record, to T(k)/F and to /$value", async () => {
    const page = await read(`${S}/Contacts?$select=Seen`, "odata.maxpagesize=1,fmodata.basic-timestamp");
    expect(page.body.value).toEqual([expect.objectContaining({ Seen: "2026-11-27 09:15:00" })]);
    expect(page.body["@nextLink"]).toBeDefined();
    expect((await read(`${S}/Contacts('A1')`, "fmodata.gmtoffset")).body.Seen).toBe("2026-11-27T09:15:00+00:00");
    expect((await read(`${S}/Contacts('A1')/Seen`, "fmodata.basic-timestamp")).body.value).toBe("2026-11-27 09:15:00");
    expect((await read(`${S}/Contacts('A1')/Seen/$value`, "fmodata.basic-timestamp")).text).toBe("2026-11-27 09:15:00");
    expect((await read(`${S}/Contacts('A1')/Seen/$value`)).text).toBe("2026-11-27T09:15:00Z");
  });

  it("applies to expanded rows and to a navigation's collection (Nav rows)", async () => {
    const notes = await read(`${S}/Notes?$select=Text&$expand=Contacts($select=Name,Seen)`, "fmodata.basic-timestamp");
    expect(notes.status).toBe(200);
    expect(notes.body.value[0].Contacts).toEqual([expect.objectContaining({ Name: "Ada", Seen: "2026-11-27 09:15:00" })]);
    const nav = await read(`${S}/Notes(1)/Contacts?$select=Seen`, "fmodata.gmtoffset");
    expect(nav.body.value).toEqual([expect.objectContaining({ Seen: "2026-11-27T09:15:00+00:00" })]);
  });

  it("applies to a write's representation (return=representation, and a create's 201 body)", async () => {
    const headers = { Authorization: auth(), "Content-Type": "application/json", Prefer: "return=representation, fmodata.basic-timestamp" };
    const created = await fetch(`${emu.url}${S}/Contacts`, { method: "POST", headers, body: JSON.stringify({ Name: "Ts", Seen: "2026-03-04T05:06:07Z" }), signal: AbortSignal.timeout(10_000) });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { id: string; Seen: string };
    expect(body.Seen).toBe("2026-03-04 05:06:07");
    const patched = await fetch(`${emu.url}${S}/Contacts('${body.id}')`, { method: "PATCH", headers, body: JSON.stringify({ Seen: "2026-03-04T08:00:00+02:00" }), signal: AbortSignal.timeout(10_000) });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { Seen: string }).Seen).toBe("2026-03-04 06:00:00");
  });
});
