import type { IncomingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/emulator/index.js";
import { listenLoopback } from "../support/loopback-server.js";
import { DB, loopbackFetch, PASSWORD, startPeerOffice, USER } from "./support/odata-office.js";
import { peerImport, peerVersion } from "./support/serve.mjs";

/**
 * @proofkit/fmodata 0.1.2 (the newest the registry serves), installed in test/peer-clients (its own lockfile),
 * driven unchanged against the emulator's OData API (startEmulator in this process, 127.0.0.1 only). Its engines
 * say Node ^22 || ^24 || ^26; it runs on Node 20 here (it uses no Node 22 API: fetch, Headers, btoa and effect),
 * so its tests run on Node 20 like every other peer test. FMServerConnection always turns the server URL into
 * `https://`; the emulator serves plain HTTP, so the connection is given the client's own `fetchClientOptions.fetchHandler`
 * (its documented hook for custom networking), which sends the emulator's https URLs as http and refuses any other
 * host. WIRE-ODATA.md tables every call.
 *
 * Calls this client cannot make, or makes so that they cannot work (evidence: the wire contract's sections,
 * docs/emulator.md):
 * | call | reason |
 * |---|---|
 * | `connection.listDatabaseNames()` | sends `GET /fmi/odata/v4/$metadata` (JSON) and reads `value`: the database list is `GET /fmi/odata/v4` (1.1, 1.2); the emulator answers 400 -1002 |
 * | `inArray`, `notInArray` | write `in (...)`, which FMS refuses: 400 -1002 at `' in '` (2.7, RPT) |
 * | `matchesPattern` | not among FMS's filter functions (PKM FilterFunctions, 2.7): 400 -1002 |
 * | `from(T).navigate(U)` (no record) | sends `GET /db/T/U`: navigation from a collection is not OData (only `T(k)/Nav`, 1.1); 400 -1002 |
 * | `orderBy(col)` on a field named `id` | sent unquoted in `$orderby` (quoted in `$select` and `$filter`); a bare `id` is a parse failure on FMS (2.6, 2.7): 400 -1002 |
 * | `execute({ includeSpecialColumns: true })` | sends the Prefer without adding ROWID/ROWMODID to the schema's `$select`, so none come (2.10; the database-level option adds them and works) |
 * | `update(…).where(q => q.where(…).top(n))` | `$top` beside `$filter` on a PATCH: the emulator applies `$filter` only and refuses the rest (400 -1002); what FMS does is UNCONFIRMED |
 * | API key (`auth: { apiKey }`) | an OttoFMS proxy's key under `/otto/fmi/odata/v4` (8); pending in the emulator (API keys for OData) |
 * | Claris ID (`auth: { clarisId }`) | signs in at Amazon Cognito first (no traffic leaves loopback here) |
 * | containers | no call: `containerField()` columns cannot be selected, and inserts leave them out of validation only |
 */

const version = peerVersion("@proofkit/fmodata");

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
let emu: RunningEmulator;
let fm: Any;
let z: Any;
let connection: Any;
let db: Any;
let contacts: Any;
let notes: Any;

beforeAll(async () => {
  emu = await startPeerOffice();
  fm = await peerImport("@proofkit/fmodata/dist/esm/index.js");
  z = await peerImport("zod/v4/index.js");
  connection = new fm.FMServerConnection({ serverUrl: emu.url, auth: { username: USER, password: PASSWORD }, fetchClientOptions: { fetchHandler: loopbackFetch(emu.url) } });
  contacts = fm.fmTableOccurrence(
    "Contacts",
    {
      id: fm.textField().primaryKey(),
      Name: fm.textField(),
      Age: fm.numberField(),
      Born: fm.dateField(),
      Alarm: fm.timeField(),
      Seen: fm.timestampField(),
      Label: fm.calcField(),
    },
    { navigationPaths: ["Notes"] },
  );
  notes = fm.fmTableOccurrence("Notes", { ContactId: fm.textField(), Text: fm.textField().notNull(), N: fm.numberField() }, { navigationPaths: ["Contacts"] });
  db = connection.database(DB);
});
afterAll(() => emu?.close());

/** `{ data }` of a Result, throwing its error (with the server's code) when there is one. */
async function data(builder: Any, options?: Any): Promise<Any> {
  const result = await builder.execute(options);
  if (result.error) throw result.error;
  return result.data;
}

/** The error of a Result that must fail. */
async function failure(builder: Any): Promise<Any> {
  const result = await builder.execute();
  if (!result.error) throw new Error(`expected an error, got ${JSON.stringify(result.data)}`);
  return result.error;
}

describe(`@proofkit/fmodata ${version} against the emulator's OData API`, () => {
  // 1.2 (service document), 1.6 (JSON CSDL), 1.3/1.5 (XML CSDL), `$metadata%23T` (22.0.4), include-annotations="-*".
  it("lists the tables and reads the metadata: JSON, XML, one table, and with annotations reduced", async () => {
    expect(await db.listTableNames()).toEqual(["Contacts", "Notes"]);
    // The file named with its extension, sent as given (1.1).
    expect(await connection.database(`${DB}.fmp12`, { normalizeDatabaseName: false }).listTableNames()).toEqual(["Contacts", "Notes"]);
    const json = await db.getMetadata();
    expect(json.Contacts_).toMatchObject({ $Kind: "EntityType", $Key: ["id"], Age: { $Type: "Edm.Decimal" } });
    expect(json.Contacts_.Label).toMatchObject({ "@Calculation": true });
    expect(json.Notes).toMatchObject({ $Kind: "EntitySet" });
    const xml = await db.getMetadata({ format: "xml" });
    expect(xml).toContain('<?xml version="1.0" encoding="utf-8"?>');
    expect(xml).toContain(`<EntityContainer Name="${DB}">`);
    const one = await db.getMetadata({ tableName: "Notes" });
    expect(Object.keys(one).filter((k) => !k.startsWith("@"))).toEqual(["Notes_", "Notes"]);
    const reduced = await db.getMetadata({ reduceAnnotations: true });
    expect(reduced.Contacts_.Label["@Calculation"]).toBeUndefined();
    expect(reduced.Contacts_.Label["@FieldID"]).toMatch(/^FMFID:\d+$/);
  });

  it("cannot list the databases: it asks for /fmi/odata/v4/$metadata", async () => {
    await expect(connection.listDatabaseNames()).rejects.toMatchObject({ kind: "ODataError", code: "-1002" });
  });

  // 2.3, 2.6: list() selects the schema's fields (`"id"` quoted), values per 1.4; $top=1000 by default.
  it("lists records with the schema's fields, typed values and no annotations", async () => {
    const rows = await data(db.from(contacts).list().orderBy("Name"));
    expect(rows).toEqual([
      { id: "A1", Name: "Ada", Age: 36, Born: "1815-12-10", Alarm: "07:30:00", Seen: "2026-11-27T09:15:00Z", Label: "Ada (36)" },
      { id: "B2", Name: "bob", Age: 41, Born: null, Alarm: null, Seen: null, Label: "bob (41)" },
      { id: "C3", Name: "Cy O'Brien", Age: 7.5, Born: "2020-01-01", Alarm: "23:59:59", Seen: "2020-01-01T00:00:00Z", Label: "Cy O'Brien (7.5)" },
    ]);
    const annotated = await data(db.from(contacts).list().top(1), { includeODataAnnotations: true });
    expect(annotated[0]["@id"]).toBe(`${emu.url}/fmi/odata/v4/${DB}/Contacts('A1')`);
    const all = fm.fmTableOccurrence("Contacts", { id: fm.textField().primaryKey(), Name: fm.textField() }, { defaultSelect: "all" });
    expect(Object.keys((await data(db.from(all).list().top(1), { skipValidation: true }))[0])).toEqual(["id", "Name", "Age", "Born", "Alarm", "Seen", "Tags", "Label"]);
  });

  // 2.6 ($select with renames, $orderby asc/desc and arrays), 2.5 ($top, $skip), 2.3 ($count=true with a page).
  it("selects with renames, orders, pages and counts", async () => {
    const page = await data(
      db
        .from(contacts)
        .list()
        .select({ who: contacts.Name, years: contacts.Age })
        .orderBy(fm.desc(contacts.Age))
        .top(2)
        .skip(1),
    );
    expect(page).toEqual([
      { who: "Ada", years: 36 },
      { who: "Cy O'Brien", years: 7.5 },
    ]);
    const byTuple = await data(db.from(contacts).list().select({ Name: contacts.Name }).orderBy([[contacts.Age, "asc"]]));
    expect(byTuple.map((r: Any) => r.Name)).toEqual(["Cy O'Brien", "Ada", "bob"]);
    const byTwo = await data(db.from(notes).list().select({ N: notes.N }).orderBy(fm.asc(notes.ContactId), fm.desc(notes.N)));
    expect(byTwo.map((r: Any) => r.N)).toEqual([3, 1, 4, 2]);
    const counted = await data(db.from(contacts).list().select({ Name: contacts.Name }).top(1).count());
    expect(counted).toEqual({ records: [{ Name: "Ada" }], count: 3 });
  });

  // 2.7 ($filter: comparison, string functions, null, and/or/not, tolower/toupper/trim).
  it("filters with every operator FileMaker takes", async () => {
    const ids = async (expression: Any) => (await data(db.from(contacts).list().select({ id: contacts.id }).where(expression).orderBy(contacts.Label))).map((r: Any) => r.id);
    expect(await ids(fm.eq(contacts.Name, "Cy O'Brien"))).toEqual(["C3"]);
    expect(await ids(fm.ne(contacts.Name, "bob"))).toEqual(["A1", "C3"]);
    expect(await ids(fm.gt(contacts.Age, 36))).toEqual(["B2"]);
    expect(await ids(fm.gte(contacts.Age, 36))).toEqual(["A1", "B2"]);
    expect(await ids(fm.lt(contacts.Age, 36))).toEqual(["C3"]);
    expect(await ids(fm.lte(contacts.Age, 36))).toEqual(["A1", "C3"]);
    expect(await ids(fm.contains(contacts.Name, "Bri"))).toEqual(["C3"]);
    expect(await ids(fm.startsWith(contacts.Name, "b"))).toEqual(["B2"]);
    expect(await ids(fm.endsWith(contacts.Name, "da"))).toEqual(["A1"]);
    expect(await ids(fm.isNull(contacts.Born))).toEqual(["B2"]);
    expect(await ids(fm.isNotNull(contacts.Born))).toEqual(["A1", "C3"]);
    expect(await ids(fm.and(fm.gt(contacts.Age, 1), fm.lt(contacts.Age, 40)))).toEqual(["A1", "C3"]);
    expect(await ids(fm.or(fm.eq(contacts.id, "A1"), fm.eq(contacts.id, "B2")))).toEqual(["A1", "B2"]);
    expect(await ids(fm.not(fm.eq(contacts.id, "A1")))).toEqual(["B2", "C3"]);
    expect(await ids(fm.eq(fm.tolower(contacts.Name), "ada"))).toEqual(["A1"]);
    expect(await ids(fm.eq(fm.toupper(contacts.Name), "BOB"))).toEqual(["B2"]);
    expect(await ids(fm.eq(fm.trim(contacts.Name), "bob"))).toEqual(["B2"]);
    expect(await ids(fm.gt(contacts.Born, "2000-01-01"))).toEqual(["C3"]);
    expect(await ids("Age gt 40")).toEqual(["B2"]);
  });

  // 2.7: `in` and matchesPattern are not FileMaker's.
  it("gets -1002 for inArray, notInArray and matchesPattern", async () => {
    for (const expression of [fm.inArray(contacts.id, ["A1", "B2"]), fm.notInArray(contacts.id, ["A1"]), fm.matchesPattern(contacts.Name, "^A")]) {
      expect(await failure(db.from(contacts).list().where(expression))).toMatchObject({ kind: "ODataError", code: "-1002" });
    }
  });

  // single() and maybeSingle() (client-side counts over a filtered list).
  it("takes exactly one record, or at most one", async () => {
    expect(await data(db.from(contacts).list().where(fm.eq(contacts.id, "B2")).single())).toMatchObject({ Name: "bob" });
    expect(await data(db.from(contacts).list().where(fm.eq(contacts.id, "Z9")).maybeSingle())).toBeNull();
    expect(await failure(db.from(contacts).list().single())).toMatchObject({ kind: "RecordCountMismatchError" });
  });

  // 2.3 (`/$count`, text/plain).
  it("counts every record and a filter's matches", async () => {
    expect(await data(db.from(contacts).count())).toBe(3);
    expect(await data(db.from(notes).count().where(fm.eq(notes.ContactId, "A1")))).toBe(2);
  });

  // 2.4 (by key, by ROWID; missing: 404 -1023), 2.3 (one field), 1.1 (T(k)/Nav).
  it("gets a record by key and by ROWID, one field of it, and its related records", async () => {
    expect(await data(db.from(contacts).get("C3"))).toMatchObject({ id: "C3", Name: "Cy O'Brien", Age: 7.5 });
    expect(await data(db.from(contacts).get({ ROWID: 2 }))).toMatchObject({ id: "B2" });
    expect(await data(db.from(contacts).get("A1").select({ n: contacts.Name }))).toEqual({ n: "Ada" });
    expect(await data(db.from(contacts).get("A1").getSingleField(contacts.Age))).toBe(36);
    expect(await failure(db.from(contacts).get("Z9"))).toMatchObject({ kind: "ODataError", code: "-1023" });
    const related = await data(db.from(contacts).get("A1").navigate(notes).select({ Text: notes.Text }).orderBy(fm.desc(notes.N)));
    expect(related).toEqual([{ Text: "note 3" }, { Text: "note 1" }]);
    expect(await failure(db.from(contacts).navigate(notes).list())).toMatchObject({ kind: "ODataError", code: "-1002" });
  });

  // 2.6 ($expand with nested $select, $filter, $orderby, $top: the choice "supported").
  it("expands related records, with select, filter, order and top inside", async () => {
    const rows = await data(
      db
        .from(contacts)
        .list()
        .select({ id: contacts.id })
        .orderBy(contacts.Name)
        .expand(notes, (b: Any) => b.select({ Text: notes.Text }).where(fm.gt(notes.N, 1)).orderBy(fm.desc(notes.N)).top(5)),
    );
    expect(rows).toEqual([
      { id: "A1", Notes: [{ Text: "note 3" }] },
      { id: "B2", Notes: [{ Text: "note 4" }, { Text: "note 2" }] },
      { id: "C3", Notes: [] },
    ]);
    const one = await data(db.from(contacts).get("B2").select({ Name: contacts.Name }).expand(notes, (b: Any) => b.select({ N: notes.N })));
    expect(one).toEqual({ Name: "bob", Notes: [{ N: 2 }, { N: 4 }] });
  });

  // 2.10 (ROWID and ROWMODID with include-specialcolumns, only without $select).
  it("includes ROWID and ROWMODID when asked", async () => {
    const special = connection.database(DB, { includeSpecialColumns: true });
    const [first] = await data(special.from(notes).list().top(1));
    expect(first).toMatchObject({ ROWID: 1, ROWMODID: 0, Text: "note 1" });
    // Asked per request, the preference goes without ROWID in the schema's $select, so none come (2.10).
    const [plain] = await data(db.from(notes).list().top(1), { includeSpecialColumns: true });
    expect(plain).toEqual({ ContactId: "A1", Text: "note 1", N: 1 });
  });

  // 2.10 (Prefer: fmodata.entity-ids; FMTID/FMFID in the URL): the ids come from the file's own $metadata.
  it("reads and filters by entity ids (FMTID, FMFID) when the schema gives them", async () => {
    const meta = await db.getMetadata();
    const fieldId = (name: string) => meta.Contacts_[name]["@FieldID"];
    const byIds = fm.fmTableOccurrence(
      "Contacts",
      { key: fm.textField().primaryKey().entityId(fieldId("id")), fullName: fm.textField().entityId(fieldId("Name")), years: fm.numberField().entityId(fieldId("Age")) },
      { entityId: meta.Contacts_["@TableID"], defaultSelect: "all" },
    );
    const idDb = connection.database(DB, { useEntityIds: true });
    const rows = await data(idDb.from(byIds).list().where(fm.gt(byIds.years, 30)).orderBy(byIds.fullName));
    expect(rows.map((r: Any) => [r.key, r.fullName, r.years])).toEqual([
      ["A1", "Ada", 36],
      ["B2", "bob", 41],
    ]);
    expect(await data(idDb.from(byIds).get("C3"))).toMatchObject({ key: "C3", fullName: "Cy O'Brien", years: 7.5 });
    // A $select of entity ids: the client percent-encodes their `:` (`$select=FMFID%3A…`), which FMS takes (2.8).
    const selected = await data(idDb.from(byIds).list().select({ fullName: byIds.fullName, years: byIds.years }).where(fm.eq(byIds.key, "B2")));
    expect(selected).toEqual([{ fullName: "bob", years: 41 }]);
  });

  // 2.6 / 2.7: the client quotes a field named `id` in $select and $filter, not in $orderby.
  it("orders by a field named id unquoted, which FMS refuses", async () => {
    const error = await failure(db.from(contacts).list().orderBy(contacts.id));
    expect(error).toMatchObject({ kind: "ODataError", code: "-1002", message: expect.stringContaining("'id'") });
  });

  // 1.4 + Standard Schema validators (zod 4): read and write transforms; a value that fails validation.
  it("validates and transforms values with read and write validators", async () => {
    const typed = fm.fmTableOccurrence("Contacts", {
      id: fm.textField().primaryKey(),
      Name: fm.textField().writeValidator(z.string().transform((s: string) => s.trim())),
      Age: fm.numberField().readValidator(z.number().transform((n: number) => `${n} years`)),
    });
    expect(await data(db.from(typed).get("A1"))).toEqual({ id: "A1", Name: "Ada", Age: "36 years" });
    const strict = fm.fmTableOccurrence("Contacts", { id: fm.textField().primaryKey(), Name: fm.textField().readValidator(z.string().min(4)) });
    expect(await failure(db.from(strict).get("A1"))).toMatchObject({ kind: "ValidationError" });
    const created = await data(db.from(typed).insert({ Name: "  Padded  ", Age: 2 }));
    expect(created).toMatchObject({ Name: "Padded", Age: "2 years" });
    await data(db.from(typed).delete().byId(created.id));
  });

  // 3.1 (201 + entity; return=minimal: 204 + Location by ROWID).
  it("inserts a record, returning it whole or only its ROWID", async () => {
    const created = await data(db.from(contacts).insert({ Name: "Insert", Age: 1, Born: "2001-02-03" }));
    expect(created).toMatchObject({ id: expect.stringMatching(/^[0-9A-F-]{36}$/), Name: "Insert", Age: 1, Born: "2001-02-03", Label: "Insert (1)" });
    const minimal = await data(db.from(notes).insert({ Text: "minimal", ContactId: "C3" }, { returnFullRecord: false }));
    expect(minimal).toEqual({ ROWID: expect.any(Number) });
    expect(await data(db.from(notes).get({ ROWID: minimal.ROWID }))).toMatchObject({ Text: "minimal" });
    await data(db.from(notes).delete().byRowId(minimal.ROWID));
    await data(db.from(contacts).delete().byId(created.id));
  });

  // 3.2 (PATCH by key, by ROWID, by $filter: 204 + fmodata.affected_rows; return=representation: 200 + entity).
  const special = () => connection.database(DB, { includeSpecialColumns: true });

  it("updates by key, by ROWID and by filter, and returns the record when asked", async () => {
    const created = await data(db.from(contacts).insert({ Name: "Update", Age: 1 }));
    expect(await data(db.from(contacts).update({ Age: 2 }).byId(created.id))).toEqual({ updatedCount: 1 });
    const rowid = (await data(special().from(contacts).get(created.id))).ROWID;
    expect(await data(db.from(contacts).update({ Age: 3 }).byRowId(rowid))).toEqual({ updatedCount: 1 });
    expect(await data(db.from(contacts).update({ Age: 4 }).where((q: Any) => q.where(fm.eq(contacts.Name, "Update"))))).toEqual({ updatedCount: 1 });
    // Query options beside $filter on a write (the client's "update with additional query options"): refused (rule one).
    const limited = await failure(db.from(contacts).update({ Age: 9 }).where((q: Any) => q.where(fm.eq(contacts.Name, "Update")).top(1)));
    expect(limited).toMatchObject({ kind: "ODataError", code: "-1002", message: expect.stringContaining("$top") });
    const whole = await data(db.from(contacts).update({ Age: 5 }, { returnFullRecord: true }).byId(created.id));
    expect(whole).toMatchObject({ id: created.id, Age: 5, Label: "Update (5)" });
    await data(db.from(contacts).delete().byId(created.id));
  });

  // 3.2 (DELETE by key, by ROWID, by $filter; zero matches: 0).
  it("deletes by key, by ROWID and by filter", async () => {
    const a = await data(db.from(contacts).insert({ Name: "Delete", Age: 1 }));
    const b = await data(db.from(contacts).insert({ Name: "Delete", Age: 2 }));
    const c = await data(db.from(contacts).insert({ Name: "Delete", Age: 3 }));
    expect(await data(db.from(contacts).delete().byId(a.id))).toEqual({ deletedCount: 1 });
    const rowid = (await data(special().from(contacts).get(b.id))).ROWID;
    expect(await data(db.from(contacts).delete().byRowId(rowid))).toEqual({ deletedCount: 1 });
    expect(await data(db.from(contacts).delete().where((q: Any) => q.where(fm.eq(contacts.Name, "Delete"))))).toEqual({ deletedCount: 1 });
    expect(await data(db.from(contacts).delete().where((q: Any) => q.where(fm.eq(contacts.Name, "Delete"))))).toEqual({ deletedCount: 0 });
    expect(await failure(db.from(contacts).get(c.id))).toMatchObject({ code: "-1023" });
    expect(await data(db.from(contacts).count())).toBe(3);
  });

  // 8, 9: the server's errors as the client's error kinds.
  it("reports the server's errors: unknown table, unknown field, wrong password", async () => {
    const nope = fm.fmTableOccurrence("Nope", { a: fm.textField() });
    expect(await failure(db.from(nope).list())).toMatchObject({ kind: "ODataError", code: "-1020", message: expect.stringContaining("Table 'Nope' not defined in database") });
    const wrongField = fm.fmTableOccurrence("Contacts", { Nope: fm.textField() });
    expect(await failure(db.from(wrongField).list())).toMatchObject({ kind: "ODataError", code: "8309" });
    const wrong = new fm.FMServerConnection({ serverUrl: emu.url, auth: { username: USER, password: "wrong" }, fetchClientOptions: { fetchHandler: loopbackFetch(emu.url) } });
    const error = await failure(wrong.database(DB).from(contacts).list());
    expect(error).toMatchObject({ kind: "ODataError", code: "212" });
    expect(fm.isODataError(error)).toBe(true);
  });

  // 5: scripts.
  it("runs a script with a string, a number and an object, and parses its result with a schema", async () => {
    expect(await db.runScript("Echo", { scriptParam: "hello world" })).toEqual({ resultCode: 0, result: "hello world" });
    expect(await db.runScript("Echo", { scriptParam: 42 })).toEqual({ resultCode: 0, result: "42" });
    const parsed = await db.runScript("Echo", { scriptParam: { hello: "world" }, resultSchema: z.string().transform((s: string) => JSON.parse(s)) });
    expect(parsed).toEqual({ resultCode: 0, result: { hello: "world" } });
  });

  // 4: $batch (reads outside a changeset, writes in one; a failing part truncates the rest).
  it("runs reads and writes in one batch, and reports a truncated batch", async () => {
    const result = await db.batch([db.from(contacts).list().select({ Name: contacts.Name }).top(1), db.from(notes).insert({ Text: "batched", ContactId: "C3" }), db.from(contacts).count()]).execute();
    expect(result.successCount).toBe(3);
    expect(result.results[0].data).toEqual([{ Name: "Ada" }]);
    expect(result.results[2].data).toBe(3);
    expect(await data(db.from(notes).count().where(fm.eq(notes.Text, "batched")))).toBe(1);
    const nope = fm.fmTableOccurrence("Nope", { a: fm.textField() });
    const truncated = await db.batch([db.from(nope).list(), db.from(contacts).count()]).execute();
    expect(truncated.truncated).toBe(true);
    expect(truncated.results[0].error).toMatchObject({ code: "-1020" });
    expect(fm.isBatchTruncatedError(truncated.results[1].error)).toBe(true);
    await data(db.from(notes).delete().where((q: Any) => q.where(fm.eq(notes.Text, "batched"))));
  });

  // 6: schema changes (FileMaker_Tables, FileMaker_Indexes).
  it("creates a table, adds fields, creates and deletes an index, deletes a field and the table", async () => {
    const created = await db.schema.createTable("PeerSchema", [
      { name: "Code", type: "numeric", primary: true },
      { name: "Title", type: "string", maxLength: 40, nullable: false },
      { name: "Made", type: "timestamp", default: "CURRENT_TIMESTAMP" },
    ]);
    expect(created.tableName).toBe("PeerSchema");
    expect(created.fields.map((f: Any) => f.name)).toEqual(["Code", "Title", "Made"]);
    const added = await db.schema.addFields("PeerSchema", [{ name: "Extra", type: "date" }]);
    expect(added.fields.map((f: Any) => f.name)).toContain("Extra");
    expect(await db.schema.createIndex("PeerSchema", "Title")).toEqual({ indexName: "Title" });
    await db.schema.deleteIndex("PeerSchema", "Title");
    await db.schema.deleteField("PeerSchema", "Extra");
    expect(await db.listTableNames()).toContain("PeerSchema");
    await db.schema.deleteTable("PeerSchema");
    expect(await db.listTableNames()).not.toContain("PeerSchema");
  });

  // 7: webhooks (Add, GetAll, Get, Invoke, Delete; an unknown id is 404 -1061).
  it("adds, lists, gets, invokes and removes a webhook; the invoked delivery reaches its endpoint", async () => {
    // The webhook's endpoint: a server on loopback that keeps what it is sent, closed in finally.
    const deliveries: { headers: IncomingHttpHeaders; body: Any }[] = [];
    const receiver = await listenLoopback((req, res) => {
      let text = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => (text += chunk));
      req.on("end", () => {
        deliveries.push({ headers: req.headers, body: JSON.parse(text || "null") });
        res.writeHead(200).end();
      });
    });
    const endpoint = `${receiver.url}/hook`;
    try {
      const added = await db.webhook.add({ webhook: endpoint, tableName: contacts, headers: { "X-Peer": "1" }, select: [contacts.Name, contacts.id], filter: fm.eq(contacts.Name, "Ada") });
      const id = added.webhookResult.webhookID;
      expect(id).toEqual(expect.any(Number));
      expect((await db.webhook.list()).webhooks.map((w: Any) => w.webhookID)).toContain(id);
      expect(await db.webhook.get(id)).toMatchObject({ webhookID: id, tableName: "Contacts", webhook: endpoint, headers: { "X-Peer": "1" } });
      await db.webhook.invoke(id, { rowIDs: [1] });
      for (let i = 0; i < 40 && deliveries.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(deliveries[0]!.headers["x-peer"]).toBe("1");
      expect(deliveries[0]!.body.value).toEqual([expect.objectContaining({ Name: "Ada", id: "A1" })]);
      await db.webhook.remove(id);
      await expect(db.webhook.get(id)).rejects.toMatchObject({ code: "-1061" });
    } finally {
      await receiver.close();
    }
  });

  // 8: an OttoFMS API key (Bearer, under /otto).
  it("signs in with an API key through the /otto prefix", async () => {
    const keyed = await startPeerOffice({ apiKeys: [{ key: "dk_peer", pathPrefix: "/otto" }] });
    try {
      const otto = new fm.FMServerConnection({ serverUrl: keyed.url, auth: { apiKey: "dk_peer" }, fetchClientOptions: { fetchHandler: loopbackFetch(keyed.url) } });
      expect(await data(otto.database(DB).from(contacts).count())).toBe(3);
    } finally {
      await keyed.close();
    }
  });
});
