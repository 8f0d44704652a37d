import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { headerValue } from "../../../src/emulator/odata/batch-parse.js";
import { batch, changeset, expectPartError, json, partJson, postBatch, S, single } from "./batch-support.js";
import { auth, DB, expectODataError, get, startOffice } from "./serve-support.js";

// `$batch` served over loopback HTTP (docs/emulator.md, "`$batch`"): every part answered
// by the dispatch a top-level request goes through, changesets atomic, stop at the first failure unless
// `Prefer: odata.continue-on-error`, and the envelope errors.

let emu: RunningEmulator;
let R: string;

beforeAll(async () => {
  emu = await startOffice(4);
  R = `${emu.url}/fmi/odata/v4`;
});
afterAll(() => emu.close());

const count = async (set: string): Promise<number> => Number((await get(emu.url, `${S}/${set}/$count`)).text);

describe("a served $batch (section 4)", () => {
  it("answers the contract's example shape: a GET as a top-level GET answers it, a changeset POST as 204 + Location by ROWID", async () => {
    const before = await count("Notes");
    const a = await batch(emu.url, [
      { kind: "request", method: "GET", url: `${S}/Contacts?$top=2`, headers: [["OData-Version", "4.0"]] },
      { kind: "changeset", requests: [{ method: "POST", url: `${S}/Notes`, contentId: "1", ...json({ Text: "Batch1", N: 100 }) }] },
    ]);
    expect(a.status).toBe(200);
    expect(a.headers.get("content-type")).toMatch(/^multipart\/mixed; boundary=batchresponse_[0-9a-f-]+$/);
    expect(a.headers.get("odata-version")).toBe("4.0");
    expect(a.text).toContain("HTTP/1.1 200 Ok\r\n");
    const [read, cs] = a.items!;
    const top = await get(emu.url, `${S}/Contacts?$top=2`, { "OData-Version": "4.0" });
    expect(single(read).status).toBe(200);
    expect(headerValue(single(read).headers, "Content-Type")).toBe("application/json;charset=utf-8");
    expect(partJson(single(read))).toEqual(top.body);
    const [created] = changeset(cs);
    expect(created!.status).toBe(204);
    expect(created!.contentId).toBe("1");
    const location = headerValue(created!.headers, "Location")!;
    expect(location).toMatch(new RegExp(`^${R}/${DB}/Notes\\(ROWID=\\d+\\)$`));
    expect(await count("Notes")).toBe(before + 1);
    expect((await get("", location)).body).toMatchObject({ Text: "Batch1", N: 100 });
  });

  it("ignores return=representation in a batch (a POST answers 204 + Location; a PATCH 204); the outer .fmp12 name is canonical", async () => {
    const a = await batch(
      emu.url,
      [
        {
          kind: "changeset",
          requests: [
            { method: "POST", url: `${S}/Contacts`, ...json({ Name: "Rep" }), headers: [["Content-Type", "application/json"], ["Prefer", "return=representation"]] },
            { method: "PATCH", url: `${S}/Contacts('B2')`, ...json({ Age: 42 }), headers: [["Content-Type", "application/json"], ["Prefer", "return=representation"]] },
          ],
        },
      ],
    );
    const [post, patch] = changeset(a.items![0]);
    expect([post!.status, patch!.status]).toEqual([204, 204]);
    expect(post!.body.byteLength).toBe(0);
    expect(headerValue(post!.headers, "Location")).toMatch(/\/Contacts\(ROWID=\d+\)$/);
    expect(headerValue(patch!.headers, "fmodata.affected_rows")).toBe("1");
    const written = (await import("../../../src/emulator/odata/batch-write.js")).writeBatchRequest([{ kind: "request", method: "GET", url: `${S}/Contacts('B2')?$select=Age` }]);
    const viaFile = await postBatch(emu.url, written.body, written.contentType, {}, `${S}.fmp12/$batch`);
    expect(partJson(single(viaFile.items![0]))).toMatchObject({ Age: 42 });
  });

  it("a relative part URL resolves against the batch database; an absolute URL's host is not looked at", async () => {
    const a = await batch(emu.url, [
      { kind: "request", method: "GET", url: "Contacts('A1')?$select=Name" },
      { kind: "request", method: "GET", url: `https://elsewhere.example${S}/Contacts('C3')?$select=Name` },
    ]);
    expect(a.items!.map((i) => partJson(single(i)).Name)).toEqual(["Ada", "Cy O'Brien"]);
  });
});

describe("stopping at the first failure (section 4)", () => {
  const three = [
    { kind: "request", method: "GET", url: `${S}/Contacts('A1')?$select=Name` },
    { kind: "request", method: "GET", url: `${S}/Purchase_Orders` },
    { kind: "request", method: "GET", url: `${S}/Contacts('C3')?$select=Name` },
  ] as const;

  it("later parts are absent after a failing one", async () => {
    const a = await batch(emu.url, three);
    expect(a.status).toBe(200);
    expect(a.items).toHaveLength(2);
    expect(single(a.items![0]).status).toBe(200);
    expect(expectPartError(single(a.items![1]), 404, "-1020")).toBe("Table 'Purchase_Orders' not defined in database");
    expect(a.text).toContain("HTTP/1.1 404 Not Found\r\n");
  });

  it("Prefer: odata.continue-on-error answers every part", async () => {
    const a = await batch(emu.url, three, { Prefer: "odata.continue-on-error" });
    expect(a.items!.map((i) => single(i).status)).toEqual([200, 404, 200]);
    expect(a.headers.get("preference-applied")).toBe("odata.continue-on-error");
    expect((await batch(emu.url, three)).headers.get("preference-applied")).toBeNull();
  });

  it("a failing changeset answers one error part, and stops the batch unless continue-on-error", async () => {
    const entries = [
      { kind: "changeset", requests: [{ method: "POST", url: `${S}/Notes`, ...json({ Text: "never" }) }, { method: "PATCH", url: `${S}/Notes(ROWID=999999)`, contentId: "7", ...json({ Text: "x" }) }] },
      { kind: "request", method: "GET", url: `${S}/Contacts('A1')?$select=Name` },
    ] as const;
    const before = await count("Notes");
    const stopped = await batch(emu.url, entries);
    expect(stopped.items).toHaveLength(1);
    const failed = single(stopped.items![0]);
    expectPartError(failed, 404, "-1023");
    expect(failed.contentId).toBe("7");
    const going = await batch(emu.url, entries, { Prefer: "odata.continue-on-error" });
    expect(going.items).toHaveLength(2);
    expect(single(going.items![1]).status).toBe(200);
    expect(await count("Notes")).toBe(before);
  });
});

describe("an atomic changeset (section 4)", () => {
  it("rolls back every write of a failing changeset: records, modIds, unique index and record ids", async () => {
    const a1 = (await get(emu.url, `${S}/Contacts('A1')?$select=Name,ROWID,ROWMODID`)).body;
    const lastRowid = (await get(emu.url, `${S}/Contacts?$orderby=ROWID%20desc&$top=1&$select=ROWID`)).body.value[0].ROWID as number;
    const notes = await count("Notes");
    const contacts = await count("Contacts");
    const failed = await batch(emu.url, [
      {
        kind: "changeset",
        requests: [
          { method: "PATCH", url: `${S}/Contacts('A1')`, ...json({ id: "Z9", Name: "Renamed" }) },
          { method: "POST", url: `${S}/Notes`, ...json({ Text: "gone", N: 1 }) },
          { method: "POST", url: `${S}/Contacts`, ...json({ id: "NEW", Name: "gone too" }) },
          { method: "DELETE", url: `${S}/Contacts('C3')` },
          // The unique id "Z9" is now taken by the renamed A1: a unique violation (504) fails the changeset.
          { method: "POST", url: `${S}/Contacts`, ...json({ id: "Z9" }) },
        ],
      },
    ]);
    expectPartError(single(failed.items![0]), 400, "504");
    expect((await get(emu.url, `${S}/Contacts('A1')?$select=Name,ROWID,ROWMODID`)).body).toEqual(a1);
    expect((await get(emu.url, `${S}/Contacts('C3')?$select=Name`)).body.Name).toBe("Cy O'Brien");
    expect(await count("Notes")).toBe(notes);
    expect(await count("Contacts")).toBe(contacts);
    expectODataError(await get(emu.url, `${S}/Contacts('Z9')`), 404, "-1023");
    expectODataError(await get(emu.url, `${S}/Contacts('NEW')`), 404, "-1023");
    // The unique index is back as it was: A1 is taken, Z9 is free.
    const ok = await batch(emu.url, [
      { kind: "changeset", requests: [{ method: "POST", url: `${S}/Contacts`, ...json({ id: "Z9", Name: "now" }) }] },
      { kind: "changeset", requests: [{ method: "POST", url: `${S}/Contacts`, ...json({ id: "A1" }) }] },
    ]);
    expect(changeset(ok.items![0])[0]!.status).toBe(204);
    expectPartError(single(ok.items![1]), 400, "504");
    // Record ids: the rolled-back creates consumed none (the next one follows the last stored).
    const rowidOf = (loc: string | undefined) => Number(/ROWID=(\d+)/.exec(loc ?? "")?.[1]);
    const z9 = rowidOf(headerValue(changeset(ok.items![0])[0]!.headers, "Location"));
    expect(z9).toBe(lastRowid + 1);
    const next = await batch(emu.url, [{ kind: "changeset", requests: [{ method: "POST", url: `${S}/Contacts`, ...json({ Name: "after" }) }] }]);
    expect(rowidOf(headerValue(changeset(next.items![0])[0]!.headers, "Location"))).toBe(z9 + 1);
  });

  it("a successful changeset's writes are all there, in order, each answered with its Content-ID", async () => {
    const a = await batch(emu.url, [
      {
        kind: "changeset",
        requests: [
          { method: "POST", url: `${S}/Notes`, contentId: "1", ...json({ Text: "cs", N: 500 }) },
          { method: "PATCH", url: `${S}/Notes?$filter=N eq 500`.replaceAll(" ", "%20"), contentId: "2", ...json({ Text: "cs2" }) },
          { method: "DELETE", url: `${S}/Notes?$filter=N eq 500`.replaceAll(" ", "%20"), contentId: "3" },
        ],
      },
    ]);
    const parts = changeset(a.items![0]);
    expect(parts.map((p) => [p.contentId, p.status, headerValue(p.headers, "fmodata.affected_rows") ?? null])).toEqual([
      ["1", 204, null],
      ["2", 204, "1"],
      ["3", 204, "1"],
    ]);
    expect((await get(emu.url, `${S}/Notes/$count?$filter=N%20eq%20500`)).text).toBe("0");
  });

  it("a changeset holds record writes only (choice): a part on $metadata fails it", async () => {
    const a = await batch(emu.url, [
      { kind: "changeset", requests: [{ method: "POST", url: `${S}/Notes`, ...json({ Text: "no" }) }, { method: "PATCH", url: `${S}/$metadata`, ...json({}) }] },
    ]);
    expect(expectPartError(single(a.items![0]), 400, "-1002")).toMatch(/changeset holds record writes only/);
  });
});

describe("parts that are refused one by one", () => {
  it("a $batch inside a $batch, and a part URL past the URL limit, answer error parts", async () => {
    const a = await batch(
      emu.url,
      [
        { kind: "request", method: "POST", url: `${S}/$batch`, headers: [["Content-Type", "multipart/mixed; boundary=b"]], body: "--b--" },
        { kind: "request", method: "GET", url: `${S}/Contacts?$filter=Name%20eq%20'${"x".repeat(9000)}'` },
      ],
      { Prefer: "odata.continue-on-error" },
    );
    expect(expectPartError(single(a.items![0]), 400, "-1002")).toMatch(/cannot be a part of another \$batch/);
    expectPartError(single(a.items![1]), 414, "-1002");
  });
});

describe("envelope errors (section 4, 9)", () => {
  const ok = "--b\r\nContent-Type: application/http\r\n\r\nGET /fmi/odata/v4/Office/Contacts HTTP/1.1\r\n\r\n\r\n--b--";

  it("not multipart: 400 -1014", async () => {
    const a = await postBatch(emu.url, ok, "application/json");
    expect(expectODataError(a, 400, "-1014").message).toBe("Batch operation requires multipart content type");
    expectODataError(await postBatch(emu.url, ok, undefined), 400, "-1014");
  });

  it("an empty or malformed body: 400 -1015", async () => {
    expect(expectODataError(await postBatch(emu.url, "", "multipart/mixed; boundary=b"), 400, "-1015").message).toMatch(/^Expected batch boundary at '\.\.\.' batch body near line:1$/);
    expectODataError(await postBatch(emu.url, "hello", "multipart/mixed; boundary=b"), 400, "-1015");
  });

  it("a proxy prefix inside a part: 400 -1000; another database or the .fmp12 name inside: 400 -1032", async () => {
    const part = (url: string) => ok.replace("/fmi/odata/v4/Office/Contacts", url);
    expectODataError(await postBatch(emu.url, part("/otto/fmi/odata/v4/Office/Contacts"), "multipart/mixed; boundary=b"), 400, "-1000");
    const m = expectODataError(await postBatch(emu.url, part("/fmi/odata/v4/Other/Contacts"), "multipart/mixed; boundary=b"), 400, "-1032").message;
    expect(m).toBe("Operation database does not match batch request database");
    expectODataError(await postBatch(emu.url, part("/fmi/odata/v4/Office.fmp12/Contacts"), "multipart/mixed; boundary=b"), 400, "-1032");
  });

  it("a $1 Content-ID reference: 400 -1002, and nothing of the batch applies", async () => {
    const before = await count("Notes");
    const a = await batch(emu.url, [
      { kind: "changeset", requests: [{ method: "POST", url: `${S}/Notes`, contentId: "1", ...json({ Text: "ref" }) }, { method: "PATCH", url: "$1", ...json({ Text: "x" }) }] },
    ]);
    expectODataError(a, 400, "-1002");
    expect(await count("Notes")).toBe(before);
  });

  it("signing in is checked once for the batch (401); GET $batch is 405; an unknown database 404 -1000; query options 400", async () => {
    expectODataError(await postBatch(emu.url, ok, "multipart/mixed; boundary=b", { Authorization: auth("web", "wrong") }), 401, "212");
    // A part's own Authorization is not read: the batch signed in.
    const inner = await batch(emu.url, [{ kind: "request", method: "GET", url: `${S}/Contacts('A1')?$select=Name`, headers: [["Authorization", auth("web", "wrong")]] }]);
    expect(single(inner.items![0]).status).toBe(200);
    const g = await get(emu.url, `${S}/$batch`);
    expectODataError(g, 405, "-1002");
    expectODataError(await postBatch(emu.url, ok, "multipart/mixed; boundary=b", {}, "/fmi/odata/v4/Nope/$batch"), 404, "-1000");
    expectODataError(await postBatch(emu.url, ok, "multipart/mixed; boundary=b", {}, `${S}/$batch?$top=1`), 400, "-1002");
  });
});
