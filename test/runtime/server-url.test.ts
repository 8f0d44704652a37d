import { afterAll, describe, expect, it } from "vitest";
import type { FileMakerClient } from "../../src/runtime/index.js";
import { connect, envelope, startFakeServer, type FakeServer } from "../support/runtime-emulator.js";
import { Contact } from "../support/runtime-layouts.js";

// `server` is the server's URL; one that already ends in the Data API's path (as FileMaker Server's admin console
// shows it) must not get the path twice.

const RECORD = { recordId: "1", modId: "0", fieldData: { id: 1, "First Name": "Ada" }, portalData: {} };
const RECORD_PATH = "/databases/Contacts/layouts/Contacts%20Web/records/1";

let server: FakeServer;
const clients: FileMakerClient[] = [];
afterAll(async () => {
  for (const fm of clients) await fm.close();
  await server?.close();
});

async function urlOf(serverUrl: (base: string) => string, version?: "v1" | "v2" | "vLatest"): Promise<string> {
  server ??= await startFakeServer(() => ({ status: 200, body: envelope({ data: [RECORD], dataInfo: { database: "Contacts", layout: "Contacts Web", table: "Contacts", totalRecordCount: 1, foundCount: 1, returnedCount: 1 } }) }));
  const fm = connect(serverUrl(server.url), { retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 2 }, ...(version ? { version } : {}) });
  clients.push(fm);
  // Only the path it asked for matters here, not whether the record decodes.
  await fm.layout(Contact).get(1).catch(() => undefined);
  return server.requests.at(-1)!.url;
}

describe("createClient's server URL", () => {
  it.each([
    ["the server alone", (u: string) => u, undefined, `/fmi/data/vLatest${RECORD_PATH}`],
    ["a URL ending in /fmi/data/vLatest", (u: string) => `${u}/fmi/data/vLatest`, undefined, `/fmi/data/vLatest${RECORD_PATH}`],
    ["a URL ending in /fmi/data/v1/, its version taken", (u: string) => `${u}/fmi/data/v1/`, undefined, `/fmi/data/v1${RECORD_PATH}`],
    ["a URL ending in /fmi/data, with a version", (u: string) => `${u}/fmi/data`, "v2" as const, `/fmi/data/v2${RECORD_PATH}`],
    ["a proxy's path before /fmi/data/vLatest", (u: string) => `${u}/proxy/fmi/data/vLatest`, "vLatest" as const, `/proxy/fmi/data/vLatest${RECORD_PATH}`],
  ])("takes %s, with the Data API's path once", async (_what, serverUrl, version, path) => {
    expect(await urlOf(serverUrl, version)).toBe(path);
  });

  it("refuses a URL whose version differs from `version`, and the URL of one call, saying what to pass", () => {
    expect(() => connect("https://fms.example.com/fmi/data/v1", { version: "v2" })).toThrow(
      'server "https://fms.example.com/fmi/data/v1" names Data API version v1, but version is "v2": pass the server without /fmi/data/v1, or the same version',
    );
    expect(() => connect("https://fms.example.com/fmi/data/vLatest/databases/Contacts/sessions")).toThrow(
      /server must be the server's URL \(such as https:\/\/fms\.example\.com\), not the URL of a Data API call/,
    );
  });
});
