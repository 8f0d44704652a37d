import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { DataApi } from "../../support/data-api-http.js";
import { parseXml, type XmlElement } from "./metadata-xml-reader.js";
import { auth, DB, expectODataError, get, metadataIds, PASSWORD, startOffice, USER } from "./serve-support.js";

// OData's read path over the emulator's hosted file, over loopback HTTP (1.2, 2.3-2.6, 2.10, 8, 9;
// docs/emulator.md "The OData API", "Reads").

let emu: RunningEmulator;
let R: string; // the service root URL
const S = `/fmi/odata/v4/${DB}`;

beforeAll(async () => {
  emu = await startOffice();
  R = `${emu.url}/fmi/odata/v4`;
});
afterAll(() => emu.close());

describe("auth (section 8)", () => {
  it("answers 401 212 with WWW-Authenticate without a header, with a wrong password, and for an account without fmodata", async () => {
    for (const headers of [{ Authorization: "" }, { Authorization: auth(USER, "wrong") }, { Authorization: auth("rest", "only") }, { Authorization: "Bearer abc" }]) {
      const a = await get(emu.url, `${S}/Contacts`, headers);
      expect(expectODataError(a, 401, "212").message).toBe("(212): Invalid account/password");
      expect(a.headers.get("www-authenticate")).toBe('Basic realm="FileMaker"');
    }
  });

  it("lets an fmodata-only account read OData, and keeps it out of the Data API", async () => {
    expect((await get(emu.url, `${S}/Contacts`, { Authorization: auth("od", "only") })).status).toBe(200);
    const login = await fetch(`${emu.url}/fmi/data/vLatest/databases/${DB}/sessions`, { method: "POST", headers: { Authorization: auth("od", "only"), "Content-Type": "application/json" }, body: "{}" });
    expect(login.status).toBe(401);
  });
});

describe("discovery documents (1.2)", () => {
  it("lists the hosted files at the service root", async () => {
    const a = await get(emu.url, "/fmi/odata/v4");
    expect(a.status).toBe(200);
    expect(a.headers.get("content-type")).toBe("application/json;charset=utf-8");
    expect(a.body).toEqual({ "@context": `${R}/$metadata`, value: [{ name: DB, kind: "EntityContainer", url: `${R}/${DB}` }] });
  });

  it("lists one entity set per table in the service document; an unknown file is 404 -1000", async () => {
    const a = await get(emu.url, S);
    expect(a.body).toEqual({
      "@context": `${R}/${DB}/$metadata`,
      value: [
        { name: "Contacts", kind: "EntitySet", url: `${R}/${DB}/Contacts` },
        { name: "Notes", kind: "EntitySet", url: `${R}/${DB}/Notes` },
      ],
    });
    expectODataError(await get(emu.url, "/fmi/odata/v4/Nope"), 404, "-1000");
  });
});

describe("collections (2.3, 2.5, 2.6)", () => {
  it("answers every field but containers, values per 1.4, @id by key, in creation order", async () => {
    const a = await get(emu.url, `${S}/Contacts`);
    expect(a.status).toBe(200);
    expect(a.body["@context"]).toBe(`${R}/${DB}/$metadata#Contacts`);
    expect(a.body.value[0]).toEqual({
      "@id": `${R}/${DB}/Contacts('A1')`,
      "@editLink": `${R}/${DB}/Contacts('A1')`,
      id: "A1",
      Name: "Ada",
      Age: 36,
      Born: "1815-12-10",
      Alarm: "07:30:00",
      Seen: "2026-11-27T09:15:00Z",
      Tags: ["x", null],
      Label: "Ada (36)",
    });
    expect(a.body.value[1]).toMatchObject({ Born: null, Alarm: null, Seen: null, Label: "bob (41)" });
    expect(a.body.value[2]["@id"]).toBe(`${R}/${DB}/Contacts('C3')`);
  });

  it("takes $select (context lists the fields), $filter, $orderby, $top, $skip and $count=true", async () => {
    const a = await get(emu.url, `${S}/Contacts?$select=Name,"Age"&$filter=Age%20gt%2010&$orderby=Name%20desc&$count=true`);
    expect(a.body["@context"]).toBe(`${R}/${DB}/$metadata#Contacts("Name","Age")`);
    expect(a.body["@count"]).toBe(2);
    expect(a.body.value.map((v: any) => [v.Name, v.Age])).toEqual([["bob", 41], ["Ada", 36]]);
    expect(Object.keys(a.body.value[0])).toEqual(["@id", "@editLink", "Name", "Age"]);
    const page = await get(emu.url, `${S}/Contacts?$orderby=Age&$top=1&$skip=1&$count=true&$select=Name`);
    expect(page.body["@count"]).toBe(3);
    expect(page.body.value.map((v: any) => v.Name)).toEqual(["Ada"]);
    const dated = await get(emu.url, `${S}/Contacts?$filter=Born%20lt%202000-01-01%20and%20Seen%20ge%202026-11-27T09:00:00Z&$select=%22id%22`);
    expect(dated.body.value).toEqual([{ "@id": `${R}/${DB}/Contacts('A1')`, "@editLink": `${R}/${DB}/Contacts('A1')`, id: "A1" }]);
    const calc = await get(emu.url, `${S}/Contacts?$filter=contains(Label,'(7.5)')&$select=%22id%22`);
    expect(calc.body.value.map((v: any) => v.id)).toEqual(["C3"]);
  });

  it("sends a container in base64 only when selected, and ROWID/ROWMODID with include-specialcolumns", async () => {
    const plain = await get(emu.url, `${S}/Contacts?$top=1`, { Prefer: "fmodata.include-specialcolumns" });
    expect(Object.keys(plain.body.value[0]).slice(-2)).toEqual(["ROWID", "ROWMODID"]);
    expect(plain.body.value[0]).toMatchObject({ ROWID: 1, ROWMODID: 0 });
    expect("Photo" in plain.body.value[0]).toBe(false);
    const sel = await get(emu.url, `${S}/Contacts?$top=1&$select=Photo,ROWID`, { Prefer: "fmodata.include-specialcolumns" });
    expect(Object.keys(sel.body.value[0])).toEqual(["@id", "@editLink", "Photo", "ROWID"]);
    expect(sel.body.value[0].Photo).toBeNull();
  });

  it("writes @odata.-prefixed annotations with OData-Version 4.0, and drops context and ids with metadata=none", async () => {
    const v = await get(emu.url, `${S}/Contacts?$top=1&$count=true&$select=%22id%22`, { "OData-Version": "4.0" });
    expect(Object.keys(v.body)).toEqual(["@odata.context", "@odata.count", "value"]);
    expect(Object.keys(v.body.value[0])).toEqual(["@odata.id", "@odata.editLink", "id"]);
    const none = await get(emu.url, `${S}/Contacts?$top=1&$count=true&$select=%22id%22`, { Accept: "application/json;odata.metadata=none" });
    expect(none.body).toEqual({ "@odata.count": 3, value: [{ id: "A1" }] });
  });

  it("writes numbers as strings with IEEE754Compatible=true, and keys by FMFID with fmodata.entity-ids", async () => {
    const a = await get(emu.url, `${S}/Contacts('A1')?$select=Age,Name`, { Accept: "application/json;IEEE754Compatible=true" });
    expect([a.body.Age, a.body.Name]).toEqual(["36", "Ada"]);
    const name = (await metadataIds(emu.url)).field("Contacts", "Name");
    const ids = await get(emu.url, `${S}/Contacts?$top=1&$select=${name}`, { Prefer: "fmodata.entity-ids" });
    expect(ids.body.value[0][name]).toBe("Ada");
    expect((await get(emu.url, `${S}/Contacts?$top=1&$select=${name}`)).body.value[0].Name).toBe("Ada");
  });

  it("pages at odata.maxpagesize with @nextLink, followed to the end; $top suppresses it", async () => {
    const seen: number[] = [];
    let next: string | undefined = `${R}/${DB}/Notes?$filter=N%20gt%203&$select=N`;
    let pages = 0;
    while (next !== undefined && pages < 10) {
      const a = await get("", next, { Prefer: "odata.maxpagesize=10" });
      expect(a.status, a.text).toBe(200);
      seen.push(...a.body.value.map((v: any) => v.N));
      next = a.body["@nextLink"];
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 22 }, (_, i) => i + 4));
    const top = await get(emu.url, `${S}/Notes?$top=12`, { Prefer: "odata.maxpagesize=10" });
    expect(top.body.value).toHaveLength(12);
    expect(top.body["@nextLink"]).toBeUndefined();
  });

  it("refuses unknown tables, fields, $expand and wrong literals in OData's error shape", async () => {
    expect(expectODataError(await get(emu.url, `${S}/Nope`), 404, "-1020").message).toBe("Table 'Nope' not defined in database");
    expect(expectODataError(await get(emu.url, `${S}/Contacts?$select=Nope`), 400, "8309").message).toBe("The field named 'Nope' does not exist in a specified table (9)");
    expectODataError(await get(emu.url, `${S}/Contacts?$orderby=Nope`), 400, "8309");
    expectODataError(await get(emu.url, `${S}/Contacts?$filter=Nope%20eq%201`), 400, "8309");
    expectODataError(await get(emu.url, `${S}/Contacts?$filter=Name%20in%20('a')`), 400, "-1002");
    expectODataError(await get(emu.url, `${S}/Contacts?$expand=Nope`), 400, "8309");
    expect(expectODataError(await get(emu.url, `${S}/Contacts?$apply=groupby((Name))`), 400, "8309").message).toBe("All non-aggregated field references must be in the groupby clause.");
    expectODataError(await get(emu.url, `${S}/Contacts?$select=ID`), 400, "-1002");
    expectODataError(await get(emu.url, `${S}/Contacts`, { Accept: "application/atom+xml" }), 406, "-1");
  });
});

describe("$metadata (1.3-1.6), from the same model as the read path", () => {
  const all = (e: XmlElement, name: string): XmlElement[] => [...(e.name === name ? [e] : []), ...e.children.flatMap((c) => all(c, name))];
  const annotation = (e: XmlElement, term: string) => e.children.find((c) => c.name === "Annotation" && c.attrs.Term === term)?.attrs.String;

  it("answers CSDL XML by default and JSON CSDL for $format=json or Accept application/json; one table by $metadata%23T", async () => {
    const xml = await get(emu.url, `${S}/$metadata`);
    expect(xml.status).toBe(200);
    expect(xml.headers.get("content-type")).toBe("application/xml;charset=utf-8");
    const types = all(parseXml(xml.text), "EntityType").map((t) => t.attrs.Name);
    expect(types).toEqual(["Contacts_", "Notes_"]);
    expect(parseXml((await get(emu.url, `${S}/$metadata`, { Accept: "application/xml" })).text).name).toBe("edmx:Edmx");

    for (const a of [await get(emu.url, `${S}/$metadata?$format=json`), await get(emu.url, `${S}/$metadata`, { Accept: "application/json" })]) {
      expect(a.status).toBe(200);
      expect(a.headers.get("content-type")).toBe("application/json;charset=utf-8");
      expect(a.body.$Version).toBe("4.01");
      expect(a.body[DB]["Contacts_"].$Kind).toBe("EntityType");
      expect(a.body[DB].Notes.$Kind).toBe("EntitySet");
    }
    const one = await get(emu.url, `${S}/$metadata%23Notes`);
    expect(all(parseXml(one.text), "EntityType").map((t) => t.attrs.Name)).toEqual(["Notes_"]);
    expectODataError(await get(emu.url, `${S}/$metadata%23Nope`), 404, "-1020");
    expectODataError(await get(emu.url, `${S}/$metadata?$top=1`), 400, "-1002");
    const trimmed = await get(emu.url, `${S}/$metadata`, { Prefer: 'include-annotations="-*"' });
    expect(trimmed.text).toContain("FMTID:");
    expect(trimmed.text).not.toContain("SchemaVersion");
  });

  it("states FMTIDs and FMFIDs that address the same table and rows through the read path", async () => {
    const doc = parseXml((await get(emu.url, `${S}/$metadata`)).text);
    const notes = all(doc, "EntityType").find((t) => t.attrs.Name === "Notes_")!;
    const tableId = annotation(notes, "com.filemaker.odata.TableID")!;
    const n = notes.children.find((c) => c.name === "Property" && c.attrs.Name === "N")!;
    const fieldId = annotation(n, "com.filemaker.odata.FieldID")!;
    expect(tableId).toMatch(/^FMTID:\d+$/);
    expect(fieldId).toMatch(/^FMFID:\d+$/);
    expect(BigInt(fieldId.slice(6)) % 2n ** 32n).toBe(BigInt(tableId.slice(6)));

    const byName = await get(emu.url, `${S}/Notes?$filter=N%20eq%207`);
    const byId = await get(emu.url, `${S}/${tableId}?$filter=${fieldId}%20eq%207`);
    expect(byId.status).toBe(200);
    expect(byName.body.value).toHaveLength(1);
    expect(byId.body.value.map((r: any) => r.Text)).toEqual(byName.body.value.map((r: any) => r.Text));
    expect(byId.body.value[0].Text).toBe("note 7");

    // The JSON form states the same ids.
    const json = (await get(emu.url, `${S}/$metadata?$format=json`)).body;
    expect(json[DB]["Notes_"]["@TableID"]).toBe(tableId);
    expect(json[DB]["Notes_"].N["@FieldID"]).toBe(fieldId);
  });
});

describe("one record, one field, $value, $count (2.3, 2.4)", () => {
  it("reads by key, by ROWID, and a keyless table by its ROWID", async () => {
    const a = await get(emu.url, `${S}/Contacts('B2')`);
    expect(a.body).toMatchObject({ "@context": `${R}/${DB}/$metadata#Contacts/$entity`, "@id": `${R}/${DB}/Contacts('B2')`, id: "B2", Name: "bob" });
    expect((await get(emu.url, `${S}/Contacts(ROWID=3)`)).body.id).toBe("C3");
    expect((await get(emu.url, `${S}/${(await metadataIds(emu.url)).table("Contacts")}('A1')`)).body.Name).toBe("Ada");
    const note = await get(emu.url, `${S}/Notes(2)`);
    expect(note.body).toMatchObject({ "@id": `${R}/${DB}/Notes(2)`, Text: "note 2" });
    expect((await get(emu.url, `${S}/Notes(ROWID=2)`)).body.Text).toBe("note 2");
    expectODataError(await get(emu.url, `${S}/Contacts('ZZ')`), 404, "-1023");
    expectODataError(await get(emu.url, `${S}/Notes(999)`), 404, "-1023");
    expect(expectODataError(await get(emu.url, `${S}/Contacts(5)`), 400, "8309").message).toBe("incompatible data types");
  });

  it("reads one field and its raw $value", async () => {
    expect((await get(emu.url, `${S}/Contacts('A1')/Born`)).body).toEqual({ "@context": `${R}/${DB}/$metadata#Contacts('A1')/Born`, value: "1815-12-10" });
    expect((await get(emu.url, `${S}/Contacts('A1')/Tags`)).body.value).toEqual(["x", null]);
    const raw = await get(emu.url, `${S}/Contacts('A1')/Age/$value`);
    expect([raw.status, raw.headers.get("content-type"), raw.text]).toEqual([200, "text/plain;charset=utf-8", "36"]);
    expect((await get(emu.url, `${S}/Contacts('A1')/Label/$value`)).text).toBe("Ada (36)");
    expectODataError(await get(emu.url, `${S}/Contacts('A1')/Nope`), 400, "8309");
  });

  it("counts with /$count as text (406 to Accept: text/plain) and honours $filter", async () => {
    const all = await get(emu.url, `${S}/Notes/$count`);
    expect([all.status, all.headers.get("content-type"), all.text]).toEqual([200, "text/plain;charset=utf-8", "25"]);
    expect((await get(emu.url, `${S}/Notes/$count?$filter=ContactId%20eq%20'A1'`, { Accept: "*/*" })).text).toBe("13");
    expectODataError(await get(emu.url, `${S}/Notes/$count`, { Accept: "text/plain" }), 406, "-1");
  });
});

describe("navigation: $expand, T(k)/Nav, Nav/Field in $filter (2.3, 2.6)", () => {
  it("expands related records both ways, with nested options", async () => {
    const a = await get(emu.url, `${S}/Contacts('A1')?$select=Name&$expand=Notes($select=N;$orderby=N%20desc;$top=2;$count=true)`);
    expect(a.body.Name).toBe("Ada");
    expect(a.body["Notes@count"]).toBe(13);
    expect(a.body.Notes).toEqual([
      { "@id": `${R}/${DB}/Notes(25)`, "@editLink": `${R}/${DB}/Notes(25)`, N: 25 },
      { "@id": `${R}/${DB}/Notes(23)`, "@editLink": `${R}/${DB}/Notes(23)`, N: 23 },
    ]);
    const back = await get(emu.url, `${S}/Notes?$top=2&$select=N&$expand=Contacts($select=Name)`);
    expect(back.body.value.map((v: any) => [v.N, v.Contacts.map((c: any) => c.Name)])).toEqual([[1, ["Ada"]], [2, ["bob"]]]);
    const empty = await get(emu.url, `${S}/Contacts('C3')?$expand=Notes`);
    expect(empty.body.Notes).toEqual([]);
  });

  it("answers a bad field inside $expand with 200 and an error in place of the navigation", async () => {
    const a = await get(emu.url, `${S}/Contacts?$top=2&$select=Name&$expand=Notes($select=nope)`);
    expect(a.status).toBe(200);
    expect(a.body.value[0]).toEqual({
      "@id": `${R}/${DB}/Contacts('A1')`,
      "@editLink": `${R}/${DB}/Contacts('A1')`,
      Name: "Ada",
      error: [{ error: { code: "8309", message: 'FQL0009: The column named "nope" does not exist in table "Notes".' } }],
    });
  });

  it("reads T(k)/Nav as the target's collection, and filters on Nav/Field", async () => {
    const a = await get(emu.url, `${S}/Contacts('B2')/Notes?$count=true&$top=3&$select=N`);
    expect(a.body["@context"]).toBe(`${R}/${DB}/$metadata#Notes("N")`);
    expect(a.body["@count"]).toBe(12);
    expect(a.body.value.map((v: any) => v.N)).toEqual([2, 4, 6]);
    const paged = await get(emu.url, `${S}/Contacts('B2')/Notes?$select=N`, { Prefer: "odata.maxpagesize=10" });
    expect(paged.body["@nextLink"]).toBe(`${R}/${DB}/Contacts('B2')/Notes?$select="N"&$skiptoken=s10t0`);
    expect((await get("", paged.body["@nextLink"])).body.value.map((v: any) => v.N)).toEqual([22, 24]);
    const f = await get(emu.url, `${S}/Contacts?$filter=Notes/N%20eq%202&$select=%22id%22`);
    expect(f.body.value.map((v: any) => v.id)).toEqual(["B2"]);
  });
});

describe("one hosted file, two APIs", () => {
  it("reads a record the Data API creates at once, ROWID = recordId and ROWMODID = modId", async () => {
    const api = new DataApi(emu.url);
    const token = await api.login(USER, PASSWORD, DB);
    const created = await api.call("POST", `/databases/${DB}/layouts/Contacts/records`, { token, json: { fieldData: { Name: "Dee", Age: 5 } } });
    const recordId = Number(created.body.response.recordId);
    await api.call("PATCH", `/databases/${DB}/layouts/Contacts/records/${recordId}`, { token, json: { fieldData: { Age: 6 } } });
    const a = await get(emu.url, `${S}/Contacts?$filter=Name%20eq%20'Dee'&$select=%22id%22,Age,ROWID,ROWMODID`);
    expect(a.body.value).toHaveLength(1);
    expect(a.body.value[0]).toMatchObject({ Age: 6, ROWID: recordId, ROWMODID: 1 });
    expect((await get(emu.url, `${S}/Contacts('${a.body.value[0].id}')/Label/$value`)).text).toBe("Dee (6)");
  });

  it("reads a container the Data API uploads: base64 when selected, its bytes and type from $value", async () => {
    const api = new DataApi(emu.url);
    const token = await api.login(USER, PASSWORD, DB);
    const bytes = new Uint8Array([137, 80, 78, 71, 0, 1, 2, 255]);
    const up = await api.upload(token, "Contacts", "3", "Photo", 1, { bytes, type: "image/png", filename: "c.png" }, DB);
    expect(up.status).toBe(200);
    const sel = await get(emu.url, `${S}/Contacts('C3')?$select=Photo`);
    expect(sel.body.Photo).toBe(Buffer.from(bytes).toString("base64"));
    const raw = await fetch(`${emu.url}${S}/Contacts('C3')/Photo/$value`, { headers: { Authorization: auth() } });
    expect(raw.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await raw.arrayBuffer())).toEqual(bytes);
  });
});
