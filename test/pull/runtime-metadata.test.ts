import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { createClient, DatabaseMissingError, FileMakerError, LayoutMissingError, ProtocolError, type FileMakerClient } from "../../src/runtime/index.js";
import { listenLoopback } from "../support/loopback-server.js";
import { EXAMPLES, memoryIo, PULL_PASSWORD, PULL_USER, startExampleEmulator, type Emulator } from "./helpers.js";
import { layoutMetadata, odataMetadata, wireRecords } from "../../src/runtime/metadata.js";
import { createODataClient, NetworkError, ResponseTooLargeError } from "../../src/runtime/odata/index.js";

// The runtime's metadata calls (fm.layouts, and @fmgen/runtime/metadata's layoutMetadata and wireRecords) go through
// the client's shared session: one login, a re-login on 952, typed errors. And the emulator's `metadata: false`.
// odataMetadata goes over an OData client's carrier: its credentials, bounds and redirect policy.

const connect = (server: string, database = "Contacts"): FileMakerClient => createClient({ server, database, auth: { username: PULL_USER, password: PULL_PASSWORD } });

describe("fm.layouts / layoutMetadata(fm) / wireRecords(fm)", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startExampleEmulator("contacts");
  });
  afterAll(() => emu.close());

  it("read the layout list, a layout's metadata and undecoded records over one session, and log out", async () => {
    const fm = connect(emu.url);
    const before = emu.stats().logins;
    expect(await fm.layouts()).toEqual([
      { name: "Contacts Web", table: "Contacts" },
      { name: "Invoices Web", table: "Invoices" },
    ]);
    const meta = await layoutMetadata(fm, "Contacts Web");
    expect(meta.fieldMetaData.find((f) => f.name === "Phone")).toMatchObject({ type: "normal", result: "text", maxRepeat: 3, notEmpty: false, global: false, autoEnter: false });
    expect(meta.fieldMetaData.find((f) => f.name === "Status")?.valueList).toBe("Statuses");
    expect(meta.valueLists).toEqual([{ name: "Statuses", type: "customList", values: [{ value: "Active", displayValue: "Active" }, { value: "Inactive", displayValue: "Inactive" }] }]);
    expect(Object.keys(meta.portalMetaData)).toEqual(["Invoices"]);
    const page = await wireRecords(fm, "Contacts Web", { limit: 2 });
    expect(page.data).toHaveLength(2);
    expect(page.data[0]!.fieldData).toMatchObject({ "First Name": "Ada", Birthday: "12/10/1815", "Phone(3)": "555-0199", Photo: "" });
    expect(page.data[0]!.portalData.Invoices![0]).toMatchObject({ "Invoices::Amount": 120.5, "Invoices::Issued": "01/15/2024" });
    expect(page.dataInfo).toMatchObject({ table: "Contacts", foundCount: 4, returnedCount: 2 });
    expect(await wireRecords(fm, "Contacts Web", { offset: 99 })).toEqual({ data: [] });
    expect(emu.stats().logins - before).toBe(1);
    await fm.close();
    expect(emu.stats().activeSessions).toBe(0);
  });

  it("log in again once when the token expired (952)", async () => {
    const fm = connect(emu.url);
    await fm.layouts();
    const before = emu.stats().logins;
    emu.advanceTime(16 * 60_000);
    expect((await layoutMetadata(fm, "Invoices Web")).fieldMetaData.map((f) => f.name)).toEqual(["id", "ContactID", "Amount", "Issued", "Paid"]);
    expect(emu.stats().logins - before).toBe(1);
    await fm.close();
  });

  it("throw typed errors that name the call but never the token", async () => {
    const fm = connect(emu.url);
    const missing = await layoutMetadata(fm, "Nope").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(LayoutMissingError);
    expect((missing as LayoutMissingError).call).toEqual({ method: "GET", path: "/databases/Contacts/layouts/Nope" });
    await expect(wireRecords(fm, "Nope")).rejects.toBeInstanceOf(LayoutMissingError);
    await fm.close();
    await expect(connect(emu.url, "Nowhere").layouts()).rejects.toBeInstanceOf(DatabaseMissingError);
  });
});

describe("the emulator's layout metadata", () => {
  it("says what each layout's own description says, when two descriptions show one table field with different options", async () => {
    // examples/invoices: Invoices::Number is required and Status has a value list on "Invoice Detail", neither in the
    // "Customers" portal. Records are validated with the options combined; each layout's metadata reads back as its description.
    const emu = await startExampleEmulator("invoices");
    const fm = createClient({ server: emu.url, database: "Invoicing", auth: { username: PULL_USER, password: PULL_PASSWORD } });
    try {
      const detail = await layoutMetadata(fm, "Invoice Detail");
      expect(detail.fieldMetaData.find((f) => f.name === "Number")).toMatchObject({ notEmpty: true });
      expect(detail.fieldMetaData.find((f) => f.name === "Status")?.valueList).toBe("Invoice Statuses");
      const customers = await layoutMetadata(fm, "Customers");
      const portal = customers.portalMetaData.Invoices!;
      expect(portal.find((f) => f.name === "Invoices::Number")).toMatchObject({ notEmpty: false });
      expect(portal.find((f) => f.name === "Invoices::Status")?.valueList).toBeUndefined();
      // The server answers no valueLists key for a layout without value lists (as a real one does): read as none.
      expect(customers.valueLists).toEqual([]);
    } finally {
      await fm.close();
      await emu.close();
    }
  });
});

describe("an emulator started with metadata: false", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startExampleEmulator("contacts", { metadata: false });
  });
  afterAll(() => emu.close());

  it("answers both metadata endpoints as an unknown resource (404, code 1630) and everything else as before", async () => {
    const base = `${emu.url}/fmi/data/vLatest/databases/Contacts`;
    const login = await fetch(`${base}/sessions`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`${PULL_USER}:${PULL_PASSWORD}`).toString("base64")}`, "content-type": "application/json" },
      body: "{}",
    });
    const token = ((await login.json()) as { response: { token: string } }).response.token;
    const get = async (path: string) => {
      const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, code: ((await res.json()) as { messages: { code: string }[] }).messages[0]!.code };
    };
    expect(await get("/layouts")).toEqual({ status: 404, code: "1630" });
    expect(await get(`/layouts/${encodeURIComponent("Contacts Web")}`)).toEqual({ status: 404, code: "1630" });
    expect(await get(`/layouts/${encodeURIComponent("Contacts Web")}/records?_limit=1`)).toEqual({ status: 200, code: "0" });

    const fm = connect(emu.url);
    const error = await fm.layouts().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileMakerError);
    expect((error as FileMakerError).code).toBe("1630");
    await fm.close();
  });

  it("is what `fmgen serve --no-metadata` starts", async () => {
    let stop!: () => void;
    const io = memoryIo({ stopSignal: () => new Promise<void>((resolve) => (stop = resolve)) });
    const done = run(["serve", "--layouts", join(EXAMPLES, "contacts/layouts"), "--account", `${PULL_USER}:${PULL_PASSWORD}`, "--no-metadata"], io);
    await expect.poll(() => io.out.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const fm = connect(io.out[0]!);
    await expect(fm.layouts()).rejects.toMatchObject({ code: "1630", httpStatus: 404 });
    await fm.close();
    stop();
    expect(await done).toBe(0);
  });
});

describe("a metadata answer of the wrong shape", () => {
  it("is a clear error naming the call and the place", async () => {
    const server = await listenLoopback((req, res) => {
      res.setHeader("content-type", "application/json");
      if (req.method === "POST") res.setHeader("x-fm-data-access-token", "t0k3n");
      const response = req.method === "POST" ? { token: "t0k3n" } : req.method === "DELETE" ? {} : { fieldMetaData: [{ name: 5 }] };
      res.end(JSON.stringify({ response, messages: [{ code: "0", message: "OK" }] }));
    });
    const fm = connect(server.url);
    try {
      const error = (await layoutMetadata(fm, "L").catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error.message).toMatch(/^GET \/databases\/Contacts\/layouts\/L: HTTP 200 answer breaks the protocol: the layout metadata has an unexpected shape at fieldMetaData\.0\.name: /);
      expect(error.message).not.toContain("t0k3n");
    } finally {
      await fm.close();
      await server.close();
    }
  });
});

describe("odataMetadata(od)", () => {
  const secret = "pw-7f3e-secret";
  it("GETs $metadata over the client's carrier, signed in, and gives any answer as it came: a redirect is never followed", async () => {
    const seen: { url: string | undefined; authorization: string | undefined; accept: string | undefined }[] = [];
    let answer = { status: 200, headers: { "content-type": "application/xml" } as Record<string, string>, body: "<edmx:Edmx/>" };
    const server = await listenLoopback((req, res) => {
      seen.push({ url: req.url, authorization: req.headers.authorization, accept: req.headers.accept });
      res.writeHead(answer.status, answer.headers).end(answer.body);
    });
    const od = createODataClient({ server: server.url, database: "Office", auth: { username: "web", password: secret } });
    try {
      expect(await odataMetadata(od)).toEqual({ status: 200, headers: expect.objectContaining({ "content-type": "application/xml" }), text: "<edmx:Edmx/>" });
      expect(seen).toEqual([{ url: "/fmi/odata/v4/Office/$metadata", authorization: `Basic ${Buffer.from(`web:${secret}`).toString("base64")}`, accept: "application/xml" }]);
      answer = { status: 302, headers: { location: "https://elsewhere.example/login" }, body: "" };
      expect(await odataMetadata(od)).toMatchObject({ status: 302, headers: { location: "https://elsewhere.example/login" }, text: "" });
      answer = { status: 401, headers: { "content-type": "application/json" }, body: '{"error":{"code":"212","message":"no"}}' };
      expect(await odataMetadata(od)).toMatchObject({ status: 401, text: '{"error":{"code":"212","message":"no"}}' });
      expect(seen).toHaveLength(3);
    } finally {
      await od.close();
      await server.close();
    }
  });

  it("refuses a body past maxResponseBytes, one that is not UTF-8, and says a refused connection without the password", async () => {
    let body: Buffer = Buffer.from("<a/>".repeat(100));
    const server = await listenLoopback((_req, res) => res.writeHead(200, { "content-type": "application/xml" }).end(body));
    const od = createODataClient({ server: server.url, database: "Office", auth: { username: "web", password: secret }, maxResponseBytes: 64 });
    try {
      await expect(odataMetadata(od)).rejects.toBeInstanceOf(ResponseTooLargeError);
      body = Buffer.from([0x3c, 0x61, 0xff, 0x3e]);
      await expect(odataMetadata(od)).rejects.toThrow(new ProtocolError(200, "", { method: "GET", path: "/$metadata" }, "is not UTF-8 text"));
    } finally {
      await od.close();
      await server.close();
    }
    const gone = createODataClient({ server: server.url, database: "Office", auth: { username: "web", password: secret }, retry: { retries: 0 } });
    const error = (await odataMetadata(gone).catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/^GET \/\$metadata: network fault ECONNREFUSED/);
    expect(error.message).not.toContain(secret);
  });

  it("takes only a client made by createODataClient", async () => {
    await expect(odataMetadata({} as never)).rejects.toThrow("odataMetadata: od must be a client made by createODataClient of @fmgen/runtime/odata");
  });
});
