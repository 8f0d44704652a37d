import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineLayout, FileMakerError, type FileMakerClient, type LayoutClient } from "../../src/runtime/index.js";
import { fileMakerError } from "../../src/runtime/data-api/errors.js";
import { encodeFindRequest } from "../../src/runtime/data-api/find-criteria.js";
import { recordDecoder } from "../../src/runtime/data-api/record-decoder.js";
import { connect, envelope, startFakeServer, startRuntimeEmulator, type Emulator, type FakeServer } from "../support/runtime-emulator.js";
import { PROTO, Weird, WEIRD_DATABASE, WEIRD_TEXT } from "../support/runtime-layouts.js";
import { layoutMetadata } from "../../src/runtime/metadata.js";

// A field or portal may be named `__proto__` (any string is a valid name: docs/reading-and-writing.md, "Value types").
// Every object the runtime keys by such a name must keep it as an own key: `obj["__proto__"] = v` on a plain object
// changes its prototype instead, and the name is silently lost (a find criterion dropped matches too much).

/** Own keys only, so a lost `__proto__` shows. */
const own = (object: object, key: string): unknown => Object.getOwnPropertyDescriptor(object, key)?.value;

describe("a field named __proto__ against the emulator", () => {
  let emu: Emulator;
  let fm: FileMakerClient;
  let weird: LayoutClient<typeof Weird>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    emu = await startRuntimeEmulator();
    fm = connect(emu.url, { database: WEIRD_DATABASE });
    weird = fm.layout(Weird);
    for (const [name, proto] of [["a", "one"], ["b", "two"], ["c", "three"]] as const) {
      ids[name] = (await weird.create({ fieldData: { [WEIRD_TEXT]: name, [PROTO]: proto } })).recordId;
    }
  });
  afterAll(async () => {
    await fm.close();
    await emu.close();
  });

  it("create writes it and get reads it back as an own field", async () => {
    const record = await weird.get(ids.b!);
    expect(own(record.fieldData, PROTO)).toBe("two");
    expect(Object.getPrototypeOf(record.fieldData)).toBe(Object.prototype);
  });

  it("find sends its criterion: only the matching record comes back", async () => {
    const found = await weird.find({ query: [{ [PROTO]: "two" }] });
    expect(found.data.map((r) => r.recordId)).toEqual([ids.b]);
    expect(found.dataInfo.foundCount).toBe(1);
    expect((await weird.findOne({ query: [{ [PROTO]: "three" }] })).recordId).toBe(ids.c);
  });

  it("the query builder keeps it in where, or and omit", async () => {
    const query = weird.query().where({ [PROTO]: "one" }).or({ [PROTO]: "two" }).omit({ [WEIRD_TEXT]: "a" });
    expect(own(query.toFindOptions().query[0]!, PROTO)).toBe("one");
    expect((await query.run()).data.map((r) => r.recordId)).toEqual([ids.b]);
    const omitting = weird.query().where({ [WEIRD_TEXT]: "c" }).or({ [WEIRD_TEXT]: "a" }).omit({ [PROTO]: "one" });
    expect((await omitting.run()).data.map((r) => r.recordId)).toEqual([ids.c]);
  });

  it("edit writes it", async () => {
    await weird.edit(ids.a!, { fieldData: { [PROTO]: "changed" } });
    expect(own((await weird.get(ids.a!)).fieldData, PROTO)).toBe("changed");
    expect((await weird.find({ query: [{ [PROTO]: "changed" }] })).data.map((r) => r.recordId)).toEqual([ids.a]);
  });
});

/** A layout with a field, a portal and a portal field all named with Object's names. */
const Protos = defineLayout({
  layout: "Protos",
  fields: { [PROTO]: { type: "text" as const }, constructor: { type: "number" as const } },
  portals: { [PROTO]: { fields: { "Protos::Name": { type: "text" as const }, [PROTO]: { type: "number" as const } } }, toString: { fields: { "Other::N": { type: "number" as const } } } },
});

describe("a portal named __proto__ (encoded and decoded by the runtime alone)", () => {
  it("a find request keeps a field and a portal field named __proto__", () => {
    const sent = encodeFindRequest(Protos, JSON.parse('{"__proto__": "x", "Protos::Name": "y", "constructor": 2}') as Record<string, unknown>);
    expect(JSON.stringify(sent)).toBe('{"__proto__":"==x","Protos::Name":"==y","constructor":"==2"}');
  });

  it("create and edit send the portal's rows under its own name", async () => {
    const server: FakeServer = await startFakeServer((req) => ({ status: 200, body: envelope(req.method === "POST" ? { recordId: "7", modId: "0" } : { modId: "1" }) }));
    const fm = connect(server.url);
    try {
      const layout = fm.layout(Protos);
      const rows = [{ "Protos::Name": "row", [PROTO]: 3 }];
      await layout.create({ fieldData: { [PROTO]: "v" }, portalData: { [PROTO]: rows } });
      await layout.edit(7, { portalData: { [PROTO]: [{ recordId: "4", ...rows[0] }] } });
      const created = JSON.parse(server.requests[0]!.body.toString("utf8")) as { fieldData: object; portalData: object };
      expect(own(created.fieldData, PROTO)).toBe("v");
      expect(own(created.portalData, PROTO)).toEqual([JSON.parse('{"Protos::Name": "row", "__proto__": 3}')]);
      const edited = JSON.parse(server.requests[1]!.body.toString("utf8")) as { portalData: object };
      expect(own(edited.portalData, PROTO)).toEqual([JSON.parse('{"Protos::Name": "row", "__proto__": 3, "recordId": "4"}')]);
    } finally {
      await fm.close();
      await server.close();
    }
  });

  it("decodes its rows as an own property; a portal the answer leaves out is empty, whatever its name", () => {
    for (const interpret of [false, true]) {
      const decode = recordDecoder(Protos, { validate: true, interpret });
      const rows = '[{"recordId": "9", "modId": "0", "Protos::Name": "r", "__proto__": 2}]';
      const full = decode(JSON.parse(`{"recordId": "1", "modId": "0", "fieldData": {"__proto__": "x", "constructor": 1}, "portalData": {"__proto__": ${rows}, "toString": []}}`));
      expect(own(full.portalData, PROTO)).toEqual([JSON.parse('{"recordId": "9", "modId": "0", "Protos::Name": "r", "__proto__": 2}')]);
      expect(own(own(full.portalData, PROTO) as object[], "0") as object).toSatisfy((row: object) => own(row, PROTO) === 2);
      const bare = decode(JSON.parse('{"recordId": "1", "modId": "0", "fieldData": {"__proto__": "x", "constructor": 1}, "portalData": {}}'));
      expect(own(bare.portalData, PROTO)).toEqual([]);
      expect(own(bare.portalData, "toString")).toEqual([]);
    }
  });
});

describe("names from the server", () => {
  it("layout metadata keeps a portal named __proto__", async () => {
    const metadata = '{"fieldMetaData": [{"name": "a"}], "portalMetaData": {"__proto__": [{"name": "Protos::Name"}], "Invoices": []}}';
    const server = await startFakeServer(() => ({ status: 200, body: `{"response": ${metadata}, "messages": [{"code": "0", "message": "OK"}]}` }));
    const fm = connect(server.url);
    try {
      const { portalMetaData } = await layoutMetadata(fm, "Protos");
      expect(Object.keys(portalMetaData)).toEqual(["__proto__", "Invoices"]);
      expect((own(portalMetaData, PROTO) as { name: string }[]).map((f) => f.name)).toEqual(["Protos::Name"]);
    } finally {
      await fm.close();
      await server.close();
    }
  });

  it.each(["constructor", "__proto__", "toString", "hasOwnProperty"])("an error code %j is a FileMakerError, not an Object member", (code) => {
    const error = fileMakerError(code, "odd", 500, { method: "GET", path: "/x" });
    expect(error).toBeInstanceOf(FileMakerError);
    expect(error.constructor).toBe(FileMakerError);
    expect(error.code).toBe(code);
  });
});
