import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, DecodeError, FileMakerError, NetworkError, ProtocolError } from "../../src/runtime/index.js";
import { listenLoopback, type LoopbackServer } from "../support/loopback-server.js";
import { startRuntimeEmulator } from "../support/runtime-emulator.js";
import { Contact, DATABASE, PASSWORD, USERNAME } from "../support/runtime-layouts.js";

// A fake server on 127.0.0.1 that answers the runtime with random statuses, headers, bytes and truncations:
// every call ends (no hang), with either a correct result or a typed error.

interface Script {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Declare more bytes than are sent, then cut the connection. */
  truncate: boolean;
  /** Cut the connection without an answer. */
  hangUp: boolean;
}

/** A real answer for record 1, taken from the emulator. */
let GOOD_RECORD: unknown;

let script: Script | undefined;
let server: LoopbackServer;
let url: string;
beforeAll(async () => {
  const emu = await startRuntimeEmulator();
  const login = await fetch(`${emu.url}/fmi/data/vLatest/databases/Contacts/sessions`, { method: "POST", headers: { authorization: `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString("base64")}`, "content-type": "application/json" }, body: "{}" });
  const token = ((await login.json()) as { response: { token: string } }).response.token;
  GOOD_RECORD = await (await fetch(`${emu.url}/fmi/data/vLatest/databases/Contacts/layouts/Contacts%20Web/records/1`, { headers: { authorization: `Bearer ${token}` } })).json();
  await emu.close();
  server = await listenLoopback((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.method === "POST" && req.url?.endsWith("/sessions")) {
        res.writeHead(200, { "content-type": "application/json", "x-fm-data-access-token": "fuzz-token" });
        res.end(JSON.stringify({ response: { token: "fuzz-token" }, messages: [{ code: "0", message: "OK" }] }));
        return;
      }
      const s = script!;
      if (s.hangUp) {
        req.socket.destroy();
        return;
      }
      try {
        res.writeHead(s.status, { ...s.headers, "content-length": String(s.body.byteLength + (s.truncate ? 10 : 0)) });
      } catch {
        res.writeHead(s.status, { "content-length": String(s.body.byteLength) });
      }
      if (s.truncate) res.write(s.body, () => res.destroy());
      else res.end(s.body);
    });
  });
  url = server.url;
});
afterAll(() => server.close());

const envelopeLike = fc.oneof(
  fc.constant(null).map(() => GOOD_RECORD),
  fc.constant(null).map(() => GOOD_RECORD),
  fc.record({ response: fc.jsonValue({ maxDepth: 3 }), messages: fc.oneof(fc.constant([{ code: "0" }]), fc.array(fc.record({ code: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), message: fc.jsonValue({ maxDepth: 0 }) }), { maxLength: 2 }), fc.jsonValue({ maxDepth: 1 })) }),
  fc.record({ response: fc.record({ data: fc.array(fc.record({ recordId: fc.jsonValue({ maxDepth: 0 }), modId: fc.jsonValue({ maxDepth: 0 }), fieldData: fc.dictionary(fc.constantFrom("First Name", "Birthday", "Phone", "id", "x"), fc.jsonValue({ maxDepth: 1 })) }), { maxLength: 2 }) }), messages: fc.constant([{ code: "0", message: "OK" }]) }),
  fc.jsonValue({ maxDepth: 3 }),
);
const body = fc.oneof(envelopeLike.map((v) => Buffer.from(JSON.stringify(v))), fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)), fc.constant(Buffer.from("<html>502 Bad Gateway</html>")));
const scriptArb: fc.Arbitrary<Script> = fc.record({
  status: fc.oneof(fc.constantFrom(200, 200, 200, 400, 401, 404, 500, 502, 503), fc.integer({ min: 100, max: 599 })),
  headers: fc.oneof(fc.constant({ "content-type": "application/json" }), fc.dictionary(fc.constantFrom("content-type", "x-fm-data-access-token", "connection", "x-junk", "transfer-encoding"), fc.string({ maxLength: 20 }), { maxKeys: 3 })),
  body,
  truncate: fc.nat(4).map((n) => n === 0),
  hangUp: fc.boolean().map((b) => b && Math.random() < 0.3),
});

describe("fuzzed server answers to the runtime", () => {
  it("never hang; always a correct result or a typed error", async () => {
    const outcomes = { ok: 0, fileMaker: 0, protocol: 0, network: 0, decode: 0 };
    await fc.assert(
      fc.asyncProperty(scriptArb, async (s) => {
        script = s;
        const fm = createClient({ server: url, database: DATABASE, auth: { username: USERNAME, password: PASSWORD }, timeoutMs: 300, retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 2 } });
        // Every call ends (a hang fails by the test's timeout); the slowest call's time is a budget of
        // test/bench/bounds.bench.mjs.
        try {
          const record = await fm.layout(Contact).get(1);
          expect(record.recordId).toBe("1");
          outcomes.ok++;
        } catch (error) {
          if (error instanceof FileMakerError) outcomes.fileMaker++;
          else if (error instanceof ProtocolError) outcomes.protocol++;
          else if (error instanceof NetworkError) outcomes.network++;
          else if (error instanceof DecodeError) outcomes.decode++;
          else throw new Error(`untyped error: ${String(error)}`, { cause: error });
        } finally {
          await fm.close().catch(() => undefined);
        }
      }),
      { numRuns: 100, seed: 777 },
    );
    console.info(`[fuzz] server answers: ${JSON.stringify(outcomes)}`);
    expect(Object.values(outcomes).reduce((a, b) => a + b, 0)).toBe(100);
  }, 60_000);
});
