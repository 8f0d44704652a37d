import { request as httpRequest } from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { PASSWORD, USERNAME } from "../support/runtime-layouts.js";

// Random methods, paths, headers and bodies sent raw to the emulator: it never crashes, every answer to a
// Data API request is an envelope with a code, and the data it holds stays as it was for refused requests.

let emu: Emulator;
let token: string;
beforeAll(async () => {
  emu = await startRuntimeEmulator({ maxJsonBytes: 64 * 1024, maxUploadBytes: 64 * 1024 });
  const res = await fetch(`${emu.url}/fmi/data/vLatest/databases/Contacts/sessions`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString("base64")}`, "content-type": "application/json" },
    body: "{}",
  });
  token = ((await res.json()) as { response: { token: string } }).response.token;
});
afterAll(() => emu.close());

function send(method: string, path: string, headers: Record<string, string>, body: Buffer | undefined): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${emu.url}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.setTimeout(5_000, () => req.destroy(new Error("no answer within 5 s")));
    req.on("error", reject);
    req.end(body);
  });
}

const segment = fc.oneof(
  fc.constantFrom("fmi", "data", "vLatest", "v1", "databases", "Contacts", "layouts", "Contacts Web", "Invoices Web", "records", "_find", "sessions", "containers", "Photo", "1", "2", "0", "-1", "99999999999999999999", "..", "%", "%E0%A4%A", "%00", "Streaming", "script", "globals", "productInfo"),
  fc.string({ unit: "grapheme", maxLength: 10 }).map(encodeURIComponent),
);
const prefix = fc.constantFrom("/fmi/data/vLatest/databases/Contacts/", "/fmi/data/v1/databases/Contacts/layouts/Contacts%20Web/", "/", "/fmi/data/vLatest/databases/Contacts/layouts/Contacts%20Web/records/", "/Streaming/Contacts/", "/Streaming/MainDB/");
const path = fc.tuple(prefix, fc.array(segment, { maxLength: 4 }), fc.option(fc.string({ maxLength: 20 }).map((q) => `?${encodeURIComponent(q)}=${q.replaceAll(/[#\s]/g, "")}`)))
  .map(([p, segs, q]) => p + segs.join("/") + (q ?? ""));
const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 4 }).map((v) => Buffer.from(JSON.stringify(v))),
  fc.record({ fieldData: fc.dictionary(fc.constantFrom("First Name", "Email", "Photo", "Nope", "id", "__proto__", "Phone(2)"), fc.jsonValue({ maxDepth: 1 })), modId: fc.option(fc.jsonValue({ maxDepth: 0 })) }).map((v) => Buffer.from(JSON.stringify(v))),
  fc.record({ query: fc.jsonValue({ maxDepth: 3 }), limit: fc.jsonValue({ maxDepth: 0 }), sort: fc.jsonValue({ maxDepth: 2 }) }).map((v) => Buffer.from(JSON.stringify(v))),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
  fc.constant(Buffer.alloc(70 * 1024, 0x7b)),
);
const headers = fc.record(
  {
    authorization: fc.oneof(fc.constant("TOKEN"), fc.constant("Basic d2ViOnNlY3JldA=="), fc.string({ maxLength: 30 })),
    "content-type": fc.constantFrom("application/json", "application/json; charset=utf-8", "multipart/form-data; boundary=x", "text/plain", "multipart/form-data", ""),
  },
  { requiredKeys: [] },
);

describe("fuzzed requests to the emulator", () => {
  it("always answer an envelope with a code; the emulator keeps serving", async () => {
    let requests = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("GET", "POST", "PATCH", "DELETE", "PUT", "OPTIONS", "HEAD"), path, headers, body, async (method, p, h, b) => {
        const sent = { ...h };
        if (sent.authorization === "TOKEN") sent.authorization = `Bearer ${token}`;
        requests++;
        const answer = await send(method, p, sent, method === "GET" || method === "HEAD" ? undefined : b);
        if (method === "HEAD") return;
        if (p.startsWith("/Streaming/") && answer.status === 200) return;
        const envelope = JSON.parse(answer.text) as { messages: { code: string }[] };
        expect(typeof envelope.messages[0]!.code).toBe("string");
        expect(answer.status).toBeGreaterThanOrEqual(200);
      }),
      { numRuns: 400, seed: 424242 },
    );
    // Still alive and consistent: the seed's first record reads back.
    const res = await fetch(`${emu.url}/fmi/data/vLatest/databases/Contacts/layouts/Contacts%20Web/records/1`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(requests).toBe(400);
  }, 60_000);
});
