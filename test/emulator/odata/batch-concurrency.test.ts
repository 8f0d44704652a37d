import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { headerValue, parseBatchResponse } from "../../../src/emulator/odata/batch-parse.js";
import { writeBatchRequest, type BatchRequestEntry } from "../../../src/emulator/odata/batch-write.js";
import { DataApi } from "../../support/data-api-http.js";
import { SplitRequest, untilRequestsSeen } from "../../support/split-request.js";
import { batch, changeset, json, partJson, S, single } from "./batch-support.js";
import { auth, DB, get, PASSWORD, startOffice, USER } from "./serve-support.js";

// Issue 23 item 3: the Data API and OData write one hosted file. Data API edits race OData PATCHes and `$batch`
// changesets on the same records over loopback: no write is lost, a record's modId (Data API) and ROWMODID (OData)
// are one counter, a failed changeset leaves no trace, and a changeset's records are at once the Data API's.

let emu: RunningEmulator;
let api: DataApi;
let token: string;

beforeAll(async () => {
  emu = await startOffice(2);
  api = new DataApi(emu.url);
  token = await api.login(USER, PASSWORD, DB);
});
afterAll(() => emu.close());

const dapiRecord = (rowid: number) => api.call("GET", `/databases/${DB}/layouts/Notes/records/${rowid}`, { token });
const dapiEdit = (rowid: number, fieldData: Record<string, unknown>) => api.call("PATCH", `/databases/${DB}/layouts/Notes/records/${rowid}`, { token, json: { fieldData } });

async function newNotes(n: number, tag: string): Promise<number[]> {
  const a = await batch(emu.url, [{ kind: "changeset", requests: Array.from({ length: n }, (_, i) => ({ method: "POST" as const, url: `${S}/Notes`, ...json({ Text: `${tag} ${i}`, N: 0 }) })) }]);
  return changeset(a.items![0]).map((p) => Number(/ROWID=(\d+)/.exec(headerValue(p.headers, "Location")!)![1]));
}

describe("Data API edits racing OData PATCHes and changesets on the same records", () => {
  it("loses no write, keeps one modification counter, and a failed changeset leaves no trace", async () => {
    const rowids = await newNotes(4, "race");
    const ROUNDS = 8;
    const writes = new Map(rowids.map((r) => [r, 0]));
    const ops: Promise<void>[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const rowid = rowids[i % rowids.length]!;
      // A Data API edit of one record.
      ops.push(
        dapiEdit(rowid, { Text: `dapi ${i}` }).then((r) => {
          expect(r.status, r.text).toBe(200);
          writes.set(rowid, writes.get(rowid)! + 1);
        }),
      );
      // An OData PATCH of the same record, adding to N through a read it does not make: N is set, not summed.
      ops.push(
        fetch(`${emu.url}${S}/Notes(ROWID=${rowid})`, { method: "PATCH", headers: { Authorization: auth(), "Content-Type": "application/json" }, body: JSON.stringify({ N: i }), signal: AbortSignal.timeout(10_000) }).then(async (r) => {
          expect(r.status, await r.text()).toBe(204);
          writes.set(rowid, writes.get(rowid)! + 1);
        }),
      );
      // A changeset writing every record: applies to all of them at once.
      ops.push(
        batch(emu.url, [{ kind: "changeset", requests: rowids.map((r) => ({ method: "PATCH" as const, url: `${S}/Notes(ROWID=${r})`, ...json({ Text: `cs ${i}` }) })) }]).then((a) => {
          expect(changeset(a.items![0]).map((p) => p.status)).toEqual(rowids.map(() => 204));
          for (const r of rowids) writes.set(r, writes.get(r)! + 1);
        }),
      );
      // A changeset writing every record, then failing: none of it may show.
      ops.push(
        batch(emu.url, [
          {
            kind: "changeset",
            requests: [...rowids.map((r) => ({ method: "PATCH" as const, url: `${S}/Notes(ROWID=${r})`, ...json({ Text: "FAILED", N: -1 }) })), { method: "PATCH" as const, url: `${S}/Notes(ROWID=999999)`, ...json({ N: 1 }) }],
          },
        ]).then((a) => {
          expect(single(a.items![0]).status).toBe(404);
        }),
      );
    }
    // Every write answered (how soon is a budget of test/bench/bounds.bench.mjs), then counted below.
    await Promise.all(ops);
    for (const rowid of rowids) {
      const od = (await get(emu.url, `${S}/Notes(ROWID=${rowid})?$select=Text,N,ROWMODID`)).body;
      const da = (await dapiRecord(rowid)).body.response.data[0];
      // Created at modId 0; every successful write one more, none of the failed changesets' writes.
      expect(od.ROWMODID).toBe(writes.get(rowid));
      expect(da.modId).toBe(String(od.ROWMODID));
      expect(od.Text).not.toBe("FAILED");
      expect(od.N).not.toBe(-1);
      expect(da.fieldData.Text).toBe(od.Text);
    }
  });

  it("a reader racing changesets never sees one half applied", async () => {
    const [x, y] = await newNotes(2, "pair");
    await batch(emu.url, [{ kind: "changeset", requests: [x!, y!].map((r) => ({ method: "PATCH" as const, url: `${S}/Notes(ROWID=${r})`, ...json({ Text: "pair start" }) })) }]);
    const ROUNDS = 10;
    const pairPath = `${S}/Notes?$filter=${encodeURIComponent(`ROWID eq ${x} or ROWID eq ${y}`)}&$select=Text,ROWMODID`;
    const reads: Promise<void>[] = [];
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // Both records get the same text in one changeset; the second changeset of a round fails after writing both.
      writes.push(batch(emu.url, [{ kind: "changeset", requests: [x!, y!].map((r) => ({ method: "PATCH" as const, url: `${S}/Notes(ROWID=${r})`, ...json({ Text: `pair ${i}` }) })) }]));
      writes.push(
        batch(emu.url, [{ kind: "changeset", requests: [...[x!, y!].map((r) => ({ method: "PATCH" as const, url: `${S}/Notes(ROWID=${r})`, ...json({ Text: `torn ${i}` }) })), { method: "DELETE" as const, url: `${S}/Notes(ROWID=999999)` }] }]),
      );
      // Read inside a batch too, so that reads wait for their body as the writes do and interleave with them.
      reads.push(
        batch(emu.url, [{ kind: "request", method: "GET", url: pairPath }]).then((r) => {
          const [a, b] = partJson(single(r.items![0])).value as { Text: string; ROWMODID: number }[];
          expect(a!.Text).toBe(b!.Text);
          expect(a!.ROWMODID).toBe(b!.ROWMODID);
          expect(a!.Text).not.toMatch(/^torn/);
        }),
      );
    }
    await Promise.all([...reads, ...writes]);
    const [a, b] = (await get(emu.url, pairPath)).body.value as { Text: string; ROWMODID: number }[];
    expect(a!.Text).toMatch(/^pair \d+$/);
    expect(b!.Text).toBe(a!.Text);
    expect([a!.ROWMODID, b!.ROWMODID]).toEqual([ROUNDS + 1, ROUNDS + 1]);
  });

  it("a changeset whose body is in flight applies, when complete, to the records as the Data API left them", async () => {
    const [rowid] = await newNotes(1, "held");
    const entries: BatchRequestEntry[] = [{ kind: "changeset", requests: [{ method: "PATCH", url: `${S}/Notes(ROWID=${rowid})`, ...json({ N: 77 }) }, { method: "POST", url: `${S}/Notes`, ...json({ Text: "born in flight" }) }] }];
    const written = writeBatchRequest(entries);
    const body = Buffer.from(written.body);
    const seen = emu.stats().requests;
    const held = await SplitRequest.open(emu.url, "POST", `${S}/$batch`, { Authorization: auth(), "Content-Type": written.contentType }, body.byteLength);
    await held.write(body.subarray(0, 40));
    await untilRequestsSeen(() => emu.stats(), seen + 1);
    expect((await dapiEdit(rowid!, { Text: "edited meanwhile" })).status).toBe(200);
    const answer = await held.finish(body.subarray(40));
    expect(answer.status).toBe(200);
    const boundary = answer.text.split("\r\n", 1)[0]!.slice(2);
    const [cs] = parseBatchResponse(Buffer.from(answer.text, "utf8"), `multipart/mixed; boundary=${boundary}`);
    expect(changeset(cs).map((p) => p.status)).toEqual([204, 204]);
    const da = (await dapiRecord(rowid!)).body.response.data[0];
    expect(da.fieldData).toMatchObject({ Text: "edited meanwhile", N: 77 });
    expect(da.modId).toBe("2");
  });

  it("a changeset's records are the Data API's as soon as the batch answers", async () => {
    const a = await batch(emu.url, [
      {
        kind: "changeset",
        requests: [
          { method: "POST", url: `${S}/Notes`, ...json({ Text: "seen at once", N: 5 }) },
          { method: "PATCH", url: `${S}/Contacts('B2')`, ...json({ Name: "Bob via batch" }) },
        ],
      },
    ]);
    const [created, patched] = changeset(a.items![0]);
    expect([created!.status, patched!.status]).toEqual([204, 204]);
    const rowid = Number(/ROWID=(\d+)/.exec(headerValue(created!.headers, "Location")!)![1]);
    const note = (await dapiRecord(rowid)).body.response.data[0];
    expect(note.fieldData).toMatchObject({ Text: "seen at once", N: 5 });
    expect(note.modId).toBe("0");
    const found = await api.call("POST", `/databases/${DB}/layouts/Contacts/_find`, { token, json: { query: [{ Name: "==Bob via batch" }] } });
    expect(found.body.response.data.map((r: any) => r.fieldData.id)).toEqual(["B2"]);
  });
});
