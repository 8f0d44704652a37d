import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator/index.js";
import { startConformanceEmulator, type Emulator } from "../support/conformance-emulator.js";
import { basic, CONFORMANCE_LAYOUTS, CONTACTS, DataApi, DB, expectOk, p, PASSWORD, USER } from "../support/data-api-http.js";
import { rawHttp, type RawAnswer } from "../support/raw-http.js";

// The emulator answers only the hosts it serves (docs/emulator.md, Security): a page of another origin whose DNS name
// now points at 127.0.0.1 (DNS rebinding) sends its own name as Host, and must not drive the emulator. Served: the
// loopback names localhost, 127.0.0.1 and [::1] (any port: a loopback proxy forwards the Host it was reached by),
// the bound address, and the names given as allowedHosts / --allowed-host. Anything else: HTTP 421 with the Data
// API envelope, code 1630, and nothing is done. Raw requests, since fetch cannot set Host.

const CAN_BIND_127_0_0_2 = await canBind("127.0.0.2");

let emu: Emulator;
let api: DataApi;
let allowing: Emulator;
let token: string;
let port: string;

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator());
  allowing = await startEmulator({ layouts: [CONFORMANCE_LAYOUTS], accounts: [{ username: USER, password: PASSWORD }], allowedHosts: ["fm.example.com", "10.0.0.7", "::2"] });
  token = await api.login();
  port = new URL(emu.url).port;
});
afterAll(async () => {
  await emu.close();
  await allowing.close();
});

const V = "/fmi/data/vLatest";
const RECORDS = `${V}${p`/databases/${DB}/layouts/${CONTACTS}/records`}`;
const productInfo = (server: Emulator, host: string) => rawHttp(server.url, "GET", `${V}/productInfo`, { Host: host });

function expectMisdirected(res: RawAnswer): void {
  expect({ status: res.status, code: res.code }, res.text).toEqual({ status: 421, code: "1630" });
  expect(res.body.messages[0].message).toMatch(/the Host header names a host this emulator does not serve/);
}

describe("Host: the names the emulator serves", () => {
  it.each(["127.0.0.1:PORT", "localhost:PORT", "LOCALHOST:PORT", "[::1]:PORT", "localhost", "127.0.0.1:8080", "[0:0:0:0:0:0:0:1]:PORT"])("Host: %s is served", async (host) => {
    expectOk(toResult(await productInfo(emu, host.replace("PORT", port))));
  });

  it.each(["fm.example.com", "FM.Example.COM:8443", "10.0.0.7:80", "[::2]:1234", "localhost:9"])("with allowedHosts, Host: %s is served", async (host) => {
    expectOk(toResult(await productInfo(allowing, host)));
  });

  it("a request naming no host (HTTP/1.0 without Host) is served", async () => {
    const res = await rawHttp10(emu, `${RECORDS}/1`, { Authorization: `Bearer ${token}` });
    expect(res.status, res.text).toBe(200);
  });
});

describe("Host: any other name is 421 / 1630, and nothing is done", () => {
  const FOREIGN = [
    "evil.example",
    "evil.example:PORT",
    "localhost.evil.example:PORT",
    "127.0.0.1.nip.io:PORT",
    "fm.example.com",
    "[::2]:PORT",
    "10.0.0.7",
    "evil.example/x",
    "user@localhost",
    "localhost:PORT:1",
    "local host",
  ];

  it.each(FOREIGN)("Host: %s: productInfo, a list and a container URL are 421", async (raw) => {
    const host = raw.replace("PORT", port);
    expectMisdirected(await productInfo(emu, host));
    expectMisdirected(await rawHttp(emu.url, "GET", `${RECORDS}?_limit=1`, { Host: host, Authorization: `Bearer ${token}` }));
    expectMisdirected(await rawHttp(emu.url, "GET", `/Streaming/MainDB/${"0".repeat(64)}.png?RCType=EmbeddedRCFileProcessor`, { Host: host }));
  });

  it("a login, a create and a delete under a foreign Host do nothing", async () => {
    const host = `rebound.evil.example:${port}`;
    const { logins, records } = emu.stats();
    expectMisdirected(await rawHttp(emu.url, "POST", `${V}${p`/databases/${DB}/sessions`}`, { Host: host, Authorization: basic(USER, PASSWORD), "Content-Type": "application/json", "Content-Length": "2" }, "{}"));
    const body = JSON.stringify({ fieldData: { "First Name": "Rebound" } });
    expectMisdirected(await rawHttp(emu.url, "POST", RECORDS, { Host: host, Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Content-Length": String(body.length) }, body));
    expectMisdirected(await rawHttp(emu.url, "DELETE", `${RECORDS}/1`, { Host: host, Authorization: `Bearer ${token}` }));
    expect(emu.stats().logins).toBe(logins);
    expect(emu.stats().records).toEqual(records);
    expectOk(await api.get(token, CONTACTS, "1"));
  });
});

describe("allowedHosts is checked when the emulator starts", () => {
  it.each([["a port", "fm.example.com:8443"], ["a scheme", "http://fm.example.com"], ["a path", "fm.example.com/x"], ["nothing", ""], ["a space", "fm example.com"], ["not a string", 42]])(
    "an entry with %s stops the start",
    async (_label, entry) => {
      await expect(startEmulator({ layouts: [CONFORMANCE_LAYOUTS], allowedHosts: [entry as string] })).rejects.toThrow(/allowedHosts\[0\] must be a host name or an IP address without a port/);
    },
  );

  // 127.0.0.2 is on Linux's loopback interface, not on macOS's unless aliased.
  it.runIf(CAN_BIND_127_0_0_2)("the bound address is served without being listed", async () => {
    const bound = await startEmulator({ layouts: [CONFORMANCE_LAYOUTS], host: "127.0.0.2" });
    try {
      expectOk(toResult(await productInfo(bound, `127.0.0.2:${new URL(bound.url).port}`)));
    } finally {
      await bound.close();
    }
  });
});

async function canBind(address: string): Promise<boolean> {
  const { createServer } = await import("node:net");
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(0, address, () => server.close(() => resolve(true)));
  });
}

/** A raw answer as the helpers' HttpResult, for expectOk. */
function toResult(res: RawAnswer) {
  return { status: res.status, code: res.code, isEnvelope: res.body !== undefined && Array.isArray(res.body.messages), body: res.body, text: res.text, headers: new Headers() };
}

/** An HTTP/1.0 request with no Host header. */
async function rawHttp10(server: Emulator, path: string, headers: Record<string, string>): Promise<RawAnswer> {
  const { connect } = await import("node:net");
  const { hostname, port: p10 } = new URL(server.url);
  const lines = [`GET ${path} HTTP/1.0`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(p10), hostname);
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0), headers: {}, setCookies: [], text: text.slice(split + 4), code: undefined, body: undefined });
    });
    socket.on("connect", () => socket.write(`${lines.join("\r\n")}\r\n\r\n`));
  });
}

describe("fmgen serve --allowed-host", () => {
  it("serves the names given (repeatable) besides the loopback ones; another Host is 421; a name with a port stops it (exit 1)", async () => {
    const { run } = await import("../../src/cli/run.js");
    let stop!: () => void;
    const out: string[] = [];
    const err: string[] = [];
    const done = run(["serve", "--layouts", CONFORMANCE_LAYOUTS, "--allowed-host", "fm.example.com", "--allowed-host", "lan-box"], {
      stdout: (l) => out.push(l),
      stderr: (l) => err.push(l),
      stopSignal: () => new Promise<void>((resolve) => (stop = resolve)),
    });
    await expect.poll(() => out.length, { timeout: 30_000 }).toBeGreaterThan(0);
    try {
      const served = { url: out[0]! } as Emulator;
      for (const host of ["fm.example.com:443", "lan-box", `localhost:${new URL(out[0]!).port}`]) expectOk(toResult(await productInfo(served, host)));
      expectMisdirected(await productInfo(served, "evil.example"));
    } finally {
      stop();
      expect(await done).toBe(0);
    }
    const failed = await run(["serve", "--layouts", CONFORMANCE_LAYOUTS, "--allowed-host", "fm.example.com:8443"], { stdout: () => {}, stderr: (l) => err.push(l), stopSignal: () => new Promise(() => {}) });
    expect(failed).toBe(1);
    expect(err.join("\n")).toMatch(/allowedHosts\[0\] must be a host name/);
  });
});
