import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { batch, changeset } from "./batch-support.js";
import { DB, expectODataError, get, send as sendTo, startOffice, type Answer } from "./serve-support.js";

// docs/emulator.md, "Names": OData's table occurrences, fields and navigations are FileMaker's names, matched without
// regard to case as the Data API's are (one helper, hosted-file/name-map.ts). Each place a request names one is
// walked here in another case; the answers name everything by the file's own spelling.

let emu: RunningEmulator;
const S = `/fmi/odata/v4/${DB}`;
const send = (method: string, path: string, body?: unknown): Promise<Answer> => sendTo(emu.url, method, path, body);
const read = (path: string, headers: Record<string, string> = {}) => get(emu.url, path, headers);

beforeAll(async () => {
  emu = await startOffice(4, { scripts: { Echo: ({ param }) => `echo ${param}` } });
});
afterAll(() => emu.close());

describe("OData names in another case", () => {
  it("the entity set in the path, $select, $filter and $orderby; keys and @context keep the file's names", async () => {
    const rows = await read(`${S}/contacts?$select=NAME,age&$filter=name%20eq%20'Ada'%20or%20AGE%20gt%2040&$orderby=AGE%20desc`);
    expect(rows.status, rows.text).toBe(200);
    expect(rows.body["@context"]).toBe(`${emu.url}${S}/$metadata#Contacts("Name","Age")`);
    expect(rows.body.value.map((r: Record<string, unknown>) => [r.Name, r.Age])).toEqual([["bob", 41], ["Ada", 36]]);
    expect(Object.keys(rows.body.value[0]).filter((k) => !k.startsWith("@"))).toEqual(["Name", "Age"]);
    expect(rows.body.value[0]["@id"]).toBe(`${emu.url}${S}/Contacts('B2')`);
  });

  it("an entity, a member, its $value and $count", async () => {
    expect((await read(`${S}/CONTACTS('A1')`)).body.Name).toBe("Ada");
    const member = await read(`${S}/Contacts('A1')/name`);
    expect(member.body).toEqual({ "@context": `${emu.url}${S}/$metadata#Contacts('A1')/Name`, value: "Ada" });
    expect((await read(`${S}/Contacts('A1')/NAME/$value`)).text).toBe("Ada");
    expect((await read(`${S}/notes/$count`)).text).toBe("4");
  });

  it("$expand and Nav/Field paths, keyed by the navigation's own name", async () => {
    const one = await read(`${S}/Contacts('A1')?$select=Name&$expand=notes($select=TEXT;$orderby=n%20desc)`);
    expect(one.status, one.text).toBe(200);
    expect(one.body.Notes.map((n: Record<string, unknown>) => n.Text)).toEqual(["note 3", "note 1"]);
    expect(one.body).not.toHaveProperty("notes");
    const nav = await read(`${S}/Contacts?$select=Name,notes/text&$filter=NOTES/N%20eq%203`);
    expect(nav.status, nav.text).toBe(200);
    expect(nav.body["@context"]).toBe(`${emu.url}${S}/$metadata#Contacts("Name","Notes/Text")`);
    expect(nav.body.value.map((r: Record<string, unknown>) => r.Name)).toEqual(["Ada"]);
    const related = await read(`${S}/Contacts('A1')/NOTES?$select=Text`);
    expect(related.body.value.map((n: Record<string, unknown>) => n.Text)).toEqual(["note 1", "note 3"]);
  });

  it("$apply and $crossjoin", async () => {
    const grouped = await read(`${S}/Notes?$apply=groupby((contactid),aggregate(n%20with%20sum%20as%20Total))&$orderby=CONTACTID`);
    expect(grouped.status, grouped.text).toBe(200);
    expect(grouped.body.value.map((r: Record<string, unknown>) => [r.ContactId, r.Total])).toEqual([["A1", 4], ["B2", 6]]);
    const joined = await read(`${S}/$crossjoin(contacts,NOTES)?$top=1&$expand=notes($select=text)`);
    expect(joined.status, joined.text).toBe(200);
  });

  it("writes: a create's and an update's body keys, answered under the file's names", async () => {
    const made = await send("POST", `${S}/notes`, { text: "made", n: 9, CONTACTID: "C3" });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ Text: "made", N: 9, ContactId: "C3" });
    const rowid = /\((?:ROWID=)?(\d+)\)$/.exec(made.headers.get("location") ?? "")?.[1];
    const patched = await send("PATCH", `${S}/NOTES(ROWID=${rowid})`, { TEXT: "patched" });
    expect(patched.status, patched.text).toBe(204);
    expect((await read(`${S}/Notes(ROWID=${rowid})/Text`)).body.value).toBe("patched");
  });

  it("one property in two spellings in a write body: written in the order given, the last kept (the Data API's rule), in entity writes and $batch parts", async () => {
    const rowidOf = (a: Answer | { headers: readonly (readonly [string, string])[] }) =>
      /\((?:ROWID=)?(\d+)\)$/.exec(("get" in a.headers ? a.headers.get("location") : a.headers.find(([k]) => k.toLowerCase() === "location")?.[1]) ?? "")?.[1];
    const made = await send("POST", `${S}/Notes`, '{"Text": "first", "text": "second", "N": 1}');
    expect(made.status, made.text).toBe(201);
    expect(made.body.Text).toBe("second");
    const rowid = rowidOf(made);
    const patched = await send("PATCH", `${S}/Notes(ROWID=${rowid})`, '{"TEXT": "third", "Text": "fourth"}');
    expect(patched.status, patched.text).toBe(204);
    expect((await read(`${S}/Notes(ROWID=${rowid})/Text`)).body.value).toBe("fourth");
    // The same spelling twice is JSON's own case: a JSON object keeps the last value of a key, so that one is written.
    expect((await send("PATCH", `${S}/Notes(ROWID=${rowid})`, '{"Text": "fifth", "Text": "sixth"}')).status).toBe(204);
    expect((await read(`${S}/Notes(ROWID=${rowid})/Text`)).body.value).toBe("sixth");

    const body = (text: string) => ({ headers: [["Content-Type", "application/json"]] as [string, string][], body: text });
    const parts = await batch(emu.url, [
      {
        kind: "changeset",
        requests: [
          { method: "POST", url: `${S}/Notes`, ...body('{"text": "in a batch", "Text": "kept", "N": 2}') },
          { method: "PATCH", url: `${S}/Notes(ROWID=${rowid})`, ...body('{"Text": "batch first", "TEXT": "batch last"}') },
        ],
      },
    ]);
    expect(parts.status, parts.text).toBe(200);
    const [created, updated] = changeset(parts.items![0]);
    expect([created!.status < 300, updated!.status]).toEqual([true, 204]);
    const batchRow = rowidOf(created!);
    expect((await read(`${S}/Notes(ROWID=${batchRow})/Text`)).body.value).toBe("kept");
    expect((await read(`${S}/Notes(ROWID=${rowid})/Text`)).body.value).toBe("batch last");
  });

  it("$metadata of one table, schema changes, indexes, scripts and webhooks", async () => {
    const one = await read(`${S}/$metadata%23contacts`, { Accept: "application/json" });
    expect(one.status, one.text).toBe(200);
    expect(Object.keys(one.body[DB])).toContain("Contacts_");
    expect((await send("PATCH", `${S}/FileMaker_Tables/notes`, { fields: [{ name: "Extra", type: "varchar(10)" }] })).status).toBe(200);
    // A second field whose name differs only by case is the same name: refused.
    expectODataError(await send("PATCH", `${S}/FileMaker_Tables/Notes`, { fields: [{ name: "EXTRA", type: "varchar(10)" }] }), 400, "-1");
    const index = await send("POST", `${S}/FileMaker_Indexes/NOTES`, { indexName: "extra" });
    expect(index.body).toEqual({ indexName: "Extra" });
    expect((await send("DELETE", `${S}/FileMaker_Indexes/notes/EXTRA`)).status).toBe(204);
    expect((await send("DELETE", `${S}/FileMaker_Tables/notes/extra`)).status).toBe(204);
    expect((await send("POST", `${S}/Script.echo`, { scriptParameterValue: "x" })).body).toEqual({ scriptResult: { code: 0, resultParameter: "echo x" } });
    const added = await send("POST", `${S}/Webhook.Add`, { webhook: "http://127.0.0.1:9/x", tableName: "contacts" });
    expect(added.status, added.text).toBe(200);
    const all = await read(`${S}/Webhook.GetAll`);
    expect(all.body.webhooks.map((h: { tableName: string }) => h.tableName)).toEqual(["Contacts"]);
    await send("POST", `${S}/Webhook.Delete(${added.body.webhookResult.webhookID})`);
  });

  it("$ref: the body's @odata.id may spell the set in another case", async () => {
    const made = await send("POST", `${S}/Notes`, { Text: "orphan" });
    const rowid = /\((?:ROWID=)?(\d+)\)$/.exec(made.headers.get("location") ?? "")?.[1];
    const linked = await send("POST", `${S}/contacts('C3')/notes/$ref`, { "@odata.id": `NOTES(ROWID=${rowid})` });
    expect(linked.status, linked.text).toBe(204);
    expect((await read(`${S}/Notes(ROWID=${rowid})/ContactId`)).body.value).toBe("C3");
  });

  it("names that differ by more than case stay unknown", async () => {
    expectODataError(await read(`${S}/Contact`), 404, "-1020");
    expectODataError(await read(`${S}/Contacts?$select=Nam`), 400, "8309");
  });
});
