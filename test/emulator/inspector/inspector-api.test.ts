import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { rawHttp } from "../../support/raw-http.js";
import { call, DB, inspector, LAYOUT, login, RECORDS, startInspected, V } from "./support.js";

// The inspector's page and JSON (docs/inspector.md): the hosted files, records paged and searched, a record with its
// portal rows and container, sessions and faults; GETs only, for the emulator's own origin, no CORS header, the
// Host check as every path has it, container bytes to loopback only.

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startInspected({ faults: { rate: 0, seed: 7 } });
});
afterAll(async () => {
  await emu.close();
});

const L = encodeURIComponent(LAYOUT);

describe("the page", () => {
  it("serves its HTML, script and style from the emulator itself, nothing from elsewhere", async () => {
    const res = await fetch(`${emu.url}/fmgen/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'self'/);
    const html = await res.text();
    expect(html).toContain('src="/fmgen/inspector.js"');
    // No other origin: no http(s) URL, no font, no CDN.
    expect(html).not.toMatch(/https?:\/\//);
    for (const asset of ["inspector.js", "inspector.css"]) {
      const a = await fetch(`${emu.url}/fmgen/${asset}`);
      expect(a.status).toBe(200);
      expect(await a.text()).not.toMatch(/https?:\/\/|@import|url\(/);
    }
    const bare = await fetch(`${emu.url}/fmgen`, { redirect: "manual" });
    expect(bare.status).toBe(308);
    expect(bare.headers.get("location")).toBe("/fmgen/");
  });

  it("keeps the Web Viewer shim at /fmgen/webviewer.js", async () => {
    const shim = await fetch(`${emu.url}/fmgen/webviewer.js?account=web`);
    expect(shim.status).toBe(200);
    expect(shim.headers.get("content-type")).toMatch(/javascript/);
    expect(await shim.text()).toMatch(/FileMaker/);
  });
});

describe("the hosted files and records", () => {
  it("lists the files, their layouts (with portals) and tables (with record counts)", async () => {
    const o = await inspector(emu.url, "overview");
    const file = o.files.find((f: any) => f.name === DB);
    expect(file.layouts.map((l: any) => l.name)).toEqual(expect.arrayContaining([LAYOUT, "Invoices Web"]));
    expect(file.layouts.find((l: any) => l.name === LAYOUT).portals).toEqual([{ name: "Invoices", table: "Invoices" }]);
    expect(file.tables.find((t: any) => t.name === "Invoices").records).toBe(3);
    expect(o.faults).toMatchObject({ options: { rate: 0, seed: 7 }, counts: { drop: 0 } });
  });

  it("shows a number a double does not hold with every digit, as text, and never the runtime's internal marker", async () => {
    const amount = "1234567890123456789012345678901234567890123456789012345678.25";
    const token = await login(emu.url);
    const made = await call(emu.url, "POST", `${V}/databases/${DB}/layouts/${encodeURIComponent("Invoices Web")}/records`, { Authorization: `Bearer ${token}` }, `{"fieldData":{"ContactID":999,"Amount":${amount}}}`);
    expect(made.status).toBe(200);
    const res = await fetch(`${emu.url}/fmgen/api/records?file=${DB}&table=Invoices&limit=200`);
    const text = await res.text();
    expect(text).not.toMatch(/fmgen-number/);
    const shown = (JSON.parse(text) as { records: { recordId: number; fields: Record<string, unknown> }[] }).records.find((r) => String(r.recordId) === made.body.response.recordId);
    expect(shown?.fields.Amount).toBe(amount);
  });

  it("pages records: offset and limit, and how many there are", async () => {
    const page = await inspector(emu.url, `records?file=${DB}&layout=${L}&offset=1&limit=2`);
    expect({ total: page.total, found: page.found, offset: page.offset, limit: page.limit }).toEqual({ total: 4, found: 4, offset: 1, limit: 2 });
    expect(page.records.map((r: any) => r.fields["First Name"])).toEqual(["Grace", "Alan"]);
    const last = await inspector(emu.url, `records?file=${DB}&layout=${L}&offset=3&limit=2`);
    expect(last.records.map((r: any) => r.fields["First Name"])).toEqual(["Katherine"]);
    const capped = await inspector(emu.url, `records?file=${DB}&table=Invoices&limit=100000`);
    expect(capped.limit).toBe(200);
  });

  it("finds records by a text in any field, case-insensitively, and pages what it found", async () => {
    const hopper = await inspector(emu.url, `records?file=${DB}&layout=${L}&q=HOPPER`);
    expect(hopper.found).toBe(1);
    expect(hopper.records[0].fields["Email"]).toBe("grace@example.com");
    // "Active" is in three records' Status (and "Inactive" in the fourth's).
    const active = await inspector(emu.url, `records?file=${DB}&layout=${L}&q=active&limit=2&offset=2`);
    expect({ found: active.found, shown: active.records.length }).toEqual({ found: 4, shown: 2 });
    // A repetition other than the first is searched too.
    const phone = await inspector(emu.url, `records?file=${DB}&layout=${L}&q=555-0199`);
    expect(phone.records.map((r: any) => r.recordId)).toEqual([1]);
    expect((await inspector(emu.url, `records?file=${DB}&layout=${L}&q=nobody-at-all`)).found).toBe(0);
  });

  it("shows a record's fields, its portal rows, and a container as the inspector's own URL serving the bytes", async () => {
    const token = await login(emu.url);
    const form = new FormData();
    const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
    form.append("upload", new Blob([png], { type: "image/png" }), "dot.png");
    expect((await fetch(`${emu.url}${RECORDS}/1/containers/Photo/1`, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form })).status).toBe(200);

    const record = await inspector(emu.url, `record?file=${DB}&layout=${L}&id=1`);
    expect(record.fields["Last Name"]).toBe("Lovelace");
    expect(record.fields.Phone).toEqual(["555-0100", "", "555-0199"]);
    const portal = record.portals.find((p: any) => p.name === "Invoices");
    expect(portal.count).toBe(2);
    expect(portal.rows.map((r: any) => r.fields["Invoices::Amount"])).toEqual([120.5, 80]);
    const photo = record.fields.Photo.container;
    expect(photo).toMatchObject({ filename: "dot.png", contentType: "image/png", size: png.byteLength });
    expect(photo.url).toMatch(/^\/fmgen\/api\/container\?/);
    const bytes = await fetch(`${emu.url}${photo.url}`);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await bytes.arrayBuffer()).equals(png)).toBe(true);
    // A file no field holds, or of another file, is not served.
    expect((await fetch(`${emu.url}/fmgen/api/container?file=${DB}&id=NOPE`)).status).toBe(404);

    expect((await fetch(`${emu.url}/fmgen/api/record?file=${DB}&layout=${L}&id=999`)).status).toBe(404);
    expect((await fetch(`${emu.url}/fmgen/api/records?file=Nope&layout=${L}`)).status).toBe(404);
    expect((await fetch(`${emu.url}/fmgen/api/records?file=${DB}&layout=${L}&offset=-1`)).status).toBe(400);
  });

  it("shows sessions by a short id, never the token", async () => {
    const token = await login(emu.url);
    const o = await inspector(emu.url, "overview");
    expect(o.sessions.length).toBeGreaterThan(0);
    for (const s of o.sessions) {
      expect(s.id).toMatch(/^[0-9a-f]{12}$/);
      expect(token.includes(s.id)).toBe(false);
      expect(s).toMatchObject({ database: DB, account: "inspector-user", expired: false });
      expect(s.created).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    expect(JSON.stringify(o).includes(token)).toBe(false);
    await call(emu.url, "DELETE", `/fmi/data/vLatest/databases/${DB}/sessions/${token}`);
  });
});

describe("who may read it", () => {
  it("refuses a Host this emulator does not serve (421), as every path", async () => {
    const port = new URL(emu.url).port;
    for (const path of ["/fmgen/", "/fmgen/api/log", `/fmgen/api/records?file=${DB}&layout=${L}`]) {
      const res = await rawHttp(emu.url, "GET", path, { Host: `evil.example:${port}` });
      expect(res.status, path).toBe(421);
      expect(res.text).not.toMatch(/Lovelace|inspector-user/);
    }
    expect((await rawHttp(emu.url, "GET", "/fmgen/api/log", { Host: `localhost:${port}` })).status).toBe(200);
  });

  it("sends no CORS header, and refuses a request from a page of another site", async () => {
    const own = await fetch(`${emu.url}/fmgen/api/overview`, { headers: { Origin: "http://evil.example" } });
    expect(own.status).toBe(403);
    expect(own.headers.get("access-control-allow-origin")).toBeNull();
    const crossSite = await fetch(`${emu.url}/fmgen/api/log`, { headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    for (const path of ["/fmgen/", "/fmgen/api/overview", "/fmgen/api/log", `/fmgen/api/records?file=${DB}&layout=${L}`]) {
      const res = await fetch(`${emu.url}${path}`);
      expect(res.status, path).toBe(200);
      expect([...res.headers.keys()].filter((h) => h.startsWith("access-control-")), path).toEqual([]);
      expect(res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    }
    // A preflight gets no permission either.
    const preflight = await fetch(`${emu.url}/fmgen/api/log`, { method: "OPTIONS", headers: { Origin: "http://evil.example", "Access-Control-Request-Method": "GET" } });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    expect(preflight.status).toBeGreaterThanOrEqual(400);
  });

  it("answers GET only: it changes nothing", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const res = await fetch(`${emu.url}/fmgen/api/log`, { method });
      expect(res.status, method).toBe(405);
    }
  });
});
