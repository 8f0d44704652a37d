import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createState, type RunningEmulator } from "../../../src/emulator/index.js";
import { onChange, type RecordChange } from "../../../src/emulator/hosted-file/change-feed.js";
import { parseQueryOptions } from "../../../src/emulator/odata/query-options.js";
import { serveReference, type RefPath } from "../../../src/emulator/odata/references.js";
import { parseODataPath } from "../../../src/emulator/odata/url-path.js";
import { formatODataPath } from "../../../src/emulator/odata/url-format.js";
import { DataApi } from "../../support/data-api-http.js";
import { batch, changeset, expectPartError, json } from "./batch-support.js";
import { DB, expectODataError, get, LAYOUTS, PASSWORD, send as sendTo, startOffice, USER, type Answer } from "./serve-support.js";

// References (docs/emulator.md, "References (`$ref`)"): `T(k)/Nav/$ref` over loopback
// HTTP. A reference is the child's match field (Notes::ContactId = Contacts::id), written as a record write.

let emu: RunningEmulator;
let R: string;
const S = `/fmi/odata/v4/${DB}`;

beforeAll(async () => {
  emu = await startOffice(6);
  R = `${emu.url}/fmi/odata/v4`;
});
afterAll(() => emu.close());

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => sendTo(emu.url, method, path, body, headers);
const SPECIAL = { Prefer: "fmodata.include-specialcolumns" };

/** A note as OData reads it, with ROWID and ROWMODID. */
async function note(rowid: number): Promise<{ ContactId: string | null; ROWMODID: number }> {
  const a = await get(emu.url, `${S}/Notes(${rowid})`, SPECIAL);
  expect(a.status).toBe(200);
  return a.body;
}

/** The ROWIDs of the notes a contact's `$ref` lists. */
async function refs(contact: string): Promise<number[]> {
  const a = await get(emu.url, `${S}/Contacts('${contact}')/Notes/$ref`);
  expect(a.status).toBe(200);
  return (a.body.value as { "@id": string }[]).map((v) => Number(/Notes\((\d+)\)$/.exec(v["@id"])![1]));
}

describe("the $ref path (url-path.ts)", () => {
  it("parses T(k)/Nav/$ref and T(k)/Nav(k2)/$ref, and formats them back", () => {
    const all = parseODataPath(`/${DB}/Contacts('A1')/Notes/$ref`);
    expect(all).toEqual({ kind: "ref", db: DB, set: { by: "name", name: "Contacts" }, key: { kind: "single", value: { type: "string", value: "A1" } }, nav: "Notes" });
    const one = parseODataPath(`/${DB}/Contacts('A1')/Notes(ROWID=3)/$ref`);
    expect(one).toMatchObject({ kind: "ref", nav: "Notes", target: { kind: "rowid", rowid: 3 } });
    expect(formatODataPath(all)).toBe(`/${DB}/Contacts('A1')/Notes/$ref`);
    expect(parseODataPath(formatODataPath(one))).toEqual(one);
    // A key on a member is still refused without `$ref`, and `$ref` takes nothing after it.
    expect(() => parseODataPath(`/${DB}/Contacts('A1')/Notes(3)`)).toThrow(/syntax error/);
    expect(() => parseODataPath(`/${DB}/Contacts('A1')/Notes/$ref/x`)).toThrow(/syntax error/);
  });
});

describe("GET T(k)/Nav/$ref", () => {
  it("lists the related records' ids as OData 4.0 does", async () => {
    const a = await get(emu.url, `${S}/Contacts('A1')/Notes/$ref`);
    expect(a.status).toBe(200);
    const expected = await get(emu.url, `${S}/Notes?$filter=ContactId eq 'A1'`.replace(/ /g, "%20"));
    expect(a.body).toEqual({ "@context": `${R}/${DB}/$metadata#Collection($ref)`, value: expected.body.value.map((n: any) => ({ "@id": n["@id"] })) });
    expect(a.body.value.length).toBe(3);
    expect((await get(emu.url, `${S}/Contacts('C3')/Notes/$ref`)).body.value).toEqual([]);
    const prefixed = await get(emu.url, `${S}/Contacts('C3')/Notes/$ref`, { "OData-Version": "4.0" });
    expect(prefixed.body).toEqual({ "@odata.context": `${R}/${DB}/$metadata#Collection($ref)`, value: [] });
  });
});

describe("POST, PATCH, PUT T(k)/Nav/$ref", () => {
  it("relates the record by writing its match field, which the Data API's portal shows at once (modId, change)", async () => {
    const [rowid] = await refs("B2");
    const before = await note(rowid!);
    expect(before.ContactId).toBe("B2");
    const a = await send("POST", `${S}/Contacts('C3')/Notes/$ref`, { "@odata.id": `${S}/Notes(${rowid})` });
    expect(a.status).toBe(204);
    expect(a.text).toBe("");
    const after = await note(rowid!);
    expect(after).toMatchObject({ ContactId: "C3", ROWMODID: before.ROWMODID + 1 });
    expect(await refs("C3")).toEqual([rowid]);
    expect(await refs("B2")).not.toContain(rowid);

    const api = new DataApi(emu.url);
    const token = await api.login(USER, PASSWORD, DB);
    const found = await api.call("POST", `/databases/${DB}/layouts/Contacts/_find`, { token, json: { query: [{ id: "==C3" }] } });
    expect(found.status).toBe(200);
    const portal = found.body.response.data[0].portalData.Notes as { recordId: string }[];
    expect(portal.map((r) => Number(r.recordId))).toEqual([rowid]);
  });

  it("takes @odata.id absolute, as an absolute path or relative to the database; PATCH and PUT relate as POST does", async () => {
    const rows = await refs("A1");
    expect((await send("POST", `${S}/Contacts('C3')/Notes/$ref`, { "@odata.id": `${R}/${DB}/Notes(${rows[0]})` })).status).toBe(204);
    expect((await send("PATCH", `${S}/Contacts('C3')/Notes/$ref`, { "@odata.id": `Notes(ROWID=${rows[1]})` })).status).toBe(204);
    expect((await send("PUT", `${S}/Contacts('C3')/Notes/$ref`, { "@odata.id": `${S}.fmp12/Notes(${rows[2]})` })).status).toBe(204);
    expect(await refs("C3")).toEqual(expect.arrayContaining(rows));
    expect(await refs("A1")).toEqual([]);
  });
});

describe("DELETE T(k)/Nav/$ref", () => {
  it("empties the child's match field, by $id or by T(k)/Nav(k2)/$ref; an unrelated record is 404 -1023", async () => {
    const [first, second] = await refs("C3");
    const id = encodeURIComponent(`${R}/${DB}/Notes(${first})`);
    const a = await send("DELETE", `${S}/Contacts('C3')/Notes/$ref?$id=${id}`);
    expect(a.status).toBe(204);
    expect((await note(first!)).ContactId).toBeNull();
    expect((await send("DELETE", `${S}/Contacts('C3')/Notes(${second})/$ref`)).status).toBe(204);
    expect((await note(second!)).ContactId).toBeNull();
    expect(await refs("C3")).not.toContain(first);
    expectODataError(await send("DELETE", `${S}/Contacts('C3')/Notes(${first})/$ref`), 404, "-1023");
    expectODataError(await send("DELETE", `${S}/Contacts('C3')/Notes/$ref`), 400, "-1002");
  });
});

describe("refusals", () => {
  it("an @odata.id that names no record of the target set in this database is 400 -1002 naming it; a missing record 404 -1023", async () => {
    const [rowid] = await refs("B2");
    const post = (id: unknown) => send("POST", `${S}/Contacts('C3')/Notes/$ref`, id === undefined ? "" : { "@odata.id": id });
    for (const id of [`${S}/Contacts('A1')`, `/fmi/odata/v4/Other/Notes(${rowid})`, `/elsewhere/Notes(${rowid})`, `${S}/Notes`, "http://example.invalid/fmi/odata/v4/Office/Notes(1)", "//example.invalid/fmi/odata/v4/Office/Notes(1)"]) {
      const e = expectODataError(await post(id), 400, "-1002");
      expect(e.message).toContain(id);
    }
    expectODataError(await post(undefined), 400, "-1002");
    expectODataError(await send("POST", `${S}/Contacts('C3')/Notes/$ref`, { other: 1 }), 400, "-1002");
    expectODataError(await post(`${S}/Notes(999999)`), 404, "-1023");
    expectODataError(await send("POST", `${S}/Contacts('ZZ')/Notes/$ref`, { "@odata.id": `${S}/Notes(${rowid})` }), 404, "-1023");
    expect((await note(rowid!)).ContactId).toBe("B2");
  });

  it("a navigation whose match field is this record's own is 400 -1002 saying so; an unknown one 8309; options 400", async () => {
    const [rowid] = await refs("B2");
    const e = expectODataError(await send("POST", `${S}/Notes(${rowid})/Contacts/$ref`, { "@odata.id": `${S}/Contacts('C3')` }), 400, "-1002");
    expect(e.message).toContain("Notes::ContactId = Contacts::id");
    // Reading the reverse navigation's references still works.
    const back = await get(emu.url, `${S}/Notes(${rowid})/Contacts/$ref`);
    expect(back.body.value).toEqual([{ "@id": `${R}/${DB}/Contacts('B2')` }]);
    expectODataError(await send("POST", `${S}/Contacts('C3')/Nope/$ref`, { "@odata.id": `${S}/Notes(${rowid})` }), 400, "8309");
    expectODataError(await get(emu.url, `${S}/Contacts('C3')/Notes/$ref?$top=1`), 400, "-1002");
  });

  it("a navigation joined on several pairs of fields is 400 -1002: no single field write expresses it", async () => {
    const layouts = LAYOUTS.map((l) => (l.layout === "Contacts" ? { ...l, portals: [...(l.portals ?? []), { name: "ByText", table: "Notes", relation: { parentField: "Name", childField: "Text" }, fields: [] }] } : l));
    const two = await startOffice(2, { layouts });
    try {
      const e = expectODataError(await sendTo(two.url, "POST", `${S}/Contacts('C3')/Notes/$ref`, { "@odata.id": `${S}/Notes(1)` }), 400, "-1002");
      expect(e.message).toMatch(/2 pairs of fields/);
    } finally {
      await two.close();
    }
  });
});

describe("in a $batch changeset", () => {
  it("relates as a part, and a failing changeset puts the reference back", async () => {
    const [rowid] = await refs("B2");
    const ok = await batch(emu.url, [{ kind: "changeset", requests: [{ method: "POST", url: `${S}/Contacts('A1')/Notes/$ref`, ...json({ "@odata.id": `Notes(${rowid})` }) }] }]);
    expect(ok.status).toBe(200);
    expect(changeset(ok.items![0]).map((p) => p.status)).toEqual([204]);
    expect((await note(rowid!)).ContactId).toBe("A1");

    const failed = await batch(emu.url, [
      {
        kind: "changeset",
        requests: [
          { method: "POST", url: `${S}/Contacts('C3')/Notes/$ref`, ...json({ "@odata.id": `Notes(${rowid})` }) },
          { method: "PATCH", url: `${S}/Notes(999999)`, ...json({ Text: "x" }) },
        ],
      },
    ]);
    expect(failed.status).toBe(200);
    const item = failed.items![0]!;
    const part = item.kind === "response" ? item.response : changeset(item)[0]!;
    expectPartError(part, 404, "-1023");
    expect((await note(rowid!)).ContactId).toBe("A1");
  });
});

describe("serveReference with plain values", () => {
  it("tells the change feed of the child's UPDATE", async () => {
    const state = await createState({ layouts: LAYOUTS, data: { records: { Contacts: [{ id: "A1", Name: "Ada" }], Notes: [{ Text: "loose" }] } } });
    const db = state.databases.get(DB)!;
    const told: RecordChange[] = [];
    const stop = onChange(db, (c) => told.push(c));
    const path = parseODataPath(`/${DB}/Contacts('A1')/Notes/$ref`) as RefPath;
    const call = (method: string, body?: unknown) =>
      serveReference(
        { db, clock: state.clock },
        { method, path, query: parseQueryOptions(""), target: `${S}/Contacts('A1')/Notes/$ref`, body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)), root: "http://127.0.0.1:1/fmi/odata/v4", annotations: { prefixed: false, none: false }, sameDatabase: (n) => n === DB },
      );
    expect(call("POST", { "@odata.id": "Notes(1)" })).toEqual({ status: 204 });
    stop();
    expect(told).toMatchObject([{ operation: "UPDATE", table: "Notes", rowIDs: [1] }]);
    expect(call("GET")).toEqual({ status: 200, body: { "@context": `http://127.0.0.1:1/fmi/odata/v4/${DB}/$metadata#Collection($ref)`, value: [{ "@id": `http://127.0.0.1:1/fmi/odata/v4/${DB}/Notes(1)` }] } });
  });
});
