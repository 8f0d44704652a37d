import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { DataApi } from "../../support/data-api-http.js";
import { auth, DB, expectODataError, get, metadataIds, PASSWORD, send as sendTo, startOffice, USER, type Answer } from "./serve-support.js";

// OData's write path over the emulator's hosted file, over loopback HTTP (3.1, 3.2, 1.4, 9;
// docs/emulator.md "The OData API", "Writes").

let emu: RunningEmulator;
let R: string;
const S = `/fmi/odata/v4/${DB}`;

beforeAll(async () => {
  emu = await startOffice(4);
  R = `${emu.url}/fmi/odata/v4`;
});
afterAll(() => emu.close());

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => sendTo(emu.url, method, path, body, headers);

describe("create (3.1)", () => {
  it("answers 201 with the entity as a read answers it, auto-entered key included, and Location by key", async () => {
    const a = await send("POST", `${S}/Contacts`, { Name: "Eve", Age: 30, Born: "1990-05-06", Alarm: "08:15:00", Seen: "2026-01-02T03:04:05Z", Tags: ["p", "q"] });
    expect(a.status).toBe(201);
    const id = a.body.id as string;
    expect(id).toMatch(/^[0-9A-F-]{36}$/i);
    expect(a.headers.get("location")).toBe(`${R}/${DB}/Contacts('${id}')`);
    const read = await get(emu.url, `${S}/Contacts('${id}')`);
    expect(a.body).toEqual(read.body);
    expect(a.body).toMatchObject({ Name: "Eve", Age: 30, Born: "1990-05-06", Alarm: "08:15:00", Seen: "2026-01-02T03:04:05Z", Tags: ["p", "q"], Label: "Eve (30)" });
    expect(a.body["@context"]).toBe(`${R}/${DB}/$metadata#Contacts/$entity`);
  });

  it("answers 204 with Location and OData-EntityId by ROWID for return=minimal; FMFID and Name[n] keys are accepted", async () => {
    const meta = await get(emu.url, `${S}/$metadata`, { Accept: "application/json" });
    const textId = meta.body[DB]["Notes_"].Text["@FieldID"] as string;
    expect(textId).toMatch(/^FMFID:\d+$/);
    const a = await send("POST", `${S}/Notes`, { [textId]: "min", N: 9 }, { Prefer: "return=minimal" });
    expect(a.status).toBe(204);
    expect(a.text).toBe("");
    const loc = a.headers.get("location")!;
    expect(loc).toMatch(new RegExp(`^${R}/${DB}/Notes\\(ROWID=\\d+\\)$`));
    expect(a.headers.get("odata-entityid")).toBe(loc);
    expect((await get("", loc)).body).toMatchObject({ Text: "min", N: 9 });
    const b = await send("POST", `${S}/Contacts`, { Name: "Rep", "Tags[2]": "second" });
    expect(b.body.Tags).toEqual([null, "second"]);
  });

  it("takes numeric strings only under IEEE754Compatible=true; DateTimeOffset offsets are converted to UTC", async () => {
    expectODataError(await send("POST", `${S}/Contacts`, { Age: "12" }), 400, "8309");
    const a = await send("POST", `${S}/Contacts`, { Age: "12.5", Seen: "2026-01-02T03:04:05+01:00" }, { "Content-Type": "application/json;IEEE754Compatible=true" });
    expect(a.status).toBe(201);
    expect(a.body.Seen).toBe("2026-01-02T02:04:05Z");
    expect(Number(a.body.Age)).toBe(12.5);
  });
});

describe("refusals (3.1, 9)", () => {
  it("refuses read-only fields with 201, unknown fields with 8309, wrong types with 8309, bad JSON with -1002", async () => {
    for (const body of [{ Label: "x" }, { ROWID: 5 }, { ROWMODID: 1 }]) expect(expectODataError(await send("POST", `${S}/Contacts`, body), 400, "201").message).toMatch(/^\(201\): Field cannot be modified/);
    expectODataError(await send("POST", `${S}/Contacts`, { Nope: 1 }), 400, "8309");
    for (const body of [{ Name: 5 }, { Age: "x" }, { Born: "05/06/1990" }, { Alarm: "25:00:00" }, { Seen: "2026-01-02T03:04:05" }, { Name: ["a"] }, { Age: true }]) {
      expectODataError(await send("POST", `${S}/Contacts`, body), 400, "8309");
    }
    for (const body of ["{", "[1]", "", "42"]) expectODataError(await send("POST", `${S}/Contacts`, body), 400, "-1002");
    expectODataError(await send("POST", `${S}/Contacts`, { Tags: ["a", "b", "c"] }), 400, "-1002");
    expectODataError(await send("POST", `${S}/Contacts`, { "@odata.type": "#x.Notes_" }), 400, "-1002");
    expect((await send("POST", `${S}/Contacts`, { "@odata.type": "#com.filemaker.odata.Office.Contacts_", Name: "typed" })).status).toBe(201);
    expectODataError(await send("POST", `${S}/Contacts`, { Photo: "AA=A" }), 400, "8309");
    expectODataError(await send("PATCH", `${S}/Contacts('A1')/Photo`, "xx", { "Content-Type": "text/plain" }), 415, "-1");
    expectODataError(await send("POST", `${S}/Nope`, {}), 404, "-1020");
    expectODataError(await send("POST", `${S}/Contacts?$select=Name`, { Name: "x" }), 400, "-1002");
    expectODataError(await send("PATCH", `${S}/Contacts('A1')?$filter=Age%20eq%201`, { Name: "x" }), 400, "-1002");
    expectODataError(await send("POST", `${S}/Contacts('A1')`, { Name: "x" }), 405, "-1002");
    expectODataError(await send("PATCH", `${S}/Contacts/$count`, { Name: "x" }), 405, "-1002");
    expectODataError(await send("POST", `${S}/Script.Foo`, {}), 404, "104");
    expectODataError(await send("POST", `${S}/Contacts`, "x".repeat(11 * 1024 * 1024)), 413, "-1");
  });

  it("refuses validation failures with the hosted file's codes: unique 504, required 509; nothing is stored", async () => {
    const before = (await get(emu.url, `${S}/Contacts/$count`)).text;
    expect(expectODataError(await send("POST", `${S}/Contacts`, { id: "A1", Name: "dup" }), 400, "504").message).toMatch(/^\(504\): /);
    expectODataError(await send("PATCH", `${S}/Contacts('B2')`, { id: null }), 400, "509");
    expect((await get(emu.url, `${S}/Contacts/$count`)).text).toBe(before);
    expect((await get(emu.url, `${S}/Contacts('B2')`)).status).toBe(200);
  });

  it("lets no account without fmodata write", async () => {
    for (const a of [auth("rest", "only"), auth(USER, "wrong")]) {
      expectODataError(await send("POST", `${S}/Contacts`, { Name: "no" }, { Authorization: a }), 401, "212");
      expectODataError(await send("DELETE", `${S}/Contacts('A1')`, undefined, { Authorization: a }), 401, "212");
    }
    expect((await send("POST", `${S}/Contacts`, { Name: "od" }, { Authorization: auth("od", "only") })).status).toBe(201);
  });
});

describe("update and delete (3.2)", () => {
  it("PATCHes and PUTs by key, FMTID set and ROWID: 204 with affected_rows 1, ROWMODID bumped; return=representation 200", async () => {
    const c = await send("POST", `${S}/Contacts`, { Name: "Key" });
    const id = c.body.id;
    const rowid = Number(/ROWID=(\d+)/.exec((await send("POST", `${S}/Notes`, { Text: "n" }, { Prefer: "return=minimal" })).headers.get("location")!)![1]);
    const p = await send("PATCH", `${S}/Contacts('${id}')`, { Age: 1 });
    expect(p.status).toBe(204);
    expect(p.headers.get("fmodata.affected_rows")).toBe("1");
    expect((await send("PUT", `${S}/${(await metadataIds(emu.url)).table("Contacts")}('${id}')`, { Age: 2 })).status).toBe(204);
    expect((await send("PATCH", `${S}/Contacts(ROWID=${c.body.id ? (await get(emu.url, `${S}/Contacts('${id}')?$select=ROWID`)).body.ROWID : 0})`, { Name: "Key2" })).status).toBe(204);
    expect((await get(emu.url, `${S}/Contacts('${id}')?$select=Name,Age,ROWMODID`)).body).toMatchObject({ Name: "Key2", Age: 2, ROWMODID: 3 });
    expect((await send("PATCH", `${S}/Notes(${rowid})`, { N: 4 })).status).toBe(204);
    const r = await send("PATCH", `${S}/Notes(ROWID=${rowid})`, { N: 5 }, { Prefer: "return=representation" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ Text: "n", N: 5 });
    expectODataError(await send("PATCH", `${S}/Contacts('nope')`, { Age: 1 }), 404, "-1023");
    expectODataError(await send("PATCH", `${S}/Contacts(5)`, { Age: 1 }), 400, "8309");
  });

  it("DELETEs by key and ROWID: 204 affected_rows 1; then 404 -1023", async () => {
    const c = await send("POST", `${S}/Contacts`, { Name: "Del" });
    const d = await send("DELETE", `${S}/Contacts('${c.body.id}')`);
    expect(d.status).toBe(204);
    expect(d.headers.get("fmodata.affected_rows")).toBe("1");
    expectODataError(await get(emu.url, `${S}/Contacts('${c.body.id}')`), 404, "-1023");
    const loc = (await send("POST", `${S}/Notes`, { Text: "gone" }, { Prefer: "return=minimal" })).headers.get("location")!;
    expect((await send("DELETE", loc.slice(emu.url.length))).status).toBe(204);
    expectODataError(await send("DELETE", loc.slice(emu.url.length)), 404, "-1023");
  });

  it("PATCHes and DELETEs by $filter with affected_rows n (0 when none match); no $filter is 400 -1002", async () => {
    for (let i = 0; i < 3; i++) await send("POST", `${S}/Notes`, { Text: "bulk", N: 100 + i }, { Prefer: "return=minimal" });
    const p = await send("PATCH", `${S}/Notes?$filter=Text%20eq%20'bulk'`, { N: 7 });
    expect(p.status).toBe(204);
    expect(p.headers.get("fmodata.affected_rows")).toBe("3");
    expect((await get(emu.url, `${S}/Notes?$filter=Text%20eq%20'bulk'&$select=N`)).body.value.map((v: any) => v.N)).toEqual([7, 7, 7]);
    const d = await send("DELETE", `${S}/Notes?$filter=Text%20eq%20'bulk'`);
    expect(d.headers.get("fmodata.affected_rows")).toBe("3");
    expect((await send("DELETE", `${S}/Notes?$filter=Text%20eq%20'bulk'`)).headers.get("fmodata.affected_rows")).toBe("0");
    expectODataError(await send("PATCH", `${S}/Notes`, { N: 1 }), 400, "-1002");
    expectODataError(await send("DELETE", `${S}/Notes`), 400, "-1002");
  });

  it("a $filter update that fails validation part-way changes nothing", async () => {
    await send("POST", `${S}/Contacts`, { Name: "uniq", id: "U1" });
    await send("POST", `${S}/Contacts`, { Name: "uniq", id: "U2" });
    expectODataError(await send("PATCH", `${S}/Contacts?$filter=Name%20eq%20'uniq'`, { id: "U9" }), 400, "504");
    expect((await get(emu.url, `${S}/Contacts?$filter=Name%20eq%20'uniq'&$select=%22id%22`)).body.value.map((v: any) => v.id)).toEqual(["U1", "U2"]);
  });
});

describe("one hosted file, two APIs (writes)", () => {
  it("a record created through OData is read through the Data API at once: recordId = ROWID, modId = ROWMODID", async () => {
    const c = await send("POST", `${S}/Contacts`, { Name: "Cross", Age: 3 });
    const sel = await get(emu.url, `${S}/Contacts('${c.body.id}')?$select=ROWID,ROWMODID`);
    const api = new DataApi(emu.url);
    const token = await api.login(USER, PASSWORD, DB);
    const got = await api.call("GET", `/databases/${DB}/layouts/Contacts/records/${sel.body.ROWID}`, { token });
    expect(got.body.response.data[0]).toMatchObject({ recordId: String(sel.body.ROWID), modId: String(sel.body.ROWMODID), fieldData: { Name: "Cross", Age: 3 } });
    await send("PATCH", `${S}/Contacts('${c.body.id}')`, { Age: 4 });
    const again = await api.call("GET", `/databases/${DB}/layouts/Contacts/records/${sel.body.ROWID}`, { token });
    expect(again.body.response.data[0]).toMatchObject({ modId: "1", fieldData: { Age: 4, Label: "Cross (4)" } });
    await api.call("PATCH", `/databases/${DB}/layouts/Contacts/records/${sel.body.ROWID}`, { token, json: { fieldData: { Name: "Via DAPI" } } });
    expect((await get(emu.url, `${S}/Contacts('${c.body.id}')?$select=Name,ROWMODID`)).body).toMatchObject({ Name: "Via DAPI", ROWMODID: 2 });
    await send("DELETE", `${S}/Contacts('${c.body.id}')`);
    expect((await api.call("GET", `/databases/${DB}/layouts/Contacts/records/${sel.body.ROWID}`, { token })).body.messages?.[0]?.code).toBe("101");
  });

  it("concurrent Data API edits and OData PATCHes of different fields of one record all land", async () => {
    const n = 20;
    const fields = Array.from({ length: n }, (_, i) => i);
    const c = await send("POST", `${S}/Contacts`, { Name: "race" });
    const rowid = (await get(emu.url, `${S}/Contacts('${c.body.id}')?$select=ROWID`)).body.ROWID;
    const api = new DataApi(emu.url);
    const token = await api.login(USER, PASSWORD, DB);
    // Each writer sets one field; the Data API writes Name/Age, OData writes Born/Alarm/Seen/Tags, interleaved.
    await Promise.all(
      fields.map((i) => {
        if (i % 2 === 0) return api.call("PATCH", `/databases/${DB}/layouts/Contacts/records/${rowid}`, { token, json: { fieldData: i % 4 === 0 ? { Name: `n${i}` } : { Age: i } } });
        const body = i % 4 === 1 ? { Born: `2020-01-${String(i).padStart(2, "0")}` } : { Alarm: `10:00:${String(i).padStart(2, "0")}` };
        return send("PATCH", `${S}/Contacts(ROWID=${rowid})`, body);
      }),
    );
    // Every write counted (how soon they land is a budget of test/bench/bounds.bench.mjs).
    const r = await get(emu.url, `${S}/Contacts(ROWID=${rowid})?$select=Name,Age,Born,Alarm,ROWMODID`);
    expect(r.body.ROWMODID).toBe(n);
    expect(r.body.Name).toMatch(/^n\d+$/);
    expect(typeof r.body.Age).toBe("number");
    expect(r.body.Born).toMatch(/^2020-01-\d\d$/);
    expect(r.body.Alarm).toMatch(/^10:00:\d\d$/);
  });
});
