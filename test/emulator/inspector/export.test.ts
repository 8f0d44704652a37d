import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { rawHttp } from "../../support/raw-http.js";
import { DB, PASSWORD, startInspected, USER } from "./support.js";

// GET /fmgen/export (docs/emulator.md, "Snapshots"): the hosted data as a seed file, a download, behind the
// inspector's guards (the Host check, no other site's page, GET only, no CORS header), and never an account.

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startInspected();
});
afterAll(async () => {
  await emu.close();
});

describe("GET /fmgen/export", () => {
  it("answers the hosted data as a JSON seed file to download: exportData()'s document without the accounts", async () => {
    const res = await fetch(`${emu.url}/fmgen/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${DB}.seed.json"`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const text = await res.text();
    const { accounts, ...rest } = emu.exportData();
    expect(accounts?.length).toBeGreaterThan(0);
    expect(JSON.parse(text)).toEqual(rest);
    expect(text).not.toContain("accounts");
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(USER);
    expect(JSON.parse(text).files[DB].tables.Contacts.records[0]).toMatchObject({ recordId: 1, modId: 0, fieldData: { "First Name": "Ada" } });
  });

  it("refuses a Host this emulator does not serve (421), a page of another site (403), and anything but GET (405)", async () => {
    const port = new URL(emu.url).port;
    const foreign = await rawHttp(emu.url, "GET", "/fmgen/export", { Host: `evil.example:${port}` });
    expect(foreign.status).toBe(421);
    expect(foreign.text).not.toMatch(/Lovelace/);
    const origin = await fetch(`${emu.url}/fmgen/export`, { headers: { Origin: "http://evil.example" } });
    expect(origin.status).toBe(403);
    expect(await origin.text()).not.toMatch(/Lovelace/);
    expect(origin.headers.get("access-control-allow-origin")).toBeNull();
    const crossSite = await fetch(`${emu.url}/fmgen/export`, { headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    for (const method of ["POST", "PUT", "DELETE"]) expect((await fetch(`${emu.url}/fmgen/export`, { method })).status, method).toBe(405);
    const own = await fetch(`${emu.url}/fmgen/export`, { headers: { Origin: emu.url, "Sec-Fetch-Site": "same-origin" } });
    expect(own.status).toBe(200);
    expect([...own.headers.keys()].filter((h) => h.startsWith("access-control-"))).toEqual([]);
    await own.arrayBuffer();
  });

  it("is not served with the inspector off: the export stays exportData() and exportOnExit", async () => {
    const off = await startInspected({ inspector: false });
    try {
      expect((await fetch(`${off.url}/fmgen/export`)).status).toBe(404);
      expect(off.exportData().files).toBeDefined();
    } finally {
      await off.close();
    }
  });

  it("is linked from the inspector's page", async () => {
    expect(await (await fetch(`${emu.url}/fmgen/`)).text()).toContain('href="/fmgen/export"');
  });
});
