import { afterEach, describe, expect, it } from "vitest";
import { createClient, NetworkError, ProtocolError, type ClientOptions, type FileMakerClient } from "../../src/runtime/fetch.js";
import { listenLoopback } from "../support/loopback-server.js";
import { envelope, FAKE_TOKEN, startFakeServer, type FakeServer } from "../support/runtime-emulator.js";
import { Contact, DATABASE, PASSWORD, USERNAME } from "../support/runtime-layouts.js";

// What only the fetch entry has: a `fetch` of the caller's, and how fetch's own behaviour (redirects followed by
// default, failures as TypeError("fetch failed") with the connection's error as cause, a fetch that may ignore
// its signal) is held to the guarantees of the Node transport. Everything else the fetch entry does is tested by
// running the runtime's behavioural tests through it (the "fetch" project of vitest.config.ts).

const NO_RETRY = { retries: 0, baseDelayMs: 1, maxDelayMs: 2 };
const PAGE = { data: [], dataInfo: { database: DATABASE, layout: "Contacts Web", table: "Contacts", totalRecordCount: 0, foundCount: 0, returnedCount: 0 } };

let clients: FileMakerClient[] = [];
let servers: FakeServer[] = [];
afterEach(async () => {
  for (const fm of clients) await fm.close().catch(() => undefined);
  for (const server of servers) await server.close();
  clients = [];
  servers = [];
});

function client(server: string, overrides: Partial<ClientOptions> = {}): FileMakerClient {
  const fm = createClient({ server, database: DATABASE, auth: { username: USERNAME, password: PASSWORD }, retry: NO_RETRY, ...overrides });
  clients.push(fm);
  return fm;
}

/** A fetch that answers logins and logouts itself and hands every other request to `rest`. */
function loggingIn(rest: typeof fetch): typeof fetch {
  return async (url, init) => {
    if (/\/sessions(\/[^/]*)?$/.test(String(url))) return new Response(envelope(init?.method === "POST" ? { token: FAKE_TOKEN } : {}), { headers: { "content-type": "application/json" } });
    return rest(url, init);
  };
}

const rejection = (promise: Promise<unknown>) => promise.then((value) => ({ resolved: value }), (error: unknown) => error);

describe("the fetch entry's transport", () => {
  it("sends through the caller's fetch: the whole URL, method, headers and body", async () => {
    const seen: { url: string; method: string | undefined; authorization: string | undefined; body: unknown }[] = [];
    const fm = client("https://fms.example.com/proxy", {
      fetch: loggingIn(async (url, init) => {
        seen.push({ url: String(url), method: init?.method, authorization: (init?.headers as Record<string, string>).authorization, body: init?.body });
        return new Response(envelope({ recordId: "7", modId: "0" }), { headers: { "content-type": "application/json" } });
      }),
    });
    expect(await fm.layout(Contact).create({ fieldData: { "First Name": "Ada" } })).toEqual({ recordId: "7", modId: "0" });
    expect(seen).toEqual([
      { url: "https://fms.example.com/proxy/fmi/data/vLatest/databases/Contacts/layouts/Contacts%20Web/records", method: "POST", authorization: `Bearer ${FAKE_TOKEN}`, body: '{"fieldData":{"First Name":"Ada"}}' },
    ]);
  });

  it("a fetch that never settles and ignores its signal still fails the call after timeoutMs", async () => {
    const fm = client("http://127.0.0.1:9", { timeoutMs: 200, fetch: loggingIn(() => new Promise<Response>(() => undefined)) });
    // The message names the 200 ms the call waited (not a default, not the transport's own); how soon it comes is
    // a budget of test/bench/bounds.bench.mjs.
    const error = await rejection(fm.layout(Contact).get(1));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).reason).toBe("timeout");
    expect((error as NetworkError).message).toBe("GET /databases/Contacts/layouts/Contacts%20Web/records/1: no answer within 200 ms");
  });

  it("the caller's abort ends a call whose fetch ignores its signal", async () => {
    const controller = new AbortController();
    const fm = client("http://127.0.0.1:9", { fetch: loggingIn(() => new Promise<Response>(() => undefined)) });
    const pending = rejection(fm.layout(Contact).get(1, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error("user left")), 20);
    const error = (await pending) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.reason).toBe("aborted");
    expect((error.cause as Error).message).toBe("user left");
  });

  it("a fetch that throws instead of rejecting still ends the call with a NetworkError", async () => {
    const fm = client("http://127.0.0.1:9", {
      fetch: () => {
        throw new Error("no route");
      },
    });
    const error = await rejection(fm.layout(Contact).get(1));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).reason).toBe("connection");
    expect((error as NetworkError).message).toBe("POST /databases/Contacts/sessions: network fault: no route");
  });

  it("a connection refused (fetch's TypeError with the code in its cause) is named by its code, and a create is sent again", async () => {
    const server = await startFakeServer(() => ({ status: 200, body: envelope({ recordId: "5", modId: "0" }) }));
    servers.push(server);
    let attempts = 0;
    const fm = client(server.url, {
      retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 },
      fetch: async (url, init) => {
        if (String(url).endsWith("/records") && attempts++ === 0) {
          throw new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED 10.0.0.1:443"), { code: "ECONNREFUSED" }) });
        }
        return fetch(url, init);
      },
    });
    // Refused: the request never reached the server, so even a create may be sent again.
    expect(await fm.layout(Contact).create({ fieldData: { "First Name": "Ada" } })).toEqual({ recordId: "5", modId: "0" });
    expect(attempts).toBe(2);
    expect(server.requests).toHaveLength(1);
  });

  it("a connection reset after sending is a NetworkError naming ECONNRESET, and a create is not sent again", async () => {
    let attempts = 0;
    const fm = client("http://127.0.0.1:9", {
      retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 },
      fetch: loggingIn(async () => {
        attempts++;
        throw new TypeError("fetch failed", { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) });
      }),
    });
    const error = (await rejection(fm.layout(Contact).create({ fieldData: {} }))) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe("POST /databases/Contacts/layouts/Contacts%20Web/records: network fault ECONNRESET: read ECONNRESET");
    expect(attempts).toBe(1);
  });

  it("a redirect is an answer, never followed (the credentials stay with the server they were meant for)", async () => {
    let elsewhere = 0;
    const server = await listenLoopback((req, res) => {
      if (req.url?.startsWith("/elsewhere")) {
        elsewhere++;
        res.end(envelope(PAGE));
        return;
      }
      if (req.url?.endsWith("/sessions")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(envelope({ token: FAKE_TOKEN }));
        return;
      }
      res.writeHead(302, { location: "/elsewhere", "content-type": "text/html" });
      res.end("<a href=/elsewhere>moved</a>");
    });
    try {
      const fm = client(server.url);
      const error = (await rejection(fm.layout(Contact).get(1))) as ProtocolError;
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error.httpStatus).toBe(302);
      expect(error.bodyStart).toBe("<a href=/elsewhere>moved</a>");
      expect(elsewhere).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("uses the global fetch as it is at each request (a mock installed after createClient)", async () => {
    const real = globalThis.fetch;
    const fm = client("https://fms.example.com");
    const urls: string[] = [];
    globalThis.fetch = loggingIn(async (url) => {
      urls.push(String(url));
      return new Response(envelope({ modId: "3" }), { headers: { "content-type": "application/json" } });
    });
    try {
      expect(await fm.layout(Contact).edit(1, { fieldData: { "First Name": "Ada" } })).toEqual({ modId: "3" });
      expect(urls).toEqual(["https://fms.example.com/fmi/data/vLatest/databases/Contacts/layouts/Contacts%20Web/records/1"]);
    } finally {
      // Logged out through the mock, never the real network.
      await fm.close();
      globalThis.fetch = real;
    }
  });
});
