import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createState, type RunningEmulator } from "../../../src/emulator/index.js";
import { onChange, type RecordChange } from "../../../src/emulator/hosted-file/change-feed.js";
import { schemaModCount } from "../../../src/emulator/hosted-file/schema-changes.js";
import { parseQueryOptions } from "../../../src/emulator/odata/query-options.js";
import { fieldDefinition, serveSchemaChange, type SchemaPath } from "../../../src/emulator/odata/schema-api.js";
import { ODataError } from "../../../src/emulator/odata/odata-error.js";
import { DataApi } from "../../support/data-api-http.js";
import { auth, DB, LAYOUTS, PASSWORD, startOffice, USER } from "./serve-support.js";

// Schema changes called with plain values (as a $batch part would call them), the change feed's SCHEMA changes, and
// the container files a deleted field lets go (docs/emulator.md, "Schema changes" and "Webhooks";
// hosted-file/schema-changes.ts).

const none = parseQueryOptions("");
const body = (value: unknown) => Buffer.from(JSON.stringify(value));

describe("schema changes on the hosted file", () => {
  it("tells the change feed one SCHEMA change per successful change, naming the table, and nothing for a refused one", async () => {
    const state = await createState({ layouts: LAYOUTS, data: { records: { Contacts: [{ id: "A1", Name: "Ada" }] } } });
    const db = state.databases.get(DB)!;
    const told: RecordChange[] = [];
    const stop = onChange(db, (c) => told.push(c));
    const call = (method: string, path: SchemaPath, value?: unknown) => serveSchemaChange(db, state.containers, method, path, none, value === undefined ? undefined : body(value));
    expect(call("POST", { kind: "tables", db: DB }, { tableName: "Company", fields: [{ name: "Name", type: "varchar" }] })).toEqual({
      status: 200,
      body: { tableName: "Company", fields: [{ name: "Name", type: "varchar" }] },
    });
    expect(call("PATCH", { kind: "tables", db: DB, table: "Contacts" }, { fields: [{ name: "Email", type: "varchar" }] }).status).toBe(200);
    expect(call("POST", { kind: "indexes", db: DB, table: "Contacts" }, { indexName: "Email" })).toEqual({ status: 200, body: { indexName: "Email" } });
    expect(call("DELETE", { kind: "indexes", db: DB, table: "Contacts", field: "Email" })).toEqual({ status: 204 });
    expect(call("DELETE", { kind: "tables", db: DB, table: "Contacts", field: "Email" })).toEqual({ status: 204 });
    expect(call("DELETE", { kind: "tables", db: DB, table: "Company" })).toEqual({ status: 204 });
    expect(() => call("PATCH", { kind: "tables", db: DB, table: "Contacts" }, { fields: [{ name: "Name", type: "varchar" }] })).toThrow(ODataError);
    expect(() => call("POST", { kind: "tables", db: DB }, { tableName: "Notes", fields: [{ name: "a", type: "int" }] })).toThrow(/already exists/);
    stop();
    expect(told).toEqual(
      ["Company", "Contacts", "Contacts", "Contacts", "Contacts", "Company"].map((table) => ({ operation: "SCHEMA", table, rowIDs: [] })),
    );
    expect(db.tables.has("Company")).toBe(false);
    expect([schemaModCount(db.model, "Contacts"), schemaModCount(db.model, "Company"), schemaModCount(db.model, "Notes")]).toEqual([4, 2, 0]);
    expect(db.model.tables.get("Contacts")!.fields.has("Email")).toBe(false);
  });

  it.each([
    ["field", "Contacts/Photo"],
    ["table", "Contacts"],
  ])("deleting a container %s lets its files go", async (_, target) => {
    let emu: RunningEmulator | undefined;
    try {
      emu = await startOffice(1);
      const api = new DataApi(emu.url);
      const token = await api.login(USER, PASSWORD, DB);
      const bytes = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);
      expect((await api.upload(token, "Contacts", "1", "Photo", 1, { bytes, type: "image/png", filename: "a.png" }, DB)).status).toBe(200);
      expect(emu.stats().containerFiles).toBe(1);
      const res = await fetch(`${emu.url}/fmi/odata/v4/${DB}/FileMaker_Tables/${target}`, { method: "DELETE", headers: { Authorization: auth() }, signal: AbortSignal.timeout(10_000) });
      expect(res.status).toBe(204);
      expect(emu.stats().containerFiles).toBe(0);
    } finally {
      await emu?.close();
    }
  });
});

describe("field definitions", () => {
  it("reads the types, lengths, repetitions and options of section 6", () => {
    expect(fieldDefinition({ name: "a", type: " character  varying (20) [2]" }, "f")).toEqual({ name: "a", type: "text", repetitions: 2, maxLength: 20, primary: false, unique: false, required: false, global: false });
    expect(fieldDefinition({ name: "k", type: "INT", primary: true }, "f")).toMatchObject({ type: "number", primary: true, unique: true, required: true });
    expect(fieldDefinition({ name: "b", type: "Binary Varying", externalSecurePath: "Files/" }, "f")).toMatchObject({ type: "container", externalSecurePath: "Files/" });
    expect(fieldDefinition({ name: "t", type: "time", default: "curtime", nullable: false }, "f")).toMatchObject({ type: "time", autoEnter: "creationTimestamp", required: true });
    expect(fieldDefinition({ name: "c", type: "container", default: null }, "f")).toMatchObject({ type: "container" });
  });

  it("refuses every name with a forbidden character, `::`, edge spaces, or too long, naming the character", () => {
    for (const ch of ["/", "(", ")", "[", "]", "'", '"', "#", "?", "~", "\\", "@", "\u0001"]) {
      expect(() => fieldDefinition({ name: `a${ch}b`, type: "int" }, "f"), JSON.stringify(ch)).toThrow(/cannot name a field/);
    }
    for (const name of [" a", "a ", "", "x".repeat(101), "a::b", "FMFID:1", "ROWID"]) expect(() => fieldDefinition({ name, type: "int" }, "f"), name).toThrow(/cannot name a field/);
    expect(fieldDefinition({ name: "x".repeat(100), type: "int" }, "f").name).toHaveLength(100);
  });

  it("any JSON value either reads as a definition or is refused with 400 -1 (never another error)", () => {
    const json = fc.jsonValue({ maxDepth: 2 });
    const entry = fc.oneof(
      json,
      fc.record(
        {
          name: fc.oneof(fc.string({ maxLength: 8 }), json),
          type: fc.oneof(fc.constantFrom("int", "varchar(3)", "date[2]", "blob", "timestamp", "x", "int(0)", "varchar[0]"), fc.string({ maxLength: 12 }), json),
          primary: fc.oneof(fc.boolean(), json),
          unique: fc.boolean(),
          nullable: fc.boolean(),
          global: fc.boolean(),
          default: fc.oneof(fc.constantFrom("CURRENT_DATE", "CURTIME", "CURRENT_TIMESTAMP", "USER"), json),
          externalSecurePath: fc.oneof(fc.constant("p/"), json),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(entry, (value) => {
        try {
          const def = fieldDefinition(value, "fields[0]");
          expect(def.repetitions).toBeGreaterThanOrEqual(1);
        } catch (error) {
          expect(error).toBeInstanceOf(ODataError);
          expect({ status: (error as ODataError).status, code: (error as ODataError).code }).toEqual({ status: 400, code: "-1" });
        }
      }),
      { numRuns: 200 },
    );
  });
});
