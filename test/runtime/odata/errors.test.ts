import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import {
  CapacityError,
  createODataClient,
  defineTable,
  f,
  FieldMissingError,
  FieldReadOnlyError,
  NetworkError,
  ODataDecodeError,
  ODataError,
  ProtocolError,
  RecordMissingError,
  ResponseTooLargeError,
  TableMissingError,
  ValidationError,
  type ODataClient,
} from "../../../src/runtime/odata/index.js";
import { createODataClient as createFetchClient } from "../../../src/runtime/odata/fetch.js";
import { Audit, Contacts, Invoices, PASSWORD, startOffice, USER } from "./support.js";
import { listenLoopback, type LoopbackServer } from "../../support/loopback-server.js";

// Errors of the OData client: answers typed by FileMaker's code, a body that is not OData JSON (scrubbed of the
// credentials it echoes), the response bound, reads retried after a dropped connection and writes never, capacity
// answers retried, and hostile values refused by name before anything is sent.

let emu: RunningEmulator;
let od: ODataClient<"Office">;
const auth = { username: USER, password: PASSWORD };
const quick = { retries: 3, baseDelayMs: 1, maxDelayMs: 2 };

beforeAll(async () => {
  emu = await startOffice();
  od = createODataClient({ server: emu.url, database: "Office", auth, retry: quick });
});
afterAll(async () => {
  emu.setFaults();
  await od.close();
  await emu.close();
});

const failure = (promise: Promise<unknown>) => promise.then(() => Promise.reject(new Error("expected a failure")), (e: unknown) => e as Error);

describe("error answers", () => {
  it("types them by code, with the status, the server's message and the call (method and path only)", async () => {
    const missing = await failure(od.table(Contacts).get("O'Nobody/x"));
    expect(missing).toBeInstanceOf(RecordMissingError);
    expect(missing).toBeInstanceOf(ODataError);
    expect(missing).toMatchObject({ name: "RecordMissingError", code: "-1023", httpStatus: 404, call: { method: "GET", path: "/Contacts('O''Nobody%2Fx')" } });
    expect(missing.message).toContain("Record not found");

    const field = await failure(od.table(Contacts).list({ filter: f.raw('"Nope" eq 1') }));
    expect(field).toBeInstanceOf(FieldMissingError);
    expect(field).toMatchObject({ code: "8309", httpStatus: 400 });

    const Ghost = defineTable()({ database: "Office", table: "Ghost", fields: { A: { type: "text" } } });
    expect(await failure(od.table(Ghost).count())).toBeInstanceOf(TableMissingError);

    const duplicate = await failure(od.table(Contacts).create({ id: "A1" } as never));
    expect(duplicate).toBeInstanceOf(ValidationError);
    expect(duplicate).toMatchObject({ code: "504", httpStatus: 400 });
    expect(await od.table(Contacts).count()).toBe(3);

    // A field the definition says is writable, read-only on the server: FileMaker's 201.
    const Loose = defineTable()({ database: "Office", table: "Contacts", key: "id", fields: { id: { type: "text" }, Label: { type: "text" } } });
    expect(await failure(od.table(Loose).update("A1", { Label: "x" }))).toBeInstanceOf(FieldReadOnlyError);

    // An expand the server could not do answers 200 with an error in place of the rows: thrown, not read as data.
    const Stale = defineTable()({ database: "Office", table: "Invoices", fields: { Gone: { type: "text" } } });
    const Host = defineTable()({ database: "Office", table: "Contacts", key: "id", fields: { id: { type: "text" } }, relations: { Invoices: { table: "Invoices", many: true, target: () => Stale } } });
    const stale = await failure(od.table(Host).list({ expand: { Invoices: { select: ["Gone"] } } as never }));
    expect(stale).toBeInstanceOf(FieldMissingError);
    expect(stale).toMatchObject({ code: "8309", httpStatus: 200 });
  });

  it("retries capacity answers (812, 956), writes too, then gives up with CapacityError", async () => {
    emu.setFaults({ rates: { capacity812: 1 } });
    const before = emu.stats().faults.capacity812;
    const error = await failure(od.table(Audit).create({ Event: "busy" }));
    expect(error).toBeInstanceOf(CapacityError);
    expect(emu.stats().faults.capacity812 - before).toBe(4);
    emu.setFaults();
    expect(await od.table(Audit).count({ filter: f.eq("Event", "busy") })).toBe(0);
  });
});

describe("faults", () => {
  it("retries a read after a dropped connection, on both entries", async () => {
    for (const entry of ["node", "fetch"] as const) {
      emu.setFaults({ rates: { drop: 1 }, afterRate: 0 });
      let sent = 0;
      let dropped = 0;
      // The first request is dropped; before the second is sent, the faults stop: the retry meets a healthy server.
      const onSend = () => {
        if (++sent === 2) {
          dropped = emu.stats().faults.drop;
          emu.setFaults();
        }
      };
      const client =
        entry === "node"
          ? createODataClient({ server: emu.url, database: "Office", auth, retry: quick, dispatcher: new Agent().compose((dispatch) => (options, handler) => (onSend(), dispatch(options, handler))) })
          : createFetchClient({ server: emu.url, database: "Office", auth, retry: quick, fetch: (input, init) => (onSend(), fetch(input, init)) });
      expect(await client.table(Contacts).count()).toBe(3);
      expect({ entry, sent, dropped }).toEqual({ entry, sent: 2, dropped: 1 });
      await client.close();
    }
  });

  it("never retries a write whose answer was lost: one request, applied once, a NetworkError", async () => {
    emu.setFaults({ rates: { drop: 1 }, afterRate: 1 });
    const before = emu.stats().faults.drop;
    const error = await failure(od.table(Audit).create({ Event: "once" }));
    const played = emu.stats().faults.drop - before;
    emu.setFaults();
    expect(error).toBeInstanceOf(NetworkError);
    expect(played).toBe(1);
    expect(await od.table(Audit).count({ filter: f.eq("Event", "once") })).toBe(1);
  });

  it("an HTML page is a ProtocolError naming the status and the body's start; a read is retried first", async () => {
    emu.setFaults({ rates: { html: 1 }, afterRate: 0 });
    const before = emu.stats().faults.html;
    const error = await failure(od.table(Contacts).list());
    const played = emu.stats().faults.html - before;
    emu.setFaults();
    expect(error).toBeInstanceOf(ProtocolError);
    expect(played).toBe(4);
    expect(error.message).toMatch(/^GET \/Contacts: HTTP 5\d\d answer is not an OData answer; it begins "</);
  });

  it("aborts an answer larger than maxResponseBytes, never retried, on both entries", async () => {
    for (const create of [createODataClient, createFetchClient]) {
      const small = create({ server: emu.url, database: "Office", auth, maxResponseBytes: 300 });
      const error = await failure(small.table(Contacts).list());
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error).toMatchObject({ maxResponseBytes: 300, httpStatus: 200 });
      expect(await small.table(Contacts).count()).toBe(3);
      await small.close();
    }
  });

  it("stops at timeoutMs and at the caller's signal", async () => {
    emu.setFaults({ latencyMs: { min: 300, max: 300 } });
    const slow = createFetchClient({ server: emu.url, database: "Office", auth, timeoutMs: 50, retry: { retries: 0 } });
    expect(await failure(slow.table(Contacts).count())).toMatchObject({ name: "NetworkError", reason: "timeout" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    expect(await failure(od.table(Contacts).count({ signal: controller.signal }))).toMatchObject({ name: "NetworkError", reason: "aborted" });
    emu.setFaults();
  });
});

describe("a server that echoes secrets, or sends what the definition does not say", () => {
  let server: LoopbackServer;
  let url: string;
  beforeAll(async () => {
    server = await listenLoopback((req, res) => {
      if (req.url!.includes("Contacts")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ value: [{ id: "A1", Age: "12 apples" }] }));
        return;
      }
      res.writeHead(502, { "content-type": "text/html" });
      res.end(`<html>Bad gateway for ${req.headers.authorization} (${Buffer.from(req.headers.authorization!.slice(6), "base64").toString()})</html>`);
    });
    url = server.url;
  });
  afterAll(() => server.close());

  it("quotes a page's start with the credentials scrubbed", async () => {
    const client = createFetchClient({ server: url, database: "Office", auth, retry: { retries: 0 } });
    const error = await failure(client.table(Invoices).count());
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toContain("HTTP 502");
    expect(error.message).toContain("[redacted]");
    expect(error.message).not.toContain(PASSWORD);
    expect(error.message).not.toContain(btoa(`${USER}:${PASSWORD}`));
  });

  it("names the table, the field and the value of text in a number field, never NaN", async () => {
    const client = createODataClient({ server: url, database: "Office", auth });
    const error = await failure(client.table(Contacts).list());
    expect(error).toBeInstanceOf(ODataDecodeError);
    expect(error.message).toBe('table "Contacts", field "Age": the server sent "12 apples", which is not a number');
    await client.close();
  });
});

describe("hostile values, refused before anything is sent", () => {
  it("refuses unknown, read-only and container fields and values of the wrong type, naming the table and field", async () => {
    const t = od.table(Contacts);
    await expect(t.create({ Nope: 1 } as never)).rejects.toThrow('table "Contacts": create: table "Contacts" has no field "Nope"');
    await expect(t.create({ Label: "x" } as never)).rejects.toThrow(/field "Label" of table "Contacts" is read-only/);
    await expect(t.update("A1", { Photo: "x" } as never)).rejects.toThrow(/field "Photo" of table "Contacts" is a container field: write it with upload/);
    await expect(t.update("A1", { Name: { $ne: 1 } } as never)).rejects.toThrow(/field "Name" of table "Contacts" is a text field: give it a string or null, not an object/);
    await expect(t.update("A1", { Age: "12" } as never)).rejects.toThrow(/field "Age" .* is a number field/);
    await expect(t.update("A1", { Age: Number.NaN })).rejects.toThrow(/finite number/);
    await expect(t.update("A1", { Born: "12/10/1815" })).rejects.toThrow(/ISO date/);
    await expect(t.update("A1", { Seen: "2025-10-31T11:13:13Z" })).rejects.toThrow(/without a zone/);
    await expect(t.update("A1", { Tags: ["a", "b", "c"] as never })).rejects.toThrow(/repeats 2 times/);
    await expect(t.update("A1", { ["__proto__"]: "x" } as never)).rejects.toThrow(/has no field "__proto__"/);
    await expect(t.get({ rowId: Number.NaN })).rejects.toThrow(/rowId/);
    await expect(t.get(7 as never)).rejects.toThrow(/key "id" of table "Contacts" takes a string/);
    await expect(od.table(Audit).get("x" as never)).rejects.toThrow(/has no key: address its rows by \{ rowId \}/);
    await expect(t.list({ select: ["Nope" as never] })).rejects.toThrow(/has no field "Nope"/);
    await expect(t.list({ top: -1 })).rejects.toThrow(/top must be a whole number/);
    await expect(t.list({ expand: { Ghosts: true } as never })).rejects.toThrow(/has no relation "Ghosts"/);
    await expect(t.deleteWhere(undefined as never)).rejects.toThrow(/needs a filter/);
    const Other = defineTable()({ database: "Elsewhere", table: "Contacts", fields: { id: { type: "text" } } });
    // @ts-expect-error a table of another database does not compile either
    expect(() => od.table(Other)).toThrow(/is of database "Elsewhere", but this client is for "Office"/);
    expect(await t.count()).toBe(3);
    expect((await t.get("A1")).Name).toBe("Ada");
  });
});
