import { describe, expect, it } from "vitest";
import { inferLayout, liveFromMetadata, readCredentials, PullSettingsError, type PullSettings } from "../../src/pull/index.js";
import type { LayoutMetadata, WireRecord } from "../../src/runtime/metadata.js";

/** Names of members every plain object inherits: a lookup by such a name must not find the inherited member. */
const INHERITED = ["__proto__", "constructor", "toString", "hasOwnProperty"];

describe("fmgen pull reads names like __proto__ and constructor as names, never as inherited members", () => {
  it.each(INHERITED)("a field whose result type is %j is of an unknown type, taken as text", (result) => {
    const metadata: LayoutMetadata = {
      fieldMetaData: [{ name: "Odd", type: "normal", result, global: false, autoEnter: false, maxRepeat: 1, notEmpty: false }],
      portalMetaData: {},
      valueLists: [],
    };
    const live = liveFromMetadata("Db", "L", metadata, "T");
    expect(live.fields[0]!.type).toBe("text");
    expect(live.notes).toEqual([`field "Odd": unknown result type "${result}", taken as text`]);
  });

  it.each(INHERITED)("sampling counts only the rows of a portal named %j that records hold", (portal) => {
    const record = (recordId: string, portalData: string): WireRecord => ({ recordId, modId: "1", fieldData: { id: 1 }, portalData: JSON.parse(portalData) as WireRecord["portalData"] });
    const live = inferLayout("Db", "L", [record("1", `{ ${JSON.stringify(portal)}: [{ "recordId": "7", "modId": "1", "Lines::Note": "" }] }`), record("2", "{}")]);
    expect(live.portals).toEqual([
      { name: portal, fields: [{ name: "Lines::Note", type: "text", repetitions: 1, confidence: "low", reason: "seen only empty in 1 portal row", samples: [] }] },
    ]);
  });

  it("credentials in variables named like Object members are missing until they are set", async () => {
    const settings = { usernameEnv: "constructor", passwordEnv: "toString" } as PullSettings;
    await expect(readCredentials(settings, {})).rejects.toThrowError(PullSettingsError);
    await expect(readCredentials(settings, {})).rejects.toThrowError("set constructor and toString in the environment or in a .env file");
    await expect(readCredentials(settings, Object.fromEntries([["constructor", "ada"], ["toString", "pw"]]))).resolves.toEqual({ username: "ada", password: "pw" });
  });
});
