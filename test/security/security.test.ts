import { request as httpRequest } from "node:http";
import { downloadContainer } from "../support/container-download.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createClient, type FileMakerClient } from "../../src/runtime/index.js";
import { layoutMetadata, wireRecords } from "../../src/runtime/metadata.js";
import { connect, envelope, startFakeServer, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { Contact, DATABASE, PASSWORD, Types, USERNAME } from "../support/runtime-layouts.js";

// Container bytes only for a live session or the URL's own signed token; bodies capped while read;
// credentials never sent over plain http to another machine without a warning (or a refusal).

let emu: Emulator;
beforeAll(async () => {
  emu = await startRuntimeEmulator({ maxUploadBytes: 64 * 1024 });
});
afterAll(() => emu.close());

async function tokenFor(database = DATABASE): Promise<string> {
  const res = await fetch(`${emu.url}/fmi/data/vLatest/databases/${encodeURIComponent(database)}/sessions`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString("base64")}`, "content-type": "application/json" },
    body: "{}",
  });
  return ((await res.json()) as { response: { token: string } }).response.token;
}

async function uploadedUrl(filename = "a.bin"): Promise<string> {
  const fm = connect(emu.url);
  const types = fm.layout(Types);
  const { recordId } = await types.create({ fieldData: {} });
  await types.upload(recordId, "File", new Blob([new Uint8Array([1, 2, 3])]), { filename });
  const url = (await types.get(recordId)).fieldData.File[0]!;
  await fm.close();
  return url;
}

describe("container URLs", () => {
  /** The URL's name: the container id and its signature (32 hex digits each), and the extension with its dot. */
  const nameOf = (url: string) => {
    const m = /^\/Streaming\/MainDB\/([0-9A-F]{32})([0-9A-F]{32})(\.[A-Za-z0-9]+)?$/.exec(new URL(url).pathname);
    expect(m, url).not.toBeNull();
    return { id: m![1]!, signature: m![2]!, extension: m![3] ?? "" };
  };

  it("the field's URL (with its signed name) serves the bytes; a forged or moved name is refused", async () => {
    const url = await uploadedUrl();
    // The field's URL as a client with a cookie jar follows it (302 with X-FMS-Session-Key, then the file).
    expect((await downloadContainer(url)).status).toBe(200);
    const { id, signature, extension } = nameOf(url);
    const forged = await fetch(`${emu.url}/Streaming/MainDB/${id}${"A".repeat(signature.length)}${extension}`);
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { messages: { code: string }[] }).messages[0]!.code).toBe("952");
    // Another file's signature does not open this one.
    const other = nameOf(await uploadedUrl());
    expect((await fetch(`${emu.url}/Streaming/MainDB/${id}${other.signature}${extension}`)).status).toBe(401);
  });

  it.each([".", ".."])("a file named %j: its URL still serves the bytes (no dot segment in it for fetch to collapse)", async (filename) => {
    const url = await uploadedUrl(filename);
    expect(nameOf(url).extension).toBe("");
    const res = await downloadContainer(url);
    expect(res.status).toBe(200);
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([1, 2, 3]);
  });

  it("a live session's Bearer token opens the URL with no cookie; a logged-out token is sent the cookie's 302", async () => {
    const url = await uploadedUrl();
    const token = await tokenFor();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, redirect: "manual" });
    expect(res.status).toBe(200);
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([1, 2, 3]);
    await fetch(`${emu.url}/fmi/data/vLatest/databases/${DATABASE}/sessions/${token}`, { method: "DELETE" });
    expect((await fetch(url, { headers: { authorization: `Bearer ${token}` }, redirect: "manual" })).status).toBe(302);
  });

  it("an unknown container id is refused the same way as a forged name (no probing)", async () => {
    expect((await fetch(`${emu.url}/Streaming/MainDB/${"0".repeat(64)}.bin`)).status).toBe(401);
  });
});

describe("body caps", () => {
  it("a chunked upload past maxUploadBytes is refused at the limit while it streams (413), never buffered whole", async () => {
    const token = await tokenFor();
    const fm = connect(emu.url);
    const { recordId } = await fm.layout(Types).create({ fieldData: {} });
    await fm.close();
    const path = `/fmi/data/vLatest/databases/${DATABASE}/layouts/${encodeURIComponent("Types Web")}/records/${recordId}/containers/File/1`;
    const result = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
      let sent = 0;
      const req = httpRequest(`${emu.url}${path}`, { method: "POST", agent: false, headers: { authorization: `Bearer ${token}`, "content-type": "multipart/form-data; boundary=x", "transfer-encoding": "chunked" } }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, sent }));
      });
      req.on("error", reject);
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      // Up to 2 MiB, but stop as soon as the answer arrives.
      let answered = false;
      req.on("response", () => (answered = true));
      const pump = () => {
        while (!answered && sent < 2 * 1024 * 1024) {
          sent += chunk.byteLength;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        req.end();
      };
      pump();
    });
    expect(result.status).toBe(413);
    // readBody counts while reading and stops keeping bytes at the limit; the rest is discarded unread
    // (up to 64 MiB, past which the connection is cut), so the answer comes once the client stops sending.
    expect(result.sent).toBeGreaterThan(64 * 1024);
  });
});

describe("credentials over plain http", () => {
  it('warns once per client for a non-loopback http:// host, never with the password; "refuse" throws; "allow" and loopback are silent', async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      const fm = createClient({ server: "http://fms.example.com", database: DATABASE, auth: { username: USERNAME, password: "pa55-SECRET" } });
      expect(warn).toHaveBeenCalledTimes(1);
      const [message, options] = warn.mock.calls[0]! as [string, { code: string }];
      expect(message).toMatch(/fms\.example\.com/);
      expect(message).not.toContain("pa55-SECRET");
      expect(options.code).toBe("FMGEN_INSECURE_TRANSPORT");
      fm.layout(Contact);
      expect(warn).toHaveBeenCalledTimes(1);
      await fm.close().catch(() => undefined);

      createClient({ server: "http://fms.example.com", database: DATABASE, auth: { token: "tok-SECRET" } });
      expect(warn).toHaveBeenCalledTimes(2);
      expect(String(warn.mock.calls[1]![0])).not.toContain("tok-SECRET");

      expect(() => createClient({ server: "http://10.0.0.5:8080", database: DATABASE, auth: { username: "u", password: "p" }, insecure: "refuse" })).toThrow(/unencrypted/);
      for (const server of ["http://127.0.0.1:1", "http://localhost:1", "http://[::1]:1", "https://fms.example.com"]) {
        createClient({ server, database: DATABASE, auth: { username: "u", password: "p" }, insecure: "refuse" });
      }
      createClient({ server: "http://fms.example.com", database: DATABASE, auth: { username: "u", password: "p" }, insecure: "allow" });
      expect(warn).toHaveBeenCalledTimes(2);
    } finally {
      warn.mockRestore();
    }
  });

  it("the emulator binds loopback by default", () => {
    expect(new URL(emu.url).hostname).toBe("127.0.0.1");
  });
});

describe('"." and ".." never reach a request path', () => {
  // URL parsers (fetch's, undici's fetch, a proxy's, the server's) read "." and ".." segments, and their %2e forms, as
  // steps: `layout.get(".")` read the list endpoint, a pathPrefix "/otto/.." went around the proxy. Each is refused
  // before anything is sent.
  const dots = [".", ".."];
  let fake: Awaited<ReturnType<typeof startFakeServer>>;
  const clients: FileMakerClient[] = [];
  beforeAll(async () => {
    fake = await startFakeServer(() => ({ status: 200, body: envelope({ modId: "1", recordId: "1" }) }));
  });
  afterAll(async () => {
    for (const fm of clients) await fm.close();
    await fake.close();
  });
  const client = (overrides: Parameters<typeof connect>[1] = {}) => {
    const fm = connect(fake.url, { retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 }, ...overrides });
    clients.push(fm);
    return fm;
  };
  /** `run`'s error, and that no request (not even a login) went out for it. */
  async function refused(run: () => unknown): Promise<string> {
    const before = fake.requests.length + fake.sessionRequests.length;
    const error = await Promise.resolve().then(run).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(fake.requests.length + fake.sessionRequests.length).toBe(before);
    expect(error).toBeInstanceOf(TypeError);
    return error!.message;
  }
  const Dotted = (field: string) => ({ ...Contact, fields: { ...Contact.fields, [field]: { type: "container" } } }) as unknown as typeof Contact;

  it.each(dots)("a layout named %j", async (name) => {
    const fm = client();
    expect(await refused(() => fm.layout({ ...Contact, layout: name }))).toBe(`layout: layout "${name}" cannot be a URL path segment`);
    expect(await refused(() => fm.runScript(name, "Go"))).toBe(`runScript: layout "${name}" cannot be a URL path segment`);
    expect(await refused(() => layoutMetadata(fm, name))).toBe(`layoutMetadata: layout "${name}" cannot be a URL path segment`);
    expect(await refused(() => wireRecords(fm, name))).toBe(`wireRecords: layout "${name}" cannot be a URL path segment`);
  });

  it.each([...dots, "%2e", "%2E%2e", "1/..", "", " 1", "1.5", "-1", "x"])("a record id %j", async (id) => {
    const contacts = client().layout(Contact);
    const got = JSON.stringify(id);
    expect(await refused(() => contacts.get(id))).toBe(`get: recordId must be a whole number, got ${got}`);
    expect(await refused(() => contacts.edit(id, { fieldData: {} }))).toBe(`edit: recordId must be a whole number, got ${got}`);
    expect(await refused(() => contacts.delete(id))).toBe(`delete: recordId must be a whole number, got ${got}`);
    expect(await refused(() => contacts.duplicate(id))).toBe(`duplicate: recordId must be a whole number, got ${got}`);
    expect(await refused(() => contacts.upload(id, "Photo", new Uint8Array([1])))).toBe(`upload: recordId must be a whole number, got ${got}`);
    expect(await refused(() => contacts.portalRows(id, "Invoices")[Symbol.asyncIterator]().next())).toBe(`get: recordId must be a whole number, got ${got}`);
  });

  it.each(dots)("a script or a container field named %j", async (name) => {
    const fm = client();
    expect(await refused(() => fm.runScript(Contact, name))).toBe(`runScript: script "${name}" cannot be a URL path segment`);
    expect(await refused(() => fm.layout(Dotted(name)).upload(1, name as never, new Uint8Array([1])))).toBe(`upload: field "${name}" cannot be a URL path segment`);
  });

  it.each(dots)("a database named %j", async (name) => {
    expect(await refused(() => client({ database: name }))).toBe(`createClient: database "${name}" cannot be a URL path segment`);
  });

  it.each(dots)("a session token %j is never put in the logout path", async (token) => {
    const fm = connect(fake.url, { auth: { token } });
    expect(await refused(() => fm.logout())).toBe(`logout: token "${token}" cannot be a URL path segment`);
    // A failed logout keeps its token (it may be ended later): close() tries again, refused the same way.
    expect(await refused(() => fm.close())).toBe(`logout: token "${token}" cannot be a URL path segment`);
  });

  it.each([
    ["/otto/..", ".."],
    ["/otto/.", "."],
    ["/otto/%2e%2E", "%2e%2E"],
    ["/../otto", ".."],
    ["/otto/.%2e/x", ".%2e"],
  ])("a pathPrefix %j", async (pathPrefix, step) => {
    expect(await refused(() => client({ auth: { apiKey: "k", pathPrefix } }))).toBe(`createClient: auth.pathPrefix or version segment "${step}" cannot be a URL path segment`);
  });

  it.each(dots)("a version %j (a JavaScript caller's: the type allows v1, v2 and vLatest)", async (version) => {
    expect(await refused(() => client({ version: version as "v1" }))).toBe("createClient: options.version must be one of v1|v2|vLatest, got string");
  });

  it("names with dots that are not steps are sent, encoded", async () => {
    const fm = client();
    await fm.layout({ ...Contact, layout: "..." }).delete(7);
    await fm.layout(Dotted(".a")).upload(7, ".a" as never, new Uint8Array([1]));
    await fm.runScript("a..", "..b").catch(() => undefined);
    expect(fake.requests.slice(-3).map((r) => r.url.replace(/^\/fmi\/data\/vLatest\/databases\/Contacts/, ""))).toEqual([
      "/layouts/.../records/7",
      "/layouts/Contacts%20Web/records/7/containers/.a/1",
      "/layouts/a../script/..b",
    ]);
  });
});
