import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { DB, expectODataError, get, startOffice } from "./serve-support.js";

// docs/emulator.md, "Third-party clients": a hosted file is addressed with or without `.fmp12` (PKM's `$metadata` was
// requested as `WebData.fmp12` and echoes it; proofkit strips the extension by default and adds it for webhooks), and
// the form the URL uses is echoed in `$metadata`'s namespace and in the URLs of data answers
// (database-name-echo.test.ts).

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startOffice(2);
});
afterAll(() => emu.close());

describe("the database name with .fmp12 (1.1)", () => {
  it("reads a collection and the metadata of `DB.fmp12`, echoing that name in the namespace", async () => {
    const rows = await get(emu.url, `/fmi/odata/v4/${DB}.fmp12/Contacts?$select=Name&$top=1`);
    expect(rows.status).toBe(200);
    expect(rows.body.value).toEqual([expect.objectContaining({ Name: "Ada" })]);
    const xml = await get(emu.url, `/fmi/odata/v4/${DB}.FMP12/$metadata`);
    expect(xml.text).toContain(`Namespace="com.filemaker.odata.${DB}.FMP12"`);
    expect(xml.text).toContain(`<EntityContainer Name="${DB}.FMP12">`);
  });

  it("still refuses a name that is not a hosted file, with or without the extension", async () => {
    expectODataError(await get(emu.url, `/fmi/odata/v4/Nope.fmp12/Contacts`), 404, "-1000");
    expectODataError(await get(emu.url, `/fmi/odata/v4/${DB}.fmp12.fmp12/Contacts`), 404, "-1000");
  });
});
