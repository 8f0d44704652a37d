import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createState, type RunningEmulator } from "../../../src/emulator/index.js";
import { emitChange } from "../../../src/emulator/hosted-file/change-feed.js";
import { entitySets } from "../../../src/emulator/odata/entity-sets.js";
import { parseWebhookAdd } from "../../../src/emulator/odata/webhook-add.js";
import { WebhookRegistry } from "../../../src/emulator/odata/webhook-registry.js";
import { DataApi } from "../../support/data-api-http.js";
import { auth, DB, LAYOUTS, PASSWORD, startOffice, USER } from "./serve-support.js";
import { Receiver, sleep, until } from "./webhook-receiver.js";

// SCHEMA deliveries (the schema paths emit them: change-feed.ts) and writes made by a script, over loopback HTTP.

let receiver: Receiver;
beforeAll(async () => {
  receiver = await Receiver.start();
});
afterAll(() => receiver.close());

describe("schema changes (section 7)", () => {
  it("reach the webhooks of that table that asked for them, as its FileMaker_Tables row; ModCount counts them", async () => {
    const state = await createState({ layouts: LAYOUTS, data: { records: { Contacts: [{ id: "A" }] } } });
    const db = state.databases.get(DB)!;
    const registry = new WebhookRegistry({ ...state, log: () => {} });
    try {
      const spec = (notifySchemaChanges: boolean) => parseWebhookAdd(Buffer.from(JSON.stringify({ webhook: `${receiver.url}/${notifySchemaChanges}`, tableName: "Contacts", notifySchemaChanges })), registry.targets);
      registry.add(DB, spec(true));
      registry.add(DB, spec(false));
      emitChange(db, { operation: "SCHEMA", table: "Notes", rowIDs: [] });
      emitChange(db, { operation: "SCHEMA", table: "Contacts", rowIDs: [] });
      const [got] = await receiver.wait(1);
      await sleep(50);
      expect(receiver.got).toHaveLength(1);
      expect(got!.path).toBe("/true");
      const link = `fmi/odata/v4/${DB}/FileMaker_Tables(1)`;
      expect(got!.body).toEqual({
        "@odata.context": `fmi/odata/v4/${DB}/$metadata#FileMaker_Tables("TableName","TableId","BaseTableName","ModCount")`,
        value: [{ "@odata.editLink": link, "@odata.id": link, BaseTableName: "Contacts", ModCount: 1, TableId: entitySets(db)[0]!.id, TableName: "Contacts" }],
      });
      emitChange(db, { operation: "SCHEMA", table: "Contacts", rowIDs: [] });
      const [, second] = await receiver.wait(2);
      expect(second!.body.value[0].ModCount).toBe(2);
    } finally {
      registry.close();
      receiver.got.length = 0;
    }
  });
});

describe("bounds", () => {
  it("a file holds at most 1000 webhooks; deleting one makes room, and ids still never repeat", async () => {
    const state = await createState({ layouts: LAYOUTS });
    const registry = new WebhookRegistry({ ...state, log: () => {} });
    const spec = parseWebhookAdd(Buffer.from(JSON.stringify({ webhook: "http://127.0.0.1:9/", tableName: "Notes" })), registry.targets);
    for (let i = 1; i <= 1000; i++) expect(registry.add(DB, spec)).toBe(i);
    expect(() => registry.add(DB, spec)).toThrow(/the file holds 1000 webhooks/);
    registry.delete(DB, 7);
    expect(registry.add(DB, spec)).toBe(1001);
    expect(registry.list(DB)).toHaveLength(1000);
    registry.close();
  });
});

describe("waiting operations", () => {
  it("are merged per write and bounded: past 1000 the oldest not being sent is dropped, and logged", async () => {
    const failing = await Receiver.start([500]);
    const state = await createState({ layouts: LAYOUTS, data: { records: { Notes: [{ Text: "a" }, { Text: "b" }] } } });
    const db = state.databases.get(DB)!;
    const logs: string[] = [];
    const registry = new WebhookRegistry({ ...state, log: (l) => logs.push(l) }, { retryDelayMs: 60_000 });
    try {
      const id = registry.add(DB, parseWebhookAdd(Buffer.from(JSON.stringify({ webhook: failing.url, tableName: "Notes", notifySchemaChanges: true })), registry.targets));
      // One write's changes of one kind: one operation.
      emitChange(db, { operation: "UPDATE", table: "Notes", rowIDs: [1] });
      emitChange(db, { operation: "UPDATE", table: "Notes", rowIDs: [2] });
      emitChange(db, { operation: "UPDATE", table: "Notes", rowIDs: [1] });
      await failing.wait(1);
      const pending = () => registry.describe(DB, id).pendingOperations as { operation: string; rowIDs: number[]; sendAttempts: number }[];
      await until(() => pending()[0]?.sendAttempts === 1 && (pending()[0] as any).lastErrorCode === 500);
      expect(pending()).toEqual([{ operation: "UPDATE", rowIDs: [1, 2], status: "NOT_SENT", lastErrorCode: 500, lastErrorMessage: "HTTP 500 Internal Server Error", sendAttempts: 1 }]);
      // Changes of alternating kinds, each its own operation, behind the one waiting for its retry.
      for (let i = 0; i < 1200; i++) {
        emitChange(db, i % 2 === 0 ? { operation: "DELETE", table: "Notes", rowIDs: [1000 + i] } : { operation: "SCHEMA", table: "Notes", rowIDs: [] });
        await Promise.resolve();
      }
      const ops = pending();
      expect(ops).toHaveLength(1000);
      expect(ops[0]!.rowIDs).toEqual([1, 2]);
      // 1 waiting + 1200 queued - 1000 kept: the 201 oldest after the one being retried are gone.
      expect(ops[1]).toMatchObject({ operation: "SCHEMA" });
      expect(ops[2]!.rowIDs).toEqual([1000 + 202]);
      expect(logs.filter((l) => l.includes("dropped the oldest"))).toHaveLength(201);
    } finally {
      registry.close();
      await failing.close();
    }
  });
});

describe("a script's writes", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startOffice(1, {
      scripts: {
        AddNote: (ctx) => {
          ctx.records.create("Notes", { Text: ctx.param, N: 9 });
        },
      },
    });
  });
  afterAll(() => emu.close());

  it("are delivered like the APIs' writes", async () => {
    const add = await fetch(`${emu.url}/fmi/odata/v4/${DB}/Webhook.Add`, {
      method: "POST",
      headers: { Authorization: auth(), "Content-Type": "application/json" },
      body: JSON.stringify({ webhook: receiver.url, tableName: "Notes", select: "Text,N" }),
    });
    expect(add.status).toBe(200);
    const api = new DataApi(emu.url);
    const token = await api.login(USER, PASSWORD, DB);
    const ran = await api.call("GET", `/databases/${DB}/layouts/Notes/script/AddNote?script.param=from%20a%20script`, { token });
    expect(ran.body.response.scriptError).toBe("0");
    const [got] = await receiver.wait(1);
    expect(got!.body.value).toEqual([expect.objectContaining({ Text: "from a script", N: 9 })]);
  });
});
