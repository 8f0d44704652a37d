import { Client, Dispatcher } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { NetworkError, ProtocolError, type FileMakerClient } from "../../src/runtime/index.js";
import { connect, envelope, FAKE_TOKEN, startFakeServer, type FakeAnswer, type FakeServer, type SeenRequest } from "../support/runtime-emulator.js";
import { RUNTIME_ENTRY } from "../support/runtime-entry.js";
import { Contact, DATABASE, PASSWORD, USERNAME, Weird } from "../support/runtime-layouts.js";

// What the runtime does with answers that are not Data API envelopes (a proxy's HTML error page), with
// network faults, and what it puts on the wire. These need a server that misbehaves on purpose: a tiny
// node:http server on loopback, never a stubbed fetch.

const HTML = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>${"The upstream server is unreachable. ".repeat(200)}</p></body></html>`;
const FAST_RETRY = { retries: 1, baseDelayMs: 1, maxDelayMs: 2 };
const CONTACTS_PATH = "/databases/Contacts/layouts/Contacts%20Web";

let servers: FakeServer[] = [];
let clients: FileMakerClient[] = [];

afterEach(async () => {
  for (const fm of clients) await fm.close();
  for (const server of servers) await server.close();
  servers = [];
  clients = [];
});

async function fake(answer: (req: SeenRequest, index: number) => FakeAnswer, options?: Parameters<typeof startFakeServer>[1]): Promise<FakeServer> {
  const server = await startFakeServer(answer, options);
  servers.push(server);
  return server;
}

function client(server: FakeServer, overrides: Parameters<typeof connect>[1] = {}): FileMakerClient {
  const fm = connect(server.url, { retry: FAST_RETRY, ...overrides });
  clients.push(fm);
  return fm;
}

function contactWire(recordId: number) {
  return {
    recordId: String(recordId),
    modId: "0",
    fieldData: {
      id: recordId,
      "First Name": `Person ${recordId}`,
      "Last Name": "",
      Email: "",
      Status: "Active",
      Birthday: "",
      "Wake Up": "",
      Created: "01/02/2024 03:04:05",
      Modified: "",
      Photo: "",
      Phone: "",
      "Phone(2)": "",
      "Phone(3)": "",
      "Company::Name": "",
    },
    portalData: { Invoices: [] },
  };
}

function page(...ids: number[]): string {
  return envelope({
    dataInfo: { database: DATABASE, layout: "Contacts Web", table: "Contacts", totalRecordCount: 10, foundCount: ids.length, returnedCount: ids.length },
    data: ids.map(contactWire),
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected the call to fail, but it succeeded");
    },
    (e: unknown) => e,
  );
}

function expectProtocolError(error: unknown, status: number, body: string, call: { method: string; path: string }): void {
  expect(error).toBeInstanceOf(ProtocolError);
  const e = error as ProtocolError;
  expect(e.name).toBe("ProtocolError");
  expect(e.httpStatus).toBe(status);
  expect(e.call).toEqual(call);
  // It quotes the start of the body, not the whole page.
  expect(e.bodyStart.length).toBeGreaterThan(0);
  expect(body.startsWith(e.bodyStart)).toBe(true);
  expect(e.bodyStart.length).toBeLessThanOrEqual(Math.min(body.length, 500));
  expect(e.message).toContain(String(status));
  // Quoted as a JSON string.
  expect(e.message).toContain(JSON.stringify(body.slice(0, Math.min(body.length, 15))).slice(1, -1));
  expect(e.message.length).toBeLessThan(1000);
}

describe("an answer that is not an envelope is a ProtocolError", () => {
  const html502: () => FakeAnswer = () => ({ status: 502, body: HTML, contentType: "text/html" });

  it("an HTML 502 page on list, get and find: ProtocolError quoting status and body start; each read was retried", async () => {
    const server = await fake(html502);
    const contacts = client(server).layout(Contact);

    expectProtocolError(await rejection(contacts.list()), 502, HTML, { method: "GET", path: `${CONTACTS_PATH}/records` });
    expect(server.requests).toHaveLength(2);

    expectProtocolError(await rejection(contacts.get(3)), 502, HTML, { method: "GET", path: `${CONTACTS_PATH}/records/3` });
    expect(server.requests).toHaveLength(4);

    expectProtocolError(await rejection(contacts.find({ query: [{ "First Name": "Ada" }] })), 502, HTML, { method: "POST", path: `${CONTACTS_PATH}/_find` });
    expect(server.requests).toHaveLength(6);
    expect(server.requests.map((r) => r.method)).toEqual(["GET", "GET", "GET", "GET", "POST", "POST"]);
  });

  it("the number of attempts follows retry.retries", async () => {
    for (const retries of [0, 3]) {
      const server = await fake(html502);
      const contacts = client(server, { retry: { retries, baseDelayMs: 1, maxDelayMs: 2 } }).layout(Contact);
      expect(await rejection(contacts.list())).toBeInstanceOf(ProtocolError);
      expect(server.requests).toHaveLength(retries + 1);
    }
  });

  it("a create answered by an HTML 502 page is never sent again", async () => {
    const server = await fake(html502);
    const contacts = client(server, { retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 2 } }).layout(Contact);
    expectProtocolError(await rejection(contacts.create({ fieldData: { "First Name": "Once" } })), 502, HTML, { method: "POST", path: `${CONTACTS_PATH}/records` });
    expect(server.requests).toHaveLength(1);
    expect(JSON.parse(server.requests[0]!.body.toString("utf8"))).toEqual({ fieldData: { "First Name": "Once" } });
  });

  it("edit, delete and upload answered by an HTML 502 page are never sent again", async () => {
    const server = await fake(html502);
    const contacts = client(server, { retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 2 } }).layout(Contact);
    expect(await rejection(contacts.edit(4, { fieldData: { "Last Name": "X" } }))).toBeInstanceOf(ProtocolError);
    expect(server.requests).toHaveLength(1);
    expect(await rejection(contacts.delete(4))).toBeInstanceOf(ProtocolError);
    expect(server.requests).toHaveLength(2);
    expect(await rejection(contacts.upload(4, "Photo", new Uint8Array([1, 2, 3])))).toBeInstanceOf(ProtocolError);
    expect(server.requests).toHaveLength(3);
    expect(server.requests.map((r) => r.method)).toEqual(["PATCH", "DELETE", "POST"]);
  });

  it("a 200 answer whose body is not JSON: ProtocolError naming status 200 and quoting the body", async () => {
    const server = await fake(() => ({ status: 200, body: "not json", contentType: "text/plain" }));
    const contacts = client(server).layout(Contact);
    const error = await rejection(contacts.get(1));
    expectProtocolError(error, 200, "not json", { method: "GET", path: `${CONTACTS_PATH}/records/1` });
    expect((error as ProtocolError).bodyStart).toBe("not json");
  });

  it("JSON that is not an envelope (no messages[0].code) is a ProtocolError too", async () => {
    for (const body of ['{"error":"gateway"}', '{"response":{},"messages":[]}', '{"response":{},"messages":[{"message":"no code"}]}', "[]", "null"]) {
      const server = await fake(() => ({ status: 500, body }));
      const error = await rejection(client(server).layout(Contact).get(1));
      expectProtocolError(error, 500, body, { method: "GET", path: `${CONTACTS_PATH}/records/1` });
    }
  });
});

describe("network faults", () => {
  it("a read whose connection is cut is retried and succeeds", async () => {
    const server = await fake((_req, index) => (index === 0 ? "hang-up" : { status: 200, body: page(1) }));
    const record = await client(server).layout(Contact).get(1);
    expect(record.fieldData["First Name"]).toBe("Person 1");
    expect(server.requests).toHaveLength(2);
  });

  it("a create whose connection is cut fails with a NetworkError and is not sent again", async () => {
    const server = await fake(() => "hang-up");
    const contacts = client(server, { retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 2 } }).layout(Contact);
    const error = await rejection(contacts.create({ fieldData: { "First Name": "Once" } }));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).call).toEqual({ method: "POST", path: `${CONTACTS_PATH}/records` });
    expect(server.requests).toHaveLength(1);
  });

  it("a refused connection is a NetworkError (no server at all)", async () => {
    const server = await fake(() => ({ status: 200, body: page() }));
    const url = server.url;
    await server.close();
    servers = servers.filter((s) => s !== server);
    const fm = connect(url, { retry: FAST_RETRY });
    clients.push(fm);
    const error = await rejection(fm.layout(Contact).list());
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).reason).toBe("connection");
  });

  it("an already aborted signal stops a call with a NetworkError of reason aborted, sending nothing", async () => {
    const server = await fake(() => ({ status: 200, body: page(1) }));
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(client(server).layout(Contact).get(1, { signal: controller.signal }));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).reason).toBe("aborted");
    expect(server.requests).toHaveLength(0);
  });

  it("aborting a call in flight ends it with reason aborted (not the client's timeout), and a read is not retried", async () => {
    const server = await fake(() => "silence");
    const contacts = client(server, { timeoutMs: 1_500, retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 } }).layout(Contact);
    const controller = new AbortController();
    const pending = rejection(contacts.list({ signal: controller.signal }));
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).reason).toBe("aborted");
    expect(server.requests).toHaveLength(1);
  });

  it("an answer that trickles in forever fails the call after timeoutMs: the limit is on the whole answer", async () => {
    const server = await fake(() => "trickle");
    const contacts = client(server, { timeoutMs: 300, retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 2 } }).layout(Contact);
    const error = await rejection(contacts.get(1));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).reason).toBe("timeout");
    expect((error as NetworkError).message).toBe(`GET ${CONTACTS_PATH}/records/1: no answer within 300 ms`);
  });

  // Node's transport: an undici dispatcher of the caller's (test/runtime/fetch-transport.test.ts has the fetch counterparts).
  it.runIf(RUNTIME_ENTRY === "node")("a call still waiting for a connection fails after timeoutMs too, and is never sent afterwards", async () => {
    const server = await fake(() => "silence");
    // One undici Client is one connection. (An Agent with `connections: 1` is not: after a request aborted on it, plain
    // undici sends two at once, which made this test fail now and then.)
    const dispatcher = new Client(new URL(server.url).origin);
    const noRetry = { retries: 0, baseDelayMs: 1, maxDelayMs: 2 };
    // Two clients over the one connection: the holder's call keeps it past the waiter's time limit, so the waiter's
    // call times out while it waits, whatever the load.
    const waiter = connect(server.url, { timeoutMs: 300, dispatcher, retry: noRetry });
    const holder = connect(server.url, { timeoutMs: 1_500, dispatcher, retry: noRetry });
    try {
      // Each signs in over the connection (its list then times out, freeing it).
      await waiter.layout(Contact).list({ limit: 1 }).catch(() => undefined);
      await holder.layout(Contact).list({ limit: 1 }).catch(() => undefined);
      const held = rejection(holder.layout(Contact).get(1));
      while (!server.requests.some((r) => r.url.endsWith("/records/1"))) await new Promise((resolve) => setTimeout(resolve, 5));
      const waited = await rejection(waiter.layout(Contact).get(2));
      expect((waited as NetworkError).reason).toBe("timeout");
      expect(((await held) as NetworkError).reason).toBe("timeout");
      await new Promise((resolve) => setTimeout(resolve, 100));
      // The lists and the holder's get each held the connection; the waiter's get never reached the server.
      expect(server.requests.map((r) => r.url.split("/").at(-1))).toEqual(["records?_limit=1", "records?_limit=1", "1"]);
    } finally {
      await waiter.close().catch(() => undefined);
      await holder.close().catch(() => undefined);
      await dispatcher.destroy();
    }
  });

  it.runIf(RUNTIME_ENTRY === "node")("a dispatcher that throws instead of reporting to the handler still ends the call with a NetworkError", async () => {
    const dispatcher = new (class extends Dispatcher {
      override dispatch(): boolean {
        throw new Error("no route");
      }
    })();
    const fm = connect("http://127.0.0.1:9", { dispatcher, retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 2 } });
    clients.push(fm);
    const error = await rejection(fm.layout(Contact).get(1));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).reason).toBe("connection");
    expect((error as NetworkError).message).toBe("POST /databases/Contacts/sessions: network fault: no route");
  });

  it("a server URL with a path (behind a proxy) keeps its path before /fmi/data", async () => {
    const server = await fake(() => ({ status: 200, body: page(1) }));
    const fm = connect(`${server.url}/behind/proxy/`, { retry: FAST_RETRY });
    clients.push(fm);
    expect((await fm.layout(Contact).get(1)).recordId).toBe("1");
    expect(server.sessionRequests[0]!.url).toBe("/behind/proxy/fmi/data/vLatest/databases/Contacts/sessions");
    expect(server.requests[0]!.url).toBe(`/behind/proxy/fmi/data/vLatest${CONTACTS_PATH}/records/1`);
  });

  it("a server that never answers fails the call after timeoutMs with reason timeout", async () => {
    const server = await fake(() => "silence");
    const contacts = client(server, { timeoutMs: 200, retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 2 } }).layout(Contact);
    const error = await rejection(contacts.get(1));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).reason).toBe("timeout");
  });
});

describe("a page read ahead that fails", () => {
  it("surfaces where the stream reaches it, never as an unhandled rejection while the consumer is busy", async () => {
    // Pages of 2 out of a found count of 6: pages 2 and 3 are requested while page 1 is consumed, and fail at once.
    const server = await fake((req) => {
      if (!req.url.includes("_offset=1&")) return { status: 502, body: HTML, contentType: "text/html" };
      return { status: 200, body: envelope({ dataInfo: { database: DATABASE, layout: "Contacts Web", table: "Contacts", totalRecordCount: 6, foundCount: 6, returnedCount: 2 }, data: [contactWire(1), contactWire(2)] }) };
    });
    const contacts = client(server, { retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 2 } }).layout(Contact);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    const seen: string[] = [];
    try {
      const error = await rejection(
        (async () => {
          for await (const record of contacts.listAll({ pageSize: 2 })) {
            seen.push(record.recordId);
            // A slow consumer: the pages read ahead fail meanwhile.
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        })(),
      );
      expect(error).toBeInstanceOf(ProtocolError);
      expect(seen).toEqual(["1", "2"]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});

describe("what goes on the wire", () => {
  it("logs in with HTTP Basic and {} and sends the token as a Bearer; logout puts the token in the path with no Authorization", async () => {
    const server = await fake(() => ({ status: 200, body: page(1) }));
    const fm = client(server);
    await fm.layout(Contact).get(1);
    await fm.logout();
    const [login, logout] = server.sessionRequests;
    expect(login!.method).toBe("POST");
    expect(login!.url).toBe("/fmi/data/vLatest/databases/Contacts/sessions");
    expect(login!.headers.authorization).toBe(`Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString("base64")}`);
    expect(login!.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(login!.body.toString("utf8"))).toEqual({});
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${FAKE_TOKEN}`);
    expect(logout!.method).toBe("DELETE");
    expect(logout!.url).toBe(`/fmi/data/vLatest/databases/Contacts/sessions/${FAKE_TOKEN}`);
    expect(logout!.headers.authorization).toBeUndefined();
  });

  it("Basic credentials are the base64 of their UTF-8 bytes, whatever characters they hold", async () => {
    const server = await fake(() => ({ status: 200, body: page(1) }));
    const username = "José Müller";
    const password = "pässwörd ✓ 🔑 日本";
    const fm = connect(server.url, { auth: { username, password }, retry: FAST_RETRY });
    clients.push(fm);
    await fm.layout(Contact).get(1);
    const header = server.sessionRequests[0]!.headers.authorization!;
    expect(header).toBe(`Basic ${Buffer.from(`${username}:${password}`, "utf8").toString("base64")}`);
    expect(Buffer.from(header.slice("Basic ".length), "base64").toString("utf8")).toBe(`${username}:${password}`);
  });

  it("a logout answered by an HTML page or a cut connection names {token} in its path, never the token", async () => {
    for (const logoutAnswer of [{ status: 502, body: HTML, contentType: "text/html" }, "hang-up"] as const) {
      const server = await fake(() => ({ status: 200, body: page(1) }), { logoutAnswer });
      const fm = connect(server.url, { retry: FAST_RETRY });
      await fm.layout(Contact).get(1);
      const error = await rejection(fm.logout());
      expect(error).toBeInstanceOf(logoutAnswer === "hang-up" ? NetworkError : ProtocolError);
      const e = error as ProtocolError | NetworkError;
      expect(e.call).toEqual({ method: "DELETE", path: "/databases/Contacts/sessions/{token}" });
      expect(`${e.message} ${JSON.stringify(e.call)}`).not.toContain(FAKE_TOKEN);
      // The token is kept (the session may still be open at the server): close() tries to end it again, and says so.
      const again = await rejection(fm.close());
      expect((again as ProtocolError | NetworkError).call).toEqual(e.call);
      expect(`${(again as Error).message}`).not.toContain(FAKE_TOKEN);
    }
  });

  it("takes the token from the X-FM-Data-Access-Token header when the body has none", async () => {
    const server = await fake(() => ({ status: 200, body: page(1) }), { loginTokenIn: "header" });
    await client(server).layout(Contact).get(1);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${FAKE_TOKEN}`);
  });

  it("sends fmDataSource credentials with the login", async () => {
    const server = await fake(() => ({ status: 200, body: page(1) }));
    const fmDataSource = [{ database: "Other", username: "u", password: "p" }];
    await client(server, { fmDataSource }).layout(Contact).get(1);
    expect(JSON.parse(server.sessionRequests[0]!.body.toString("utf8"))).toEqual({ fmDataSource });
  });

  it("percent-encodes database, layout and field name segments", async () => {
    const server = await fake(() => ({ status: 200, body: envelope({ modId: "1" }) }));
    const weird = client(server, { database: "Wéird Data/Base ✓ 100%" }).layout(Weird);
    await weird.upload(12, "Pïc / ✓", new Uint8Array([1]));
    const db = "W%C3%A9ird%20Data%2FBase%20%E2%9C%93%20100%25";
    const layout = "W%C3%A9ird%20%2F%20Layout%20%3F%23";
    expect(server.sessionRequests[0]!.url).toBe(`/fmi/data/vLatest/databases/${db}/sessions`);
    expect(server.requests[0]!.url).toBe(`/fmi/data/vLatest/databases/${db}/layouts/${layout}/records/12/containers/P%C3%AFc%20%2F%20%E2%9C%93/1`);
  });

  it("puts the version segment and the server's path prefix where they belong", async () => {
    const server = await fake(() => ({ status: 200, body: page(1) }));
    for (const version of ["v1", "v2", "vLatest"] as const) {
      await client(server, { version, server: `${server.url}/` }).layout(Contact).get(1);
      expect(server.requests.at(-1)!.url).toBe(`/fmi/data/${version}${CONTACTS_PATH}/records/1`);
    }
  });

  it("sends list paging and sort as _offset, _limit and a JSON _sort; find paging as strings", async () => {
    const server = await fake(() => ({ status: 200, body: page(1) }));
    const contacts = client(server).layout(Contact);
    const sort = [{ fieldName: "Last Name", sortOrder: "descend" }] as const;
    await contacts.list({ offset: 3, limit: 7, sort });
    const url = new URL(server.requests[0]!.url, "http://x");
    expect(url.pathname).toBe(`/fmi/data/vLatest${CONTACTS_PATH}/records`);
    expect(url.searchParams.get("_offset")).toBe("3");
    expect(url.searchParams.get("_limit")).toBe("7");
    expect(JSON.parse(url.searchParams.get("_sort")!)).toEqual(sort);
    await contacts.find({ query: [{ "First Name": "Ada" }, { Status: "Inactive", omit: true }], offset: 2, limit: 5, sort });
    expect(JSON.parse(server.requests[1]!.body.toString("utf8"))).toEqual({
      // The exact escaping of plain values is the runtime's business; the contract fixes the rest.
      query: [{ "First Name": expect.stringContaining("Ada") }, { Status: expect.stringContaining("Inactive"), omit: "true" }],
      sort,
      offset: "2",
      limit: "5",
    });
  });

  it("refuses a server that is not an http(s) URL", () => {
    expect(() => connect("fms.example.com")).toThrow(TypeError);
  });
});

describe("streams stop when the server does not page", () => {
  // A server (or proxy) that ignores offsets answers the same records for every page: listAll, findAll and portalRows
  // read it forever unless they check that each page moves through the found set. Each test takes at most BOUND
  // records, so that the code before the check fails rather than hangs.
  const BOUND = 200;
  const info = (found: number, returned: number) => ({ database: DATABASE, layout: "Contacts Web", table: "Contacts", totalRecordCount: found, foundCount: found, returnedCount: returned });
  /** Records `ids` with the found count `found`, whatever the request asked for. */
  const records = (ids: number[], found: number): FakeAnswer => ({ status: 200, body: envelope({ dataInfo: info(found, ids.length), data: ids.map(contactWire) }) });
  const row = (id: number) => ({ recordId: String(id), modId: "0", "Invoices::Amount": id, "Invoices::Issued": "" });
  /** Record 1 with portal rows `ids`, and the portal's found count when `found` is given. */
  const portal = (ids: number[], found?: number): FakeAnswer => ({
    status: 200,
    body: envelope({
      dataInfo: info(1, 1),
      data: [{ ...contactWire(1), portalData: { Invoices: ids.map(row) }, ...(found === undefined ? {} : { portalDataInfo: [{ database: DATABASE, table: "Invoices", foundCount: found, returnedCount: ids.length }] }) }],
    }),
  });
  const FIVE = [1, 2, 3, 4, 5];

  /** What a stream yields before it ends or fails, at most BOUND items. */
  async function drain(items: AsyncIterable<unknown>): Promise<{ count: number; error?: Error }> {
    let count = 0;
    try {
      for await (const _ of items) if (++count >= BOUND) break;
    } catch (error) {
      return { count, error: error as Error };
    }
    return { count };
  }

  const TEN = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const streams = [
    ["listAll", (fm: FileMakerClient) => fm.layout(Contact).listAll({ pageSize: 5 })],
    ["findAll", (fm: FileMakerClient) => fm.layout(Contact).findAll({ query: [{ Status: "Active" }], pageSize: 5 })],
  ] as const;

  it.each(streams)("%s: the same five records of ten for every page stop at the second page, naming the call and layout", async (call, stream) => {
    const server = await fake(() => records(FIVE, 10));
    const { count, error } = await drain(stream(client(server)));
    expect(error?.message).toBe(`${call} on layout "Contacts Web": the server is not paging: 5 rows from row 6, the same as the page before`);
    expect(count).toBe(5);
    expect(server.requests.length).toBeLessThanOrEqual(3);
  });

  it.each(streams)("%s: the same five records with a found count of a million stop at the second page", async (call, stream) => {
    const server = await fake(() => records(FIVE, 1_000_000));
    const { count, error } = await drain(stream(client(server)));
    expect(error?.message).toBe(`${call} on layout "Contacts Web": the server is not paging: 5 rows from row 6, the same as the page before`);
    expect(count).toBe(5);
  });

  it.each(streams)("%s: all ten records for every page (offset and limit ignored) stop at the first, more than asked for", async (call, stream) => {
    const server = await fake(() => records(TEN, 10));
    const { count, error } = await drain(stream(client(server)));
    expect(error?.message).toBe(`${call} on layout "Contacts Web": the server is not paging: 10 rows from row 1, more than the 5 asked for`);
    expect(count).toBe(0);
  });

  it.each(streams)("%s: pages past the found count of their own answer stop there", async (call, stream) => {
    // The pages asked for, of ten records, each answer counting seven.
    const server = await fake((req) => {
      const query = new URL(req.url, "http://x").searchParams;
      const body = req.body.length ? (JSON.parse(req.body.toString()) as Record<string, string>) : {};
      const offset = Number(query.get("_offset") ?? body.offset ?? 1);
      return records(TEN.slice(offset - 1, offset + 4), 7);
    });
    const { count, error } = await drain(stream(client(server)));
    expect(error?.message).toBe(`${call} on layout "Contacts Web": the server is not paging: 5 rows from row 6 of a found set of 7`);
    expect(count).toBe(5);
  });

  it.each([
    ["the same five rows of ten", FIVE, 10, 'portalRows on layout "Contacts Web": the server is not paging: 5 rows from row 6, the same as the page before', 5],
    ["the same five rows, without portalDataInfo", FIVE, undefined, 'portalRows on layout "Contacts Web": the server is not paging: 5 rows from row 6, the same as the page before', 5],
    ["all ten rows for every page", TEN, 10, 'portalRows on layout "Contacts Web": the server is not paging: 10 rows from row 1, more than the 5 asked for', 0],
  ])("portalRows: %s stop", async (_what, ids, found, message, yielded) => {
    const server = await fake(() => portal(ids, found));
    const { count, error } = await drain(client(server).layout(Contact).portalRows(1, "Invoices", { pageSize: 5 }));
    expect(error?.message).toBe(message);
    expect(count).toBe(yielded);
  });

  /** A found set that changes as it is read: `change` runs before each answer; the answer is the slice asked for. */
  function changing(ids: number[], change: (ids: number[], index: number) => void): (req: SeenRequest, index: number) => FakeAnswer {
    return (req, index) => {
      change(ids, index);
      const query = new URL(req.url, "http://x").searchParams;
      const offset = Number(query.get("_offset") ?? 1);
      const limit = Number(query.get("_limit") ?? 100);
      const slice = ids.slice(offset - 1, offset - 1 + limit);
      return slice.length ? records(slice, ids.length) : { status: 500, body: envelope({}, "101", "Record is missing") };
    };
  }

  it("records added before the stream's position while it runs: every page is taken, a record may come twice", async () => {
    const ids = Array.from({ length: 23 }, (_, i) => i + 100);
    // Five records added at the front before the second and third pages: each repeats the page before, its found
    // count grown.
    const server = await fake(changing(ids, (list, index) => (index === 1 || index === 2) && list.unshift(...[1, 2, 3, 4, 5].map((n) => n + 10 * index))));
    const { count, error } = await drain(client(server).layout(Contact).listAll({ pageSize: 5 }));
    expect(error).toBeUndefined();
    expect(count).toBe(33);
  });

  it("records deleted while it runs, and a short last page: the stream ends without an error", async () => {
    const ids = Array.from({ length: 23 }, (_, i) => i + 1);
    const server = await fake(changing(ids, (list, index) => index === 2 && list.splice(0, 4)));
    const { count, error } = await drain(client(server).layout(Contact).listAll({ pageSize: 5 }));
    expect(error).toBeUndefined();
    expect(count).toBe(19);
  });
});
