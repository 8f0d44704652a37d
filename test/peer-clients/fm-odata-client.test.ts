import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/emulator/index.js";
import { DB, FMID_TOKEN, loopbackFetch, PASSWORD, PNG, startPeerOffice, uploadPhoto, USER } from "./support/odata-office.js";
import { peerImport, peerVersion } from "./support/serve.mjs";

/**
 * fm-odata-client 3.2.5 (Soliant's OData client; global fetch), installed in test/peer-clients (its own lockfile),
 * driven unchanged against the emulator's OData API (startEmulator in this process, 127.0.0.1 only) with
 * `{ disableSsl: true }`, its own option for a plain-HTTP host. WIRE-ODATA.md tables every call.
 *
 * Calls this client cannot make, or makes so that they cannot work (evidence: the wire contract's sections,
 * docs/emulator.md):
 * | call | reason |
 * |---|---|
 * | `query({ count: true })` | reads `@odata.count`, but sends neither `OData-Version` nor an `odata.metadata=` Accept parameter, so FMS 22 (and the emulator) answer the unprefixed `@count` (2.2): `count` is undefined; the rows come |
 * | `fetchById` (and every call by key) of a string key holding `'` | the quote is not doubled (2.4: `T('O''Brien')`): 400 -1002 |
 * | `query({ select: ["id"] })` | passes names through unquoted; FMS needs `"id"` quoted (2.6): 400 -1002 (`select: ['"id"']` works) |
 * | `update`, `updateMany` | FMS 22 answers a PATCH 204 with no body (3.2, CNT); the client's fetchJson throws "Response included no content" after the write is applied (an FMS 19 expectation) |
 * | `query({ relatedTable: "T" })`, `relatedTable: [...]`, `{ primaryKey, table: [...] }` | sends `GET /db/T/Nav` or `T(k)/Nav/Nav2`: navigation from a collection is not OData (only `T(k)/Nav`, 1.1); the emulator answers 400 -1002 |
 * | `crossJoin` with a `select` of two tables | sends two `$expand`s, a syntax error on FMS 22 (2.9, PKX); a filter across tables also fails there |
 * | `batch` | its batch connection drops `disableSsl` and always posts to `https://` (the client's bug): driven here through a fetch that sends the emulator's https URLs as http |
 * | `batch` with a write | writes go in a changeset, whose parts FMS answers 204 (section 4; PKS: return=minimal in changesets); the client builds `new Response(body, { status: 204 })` with a string body, which fetch refuses ("Invalid response status code 204"): the batch rejects after the write is applied. A batch of reads works |
 * | Claris ID (`fm-odata-client/claris-id`) | signs in at Amazon Cognito (no traffic leaves loopback here); the FMID header it produces is driven through the client's `Authentication` interface |
 */

const version = peerVersion("fm-odata-client");
const hex = (b: Buffer) => b.toString("hex");

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
let emu: RunningEmulator;
let mod: Any;
let connection: Any;
let db: Any;
let contacts: Any;
let notes: Any;

beforeAll(async () => {
  emu = await startPeerOffice();
  mod = await peerImport("fm-odata-client/dist/index.js");
  connection = new mod.Connection(new URL(emu.url).host, new mod.BasicAuth(USER, PASSWORD), { disableSsl: true });
  db = connection.database(DB);
  contacts = db.table("Contacts");
  notes = db.table("Notes");
});
afterAll(() => emu?.close());

describe(`fm-odata-client ${version} against the emulator's OData API`, () => {
  // 1.2 (root and service documents), 1.6 (JSON CSDL).
  it("lists the databases and the tables, and reads the JSON metadata of the database", async () => {
    expect(await connection.listDatabases()).toEqual([{ name: DB, kind: "EntityContainer", url: `${emu.url}/fmi/odata/v4/${DB}` }]);
    expect((await db.listTables()).map((t: Any) => t.name)).toEqual(["Contacts", "Notes"]);
    const metadata = await db.getMetadata();
    expect(metadata.Contacts_).toMatchObject({ $Kind: "EntityType", $Key: ["id"], Name: { $Type: "Edm.String" }, Age: { $Type: "Edm.Decimal" } });
    expect(metadata.Contacts).toMatchObject({ $Kind: "EntitySet", $Type: `${DB}.Contacts_` });
  });

  // 2.3 (`/$count`, text/plain; the client parses it as JSON).
  it("counts every record and those a filter matches", async () => {
    expect(await contacts.count()).toBe(3);
    expect(await contacts.count("Age gt 10")).toBe(2);
    expect(await notes.count("ContactId eq 'A1'")).toBe(2);
  });

  // 2.4 (keys: string, ROWID of a keyless table; a missing record is 404 -1023).
  it("fetches a record by its key, null for a missing key, and a keyless record by ROWID", async () => {
    const ada = await contacts.fetchById("A1");
    expect(ada).toMatchObject({ id: "A1", Name: "Ada", Age: 36, Born: "1815-12-10", Alarm: "07:30:00", Seen: "2026-11-27T09:15:00Z", Label: "Ada (36)" });
    expect(ada["@id"]).toBe(`${emu.url}/fmi/odata/v4/${DB}/Contacts('A1')`);
    expect("Photo" in ada).toBe(false);
    expect(await contacts.fetchById("Z9")).toBeNull();
    // The client puts a string key between quotes without doubling a quote inside (2.4: `T('O''Brien')`).
    await expect(contacts.fetchById("O'Brien")).rejects.toMatchObject({ errorCode: "-1002", statusCode: 400 });
    expect(await notes.fetchById(2)).toMatchObject({ ContactId: "B2", Text: "note 2", N: 2 });
  });

  // 2.3 (one field's value), 3.3 (a container's bytes from `/$value`).
  it("fetches a field's value, and a container's bytes and type (fetchFieldBlob and the deprecated fetchField)", async () => {
    expect(await contacts.fetchFieldValue("C3", "Name")).toBe("Cy O'Brien");
    expect(await contacts.fetchFieldValue("B2", "Born")).toBeNull();
    await uploadPhoto(emu, "1");
    for (const blob of [await contacts.fetchFieldBlob("A1", "Photo"), await contacts.fetchField("A1", "Photo")]) {
      expect(blob.type).toBe("image/png");
      expect(hex(blob.buffer)).toBe(hex(PNG));
    }
  });

  // 2.5-2.7 ($filter, $orderby in each of the client's forms, $top, $skip, $select; the client writes `$`, `,`, `/` and `=` literally and spaces as %20: 2.8).
  it("queries with a filter, each orderBy form, top, skip and select, and fetches one record", async () => {
    const rows = await contacts.query({ filter: "Age gt 1 and Name ne 'x y'", orderBy: [{ field: "Age", direction: "desc" }, "Name"], top: 2, skip: 1, select: ["Name", "Age"] });
    expect(rows.map((r: Any) => [r.Name, r.Age])).toEqual([
      ["Ada", 36],
      ["Cy O'Brien", 7.5],
    ]);
    expect(Object.keys(rows[0])).toEqual(["@id", "@editLink", "Name", "Age"]);
    expect((await contacts.query({ orderBy: "Name desc", select: ["Name"] })).map((r: Any) => r.Name)).toEqual(["Cy O'Brien", "bob", "Ada"]);
    expect((await contacts.query({ orderBy: { field: "Age" }, select: ["Age"] })).map((r: Any) => r.Age)).toEqual([7.5, 36, 41]);
    expect((await contacts.query({ filter: "startswith(Name, 'C') or contains(tolower(Name), 'bo')", select: ['"id"'] })).map((r: Any) => r.id)).toEqual(["B2", "C3"]);
    // An unquoted `id` is a parse failure on FMS (2.6): the client passes names through as given.
    await expect(contacts.query({ select: ["id"] })).rejects.toMatchObject({ errorCode: "-1002", statusCode: 400 });
    expect(await contacts.fetchOne({ filter: "Name eq 'bob'", select: ["Name"] })).toMatchObject({ Name: "bob" });
    expect(await contacts.fetchOne({ filter: "Name eq 'nobody'" })).toBeNull();
  });

  // 2.2 (the annotation prefix): the client reads `@odata.count`, the server answers `@count` to its requests.
  it("queries with count: true: the rows come, the count is undefined (the client reads @odata.count)", async () => {
    const result = await contacts.query({ count: true, top: 1, select: ["Name"] });
    expect(result.rows).toHaveLength(1);
    expect(result.count).toBeUndefined();
  });

  // 1.1 (navigation from one record), 2.3 (`@id` uses the target set).
  it("queries the related records of one record (T(k)/Nav), and cannot navigate from a whole table", async () => {
    const related = await contacts.query({ relatedTable: { primaryKey: "A1", table: "Notes" }, orderBy: "N desc" });
    expect(related.map((r: Any) => r.Text)).toEqual(["note 3", "note 1"]);
    expect(related[0]["@id"]).toBe(`${emu.url}/fmi/odata/v4/${DB}/Notes(3)`);
    await expect(contacts.query({ relatedTable: "Notes" })).rejects.toMatchObject({ errorCode: "-1002", statusCode: 400 });
    // Deeper relations: `T('A1')/Notes/Contacts` navigates from a collection again.
    await expect(contacts.query({ relatedTable: { primaryKey: "A1", table: ["Notes", "Contacts"] } })).rejects.toMatchObject({ errorCode: "-1002", statusCode: 400 });
  });

  // 3.1 (201 and the entity; a repetition written as `Name[2]`).
  it("creates a record and gets it back with its auto-entered key and calculation", async () => {
    const created = await contacts.create({ Name: "Peer", Age: 3, Tags: { repetition: 2, value: "second" } });
    expect(created).toMatchObject({ id: expect.stringMatching(/^[0-9A-F-]{36}$/), Name: "Peer", Age: 3, Tags: [null, "second"], Label: "Peer (3)" });
    expect(await contacts.fetchById(created.id)).toMatchObject({ Name: "Peer" });
    await contacts.delete(created.id);
  });

  // 3.2 (PATCH by key and by $filter: 204, no body).
  it("updates by key and by filter: the writes apply, then the client throws on the 204 without a body", async () => {
    const created = await contacts.create({ Name: "Patch", Age: 1 });
    await expect(contacts.update(created.id, { Age: 2 })).rejects.toThrow("Response included no content");
    expect(await contacts.fetchFieldValue(created.id, "Age")).toBe(2);
    await expect(contacts.updateMany("Name eq 'Patch'", { Age: 5 })).rejects.toThrow("Response included no content");
    expect(await contacts.fetchFieldValue(created.id, "Age")).toBe(5);
    await contacts.delete(created.id);
  });

  // 3.2 (DELETE by key, by ROWID on a keyless table, by $filter).
  it("deletes by key, by ROWID and by filter", async () => {
    const a = await contacts.create({ Name: "Gone", Age: 1 });
    const b = await contacts.create({ Name: "Gone", Age: 2 });
    await contacts.delete(a.id);
    expect(await contacts.fetchById(a.id)).toBeNull();
    await contacts.deleteMany("Name eq 'Gone'");
    expect(await contacts.fetchById(b.id)).toBeNull();
    const note = await notes.create({ ContactId: "C3", Text: "temporary" });
    expect(note).toMatchObject({ Text: "temporary" });
    const rowid = Number(/Notes\((\d+)\)$/.exec(note["@id"])![1]);
    await notes.delete(rowid);
    expect(await notes.fetchById(rowid)).toBeNull();
    expect(await contacts.count()).toBe(3);
  });

  // 1.7 / 2.8: the client's laxParsing (a workaround for raw control characters some servers emit) reads valid JSON too.
  it("reads with laxParsing", async () => {
    const lax = new mod.Connection(new URL(emu.url).host, new mod.BasicAuth(USER, PASSWORD), { disableSsl: true, laxParsing: true });
    expect((await lax.database(DB).table("Contacts").fetchById("B2")).Name).toBe("bob");
  });

  // 8, 9: the errors come back as FetchError(message, errorCode, statusCode).
  it("rejects with the server's code: an unknown table (404 -1020), an unknown field (400 8309), a wrong password (401 212)", async () => {
    await expect(db.table("Nope").query()).rejects.toMatchObject({ errorCode: "-1020", statusCode: 404, message: "Table 'Nope' not defined in database" });
    await expect(contacts.query({ select: ["Nope"] })).rejects.toMatchObject({ errorCode: "8309", statusCode: 400 });
    const wrong = new mod.Connection(new URL(emu.url).host, new mod.BasicAuth(USER, "wrong"), { disableSsl: true });
    await expect(wrong.listDatabases()).rejects.toMatchObject({ errorCode: "212", statusCode: 401, message: "(212): Invalid account/password" });
  });

  // 3.3: containers written through OData.
  it("uploads a file into a container (PATCH T(k)/Photo, the sniffed type)", async () => {
    const created = await contacts.create({ Name: "Upload" });
    try {
      await contacts.uploadBinary(created.id, "Photo", PNG);
      const blob = await contacts.fetchFieldBlob(created.id, "Photo");
      expect(blob.type).toBe("image/png");
      expect(hex(blob.buffer)).toBe(hex(PNG));
    } finally {
      await contacts.delete(created.id);
    }
  });

  it("writes a container sent as base64 in a JSON body (a Buffer value)", async () => {
    const created = await contacts.create({ Name: "Base64" });
    try {
      // 3.3: a JSON body with a base64 container answers 204 (CNT); the client's update throws on any 204 (see above).
      await expect(contacts.update(created.id, { Photo: PNG })).rejects.toThrow("Response included no content");
      const blob = await contacts.fetchFieldBlob(created.id, "Photo");
      expect(blob.type).toBe("image/png");
      expect(hex(blob.buffer)).toBe(hex(PNG));
    } finally {
      await contacts.delete(created.id);
    }
  });

  // 5: scripts.
  it("runs a script with a parameter and gets its result", async () => {
    expect(await db.runScript("Echo", "hello")).toEqual({ code: 0, resultParameter: "hello" });
    expect(await db.runScript("Echo", 42)).toEqual({ code: 0, resultParameter: "42" });
  });

  // 6: schema changes (FileMaker_Tables, FileMaker_Indexes).
  it("creates a table, adds a field, creates and deletes an index, deletes the field and the table", async () => {
    const schema = db.schemaManager();
    const created = await schema.createTable("PeerTable", [
      { name: "Code", type: "numeric", primary: true },
      { name: "Title", type: "string", maxLength: 40, nullable: false },
    ]);
    expect(created.tableName).toBe("PeerTable");
    expect(created.fields.map((f: Any) => f.name)).toEqual(["Code", "Title"]);
    const added = await schema.addFields("PeerTable", [{ name: "Notes", type: "string" }]);
    expect(added.fields.map((f: Any) => f.name)).toContain("Notes");
    expect(await schema.createIndex("PeerTable", "Title")).toEqual({ indexName: "Title" });
    await schema.deleteIndex("PeerTable", "Title");
    await schema.deleteField("PeerTable", "Notes");
    expect((await db.listTables()).map((t: Any) => t.name)).toContain("PeerTable");
    await schema.deleteTable("PeerTable");
    expect((await db.listTables()).map((t: Any) => t.name)).not.toContain("PeerTable");
  });

  // 2.9: $crossjoin.
  it("cross-joins two tables, with one table's fields expanded", async () => {
    const rows = await contacts.crossJoin("Notes", { top: 3 });
    expect(rows).toHaveLength(3);
    const expanded = await contacts.crossJoin("Notes", { top: 2, select: { Notes: ["Text"] } });
    expect(expanded).toHaveLength(2);
    expect(expanded[0]).toHaveProperty("Text");
  });

  // 4: $batch (reads outside a changeset; writes in one). A write in a changeset answers 204 on FMS (PKS: "FileMaker
  // uses return=minimal for changeset operations regardless of Prefer header"; section 4's choice: 204 + Location),
  // and the client builds `new Response(body, { status: 204 })` with a string body, which fetch's Response refuses:
  // a batch holding a write rejects after the server has applied it. A batch of reads works.
  it("runs reads in one batch; a batch with a write rejects on the write's 204 after the write is applied (the client's)", async () => {
    const realFetch = globalThis.fetch;
    globalThis.fetch = loopbackFetch(emu.url);
    try {
      const [ada, count] = await db.batch((batch: Any) => {
        const t = batch.table("Contacts");
        return [t.fetchById("A1"), t.count()];
      });
      expect(ada).toMatchObject({ Name: "Ada" });
      expect(count).toBe(3);
      const withWrite = db.batch((batch: Any) => {
        const t = batch.table("Contacts");
        t.create({ Name: "Batched", Age: 9 });
        return [t.fetchById("A1"), t.count()];
      });
      await expect(withWrite).rejects.toThrow("Invalid response status code 204");
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(await contacts.count("Name eq 'Batched'")).toBe(1);
    await contacts.deleteMany("Name eq 'Batched'");
  });

  // 8: FileMaker Cloud's FMID sign-in, through the client's Authentication interface (what its ClarisId produces).
  it("signs in with an FMID token", async () => {
    const cloud = new mod.Connection(new URL(emu.url).host, { getAuthorizationHeader: async () => `FMID ${FMID_TOKEN}` }, { disableSsl: true });
    expect((await cloud.database(DB).table("Contacts").fetchById("A1")).Name).toBe("Ada");
  });
});
