import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { DB, expectODataError, get, startOffice } from "./serve-support.js";

// `Nav/Field` in `$select` and `$orderby` (docs/emulator.md, "Navigation paths: `Nav/Field` in `$select` and
// `$orderby`"): a selected related field nests as the navigation's array of rows holding only the selected fields; an
// order by a related field sorts by the first related record's value, as FileMaker sorts by a related field. Office:
// Contacts A1 (Ada) has notes 1, 3, 5; B2 (bob) has 2, 4, 6; C3 (Cy) none. Notes → Contacts is one row.

let emu: RunningEmulator;
const S = `/fmi/odata/v4/${DB}`;
const R = () => `${emu.url}/fmi/odata/v4/${DB}`;

beforeAll(async () => {
  emu = await startOffice(6);
});
afterAll(() => emu.close());

const read = (query: string) => get(emu.url, `${S}/${query}`);
const strip = (rows: any[]) => rows.map(({ "@id": _i, "@editLink": _e, ...rest }) => rest);

describe("$select=Nav/Field", () => {
  it("nests the selected related fields as the navigation's rows, beside the record's own selected fields", async () => {
    const a = await read("Contacts?$select=Name,Notes/Text&$orderby=Name");
    expect(a.status).toBe(200);
    expect(a.body["@context"]).toBe(`${R()}/$metadata#Contacts("Name","Notes/Text")`);
    expect(a.body.value.map((r: any) => [r.Name, strip(r.Notes)])).toEqual([
      ["Ada", [{ Text: "note 1" }, { Text: "note 3" }, { Text: "note 5" }]],
      ["bob", [{ Text: "note 2" }, { Text: "note 4" }, { Text: "note 6" }]],
      ["Cy O'Brien", []],
    ]);
    // Related rows carry their own @id, as expanded rows do; the record has no other fields.
    expect(a.body.value[0].Notes[0]["@id"]).toMatch(new RegExp(`^${R()}/Notes\\(\\d+\\)$`));
    expect(Object.keys(a.body.value[0])).toEqual(["@id", "@editLink", "Name", "Notes"]);
  });

  it("takes several fields of one navigation, ROWID, paths through two navigations, and merges into an $expand of it", async () => {
    const two = await read("Contacts('A1')?$select=Notes/N,Notes/ROWID,Notes/N");
    expect(strip(two.body.Notes)).toEqual([{ N: 1, ROWID: 1 }, { N: 3, ROWID: 3 }, { N: 5, ROWID: 5 }]);
    const deep = await read("Notes(2)?$select=Text,Contacts/Notes/N");
    expect(deep.body.Text).toBe("note 2");
    expect(deep.body.Contacts.map((c: any) => strip(c.Notes))).toEqual([[{ N: 2 }, { N: 4 }, { N: 6 }]]);
    // With `$expand=Notes($select=Text)` the selected N is added; with `$expand=Notes` every field stays.
    const merged = await read("Contacts('B2')?$select=Name,Notes/N&$expand=Notes($select=Text;$top=2)");
    expect(strip(merged.body.Notes)).toEqual([{ Text: "note 2", N: 2 }, { Text: "note 4", N: 4 }]);
    const all = await read("Contacts('B2')?$select=Notes/N&$expand=Notes($top=1)");
    expect(strip(all.body.Notes)).toEqual([{ ContactId: "B2", Text: "note 2", N: 2 }]);
    // Inside an $expand too.
    const nested = await read("Notes(1)?$select=Text&$expand=Contacts($select=Name,Notes/N)");
    expect(nested.body.Contacts.map((c: any) => [c.Name, strip(c.Notes)])).toEqual([["Ada", [{ N: 1 }, { N: 3 }, { N: 5 }]]]);
  });

  it("an unknown navigation or related field is 400 8309 naming the path", async () => {
    expect(expectODataError(await read("Contacts?$select=Nope/Text"), 400, "8309").message).toBe("The field named 'Nope/Text' does not exist in a specified table (9)");
    expect(expectODataError(await read("Contacts?$select=Notes/Nope"), 400, "8309").message).toBe("The field named 'Notes/Nope' does not exist in a specified table (9)");
    expectODataError(await read("Contacts?$select=Name/Text"), 400, "8309");
  });
});

describe("$orderby=Nav/Field", () => {
  it("sorts by the first related record's value; no related record sorts as empty (first ascending)", async () => {
    const asc = await read("Contacts?$select=Name&$orderby=Notes/Text");
    expect(asc.body.value.map((r: any) => r.Name)).toEqual(["Cy O'Brien", "Ada", "bob"]);
    const desc = await read("Contacts?$select=Name&$orderby=Notes/N desc".replace(/ /g, "%20"));
    expect(desc.body.value.map((r: any) => r.Name)).toEqual(["bob", "Ada", "Cy O'Brien"]);
  });

  it("sorts the related side too (Notes by their contact's name, then by N descending), and inside an $expand", async () => {
    const notes = await read("Notes?$select=N&$orderby=Contacts/Name%20desc,N%20desc");
    expect(notes.body.value.map((r: any) => r.N)).toEqual([6, 4, 2, 5, 3, 1]);
    const inner = await read("Notes(1)?$select=N&$expand=Contacts($select=Name;$expand=Notes($select=N;$orderby=Contacts/Name,N%20desc))");
    expect(inner.body.Contacts[0].Notes.map((r: any) => r.N)).toEqual([5, 3, 1]);
  });

  it("an unknown navigation or related field is 400 8309 naming the path", async () => {
    expect(expectODataError(await read("Contacts?$orderby=Notes/Nope"), 400, "8309").message).toBe("The field named 'Notes/Nope' does not exist in a specified table (9)");
    expectODataError(await read("Contacts?$orderby=Nope/Text"), 400, "8309");
  });
});
