import type { IncomingMessage } from "node:http";
import type { Dispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, FileMakerError, NetworkError, ProtocolError, type ClientOptions } from "../../src/runtime/index.js";
import { listenLoopback } from "../support/loopback-server.js";
import { everythingIn, failure } from "./redaction-support.js";
import { envelope } from "../support/runtime-emulator.js";
import { transportOption } from "../support/runtime-entry.js";
import { Contact, DATABASE } from "../support/runtime-layouts.js";
import { layoutMetadata } from "../../src/runtime/metadata.js";

// A proxy (or a server) that echoes the request, headers and body, into its error page or into a FileMaker
// message must not get the session token or the Basic credentials into the error the app sees: not its message,
// stack, properties (bodyStart, serverMessage, call), causes at any depth, inspect() or JSON.

const USER = "leaktest";
const PASSWORD = "Pw-9f3Kq-NEVER-SHOW";
const PAIR = `${USER}:${PASSWORD}`;
const BASIC = Buffer.from(PAIR).toString("base64");
const TOKEN = "tok-SECRET-5e1f0c8a9b7d4e2f";
const SOURCE_PASSWORD = "ds-pass-ALSO-SECRET";
// The other sign-ins' secrets (docs/sessions.md, "Choosing a sign-in"): an OAuth identifier, Claris ID id tokens, a
// proxy's API key.
const OAUTH_IDENTIFIER = "oauth-ident-SECRET-3b8e";
const ID_TOKENS = ["eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1MSJ9.idtok-SECRET-1", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1MSJ9.idtok-SECRET-2"];
const API_KEY = "api-key-SECRET-c41f";
const SECRETS = {
  token: TOKEN,
  base64: BASIC,
  password: PASSWORD,
  pair: PAIR,
  sourcePassword: SOURCE_PASSWORD,
  oauthIdentifier: OAUTH_IDENTIFIER,
  idToken1: ID_TOKENS[0]!,
  idToken2: ID_TOKENS[1]!,
  apiKey: API_KEY,
};

/** What the proxy answers: an HTML page, a JSON envelope with `code`, for logins or for data calls. */
type Echo = { as: "html"; status: number; pad?: number } | { as: "envelope"; status: number; code: string } | { as: "metadata" };
let onLogin: Echo | undefined;
let onData: Echo | undefined;
let onLogout: Echo | undefined;

/** The request as a proxy's debug page shows it (every header: an OAuth identifier too): the credentials first, the request line, every header, the body. */
function echoOf(req: IncomingMessage, body: string): string {
  const credentials = /^Basic (.*)$/.exec(req.headers.authorization ?? "");
  return [
    ...(req.headers.authorization ? [`authorization: ${req.headers.authorization}${credentials ? ` (${Buffer.from(credentials[1]!, "base64").toString()})` : ""}`] : []),
    `${req.method} ${req.url}`,
    ...Object.entries(req.headers).map(([name, value]) => `${name}: ${String(value)}`),
    body,
  ].join("\n");
}

let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ url, close } = await listenLoopback((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const session = /\/sessions(\/[^/]*)?$/.test(req.url ?? "");
      const echo = session ? (req.method === "POST" ? onLogin : onLogout) : onData;
      if (!echo) {
        res.writeHead(200, { "content-type": "application/json", "x-fm-data-access-token": TOKEN });
        res.end(envelope(session ? { token: TOKEN } : { recordId: "1", modId: "0" }));
        return;
      }
      const text = echoOf(req, body);
      if (echo.as === "metadata") {
        // Layout metadata of the wrong shape, the request's authorization as a portal's name.
        res.writeHead(200, { "content-type": "application/json" });
        res.end(envelope({ fieldMetaData: [], portalMetaData: { [req.headers.authorization ?? ""]: 5 } }));
      } else if (echo.as === "html") {
        res.writeHead(echo.status, { "content-type": "text/html" });
        res.end(`${" ".repeat(echo.pad ?? 0)}<html><body><h1>502 Bad Gateway</h1><pre>${text}</pre></body></html>`);
      } else {
        res.writeHead(echo.status, { "content-type": "application/json" });
        res.end(envelope({}, echo.code, `cannot serve ${text}`));
      }
    });
  }));
});
afterAll(() => close());

function client(overrides: Partial<ClientOptions> = {}) {
  return createClient({
    server: url,
    database: DATABASE,
    auth: { username: USER, password: PASSWORD },
    fmDataSource: [{ database: "Other", username: "ds", password: SOURCE_PASSWORD }],
    retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 },
    ...overrides,
  });
}

function expectNoSecret(error: unknown): void {
  const text = everythingIn(error);
  for (const [name, secret] of Object.entries(SECRETS)) expect(text.includes(secret), `${name} leaked:\n${text}`).toBe(false);
  // The echo did reach the error: the test is not vacuous.
  expect(text).toContain("[redacted]");
}

describe("a proxy echoing the request into its error page", () => {
  it("login (Basic): HTML 502 is a ProtocolError without the credentials", async () => {
    onLogin = { as: "html", status: 502 };
    try {
      const error = await failure(() => client().layout(Contact).get(1));
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).bodyStart).toMatch(/^<html><body><h1>502 Bad Gateway<\/h1><pre>authorization: Basic \[redacted\] \(\[redacted\]\)\nPOST /);
      expectNoSecret(error);
    } finally {
      onLogin = undefined;
    }
  });

  it("login (Basic): a JSON envelope whose message echoes the request is a FileMakerError without the credentials", async () => {
    onLogin = { as: "envelope", status: 401, code: "212" };
    try {
      const error = await failure(() => client().layout(Contact).get(1));
      expect(error).toBeInstanceOf(FileMakerError);
      expect((error as FileMakerError).serverMessage).toContain("authorization: Basic [redacted]");
      expectNoSecret(error);
    } finally {
      onLogin = undefined;
    }
  });

  it("a data call (Bearer): HTML 502 is a ProtocolError without the token", async () => {
    onData = { as: "html", status: 502 };
    const fm = client();
    try {
      const error = await failure(() => fm.layout(Contact).get(1));
      expect(error).toBeInstanceOf(ProtocolError);
      expect(everythingIn(error)).toContain("Bearer [redacted]");
      expectNoSecret(error);
    } finally {
      onData = undefined;
      await fm.close();
    }
  });

  it("a data call: a token the quoted body start would cut in half is still redacted whole", async () => {
    // The token starts at character 106 of the page and runs past the 120 characters bodyStart keeps.
    const before = "<html><body><h1>502 Bad Gateway</h1><pre>authorization: Bearer ".length;
    onData = { as: "html", status: 502, pad: 106 - before };
    const fm = client();
    try {
      const error = (await failure(() => fm.layout(Contact).get(1))) as ProtocolError;
      expect(error.bodyStart).toHaveLength(120);
      for (let cut = 4; cut <= TOKEN.length; cut++) expect(error.bodyStart).not.toContain(TOKEN.slice(0, cut));
      expectNoSecret(error);
    } finally {
      onData = undefined;
      await fm.close();
    }
  });

  it("a data call: a FileMakerError whose server message echoes the token", async () => {
    onData = { as: "envelope", status: 500, code: "101" };
    const fm = client();
    try {
      const error = await failure(() => fm.layout(Contact).get(1));
      expect(error).toBeInstanceOf(FileMakerError);
      expect((error as FileMakerError).code).toBe("101");
      expectNoSecret(error);
    } finally {
      onData = undefined;
      await fm.close();
    }
  });

  it("a write and a logout answered by the echo", async () => {
    const fm = client();
    try {
      await fm.layout(Contact).list().catch(() => undefined); // logged in
      onData = { as: "envelope", status: 500, code: "509" };
      expectNoSecret(await failure(() => fm.layout(Contact).create({ fieldData: { "First Name": "x" } })));
      onLogout = { as: "html", status: 502 };
      expectNoSecret(await failure(() => fm.logout()));
    } finally {
      onData = undefined;
      onLogout = undefined;
      await fm.close().catch(() => undefined);
    }
  });

  it("layout metadata whose wrong shape sits under a name echoing the token", async () => {
    onData = { as: "metadata" };
    const fm = client();
    try {
      const error = await failure(() => layoutMetadata(fm, "Contacts Web"));
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error.message).toContain("unexpected shape at portalMetaData.Bearer [redacted]");
      expectNoSecret(error);
    } finally {
      onData = undefined;
      await fm.close();
    }
  });

  it("a token-only client (no login): the token is redacted", async () => {
    onData = { as: "envelope", status: 500, code: "101" };
    try {
      expectNoSecret(await failure(() => client({ auth: { token: TOKEN } }).layout(Contact).get(1)));
    } finally {
      onData = undefined;
    }
  });
});

describe("the other sign-ins' secrets, echoed", () => {
  it("OAuth: a login answer echoing the request leaves the identifier out", async () => {
    onLogin = { as: "envelope", status: 401, code: "212" };
    try {
      const error = await failure(() => client({ auth: { oauth: { requestId: "req-1", identifier: OAUTH_IDENTIFIER } } }).layout(Contact).get(1));
      expect((error as FileMakerError).serverMessage).toContain("x-fm-data-oauth-identifier: [redacted]");
      expectNoSecret(error);
    } finally {
      onLogin = undefined;
    }
  });

  it("Claris ID: logins refused with an echo (the first id token, then the one asked for again) show neither", async () => {
    onLogin = { as: "envelope", status: 401, code: "212" };
    let asked = 0;
    try {
      const error = await failure(() => client({ auth: { claris: async () => ID_TOKENS[asked++]! } }).layout(Contact).get(1));
      expect(asked).toBe(2);
      expect((error as FileMakerError).serverMessage).toContain("authorization: FMID [redacted]");
      expectNoSecret(error);
    } finally {
      onLogin = undefined;
    }
  });

  it("Claris ID: an HTML page echoing the login leaves the id token out", async () => {
    onLogin = { as: "html", status: 502 };
    try {
      const error = await failure(() => client({ auth: { claris: async () => ID_TOKENS[0]! } }).layout(Contact).get(1));
      expect(error).toBeInstanceOf(ProtocolError);
      expectNoSecret(error);
    } finally {
      onLogin = undefined;
    }
  });

  it("API key: a data call's echo leaves the key out", async () => {
    onData = { as: "html", status: 502 };
    try {
      const error = await failure(() => client({ auth: { apiKey: API_KEY, pathPrefix: "/proxy" } }).layout(Contact).get(1));
      expect(everythingIn(error)).toContain("Bearer [redacted]");
      expectNoSecret(error);
    } finally {
      onData = undefined;
    }
  });

  it("API key: a FileMaker error whose message echoes the key", async () => {
    onData = { as: "envelope", status: 401, code: "952" };
    try {
      const error = await failure(() => client({ auth: { apiKey: API_KEY } }).layout(Contact).get(1));
      expect((error as FileMakerError).code).toBe("952");
      expectNoSecret(error);
    } finally {
      onData = undefined;
    }
  });
});

describe("causes", () => {
  /** A dispatcher that logs in, then fails every data call with an error that quotes its Authorization header, nested. */
  function echoingDispatcher(): Dispatcher {
    return {
      dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) {
        const headers = options.headers as Record<string, string>;
        if (String(options.path).endsWith("/sessions")) {
          const controller = { abort() {}, pause() {}, resume() {}, aborted: false, paused: false, reason: null } as unknown as Dispatcher.DispatchController;
          handler.onRequestStart?.(controller, {});
          handler.onResponseStart?.(controller, 200, { "content-type": "application/json" }, "OK");
          handler.onResponseData?.(controller, Buffer.from(envelope({ token: TOKEN })));
          handler.onResponseEnd?.(controller, {});
          return true;
        }
        const auth = headers.authorization;
        throw echoingFault(auth!, headers);
      },
    } as unknown as Dispatcher;
  }

  /** The same as a `fetch` (the fetch entry's transport): it rejects, as fetch does, with the echo nested in causes. */
  function echoingFetch(): typeof fetch {
    return async (url, init) => {
      const headers = init?.headers as Record<string, string>;
      if (String(url).endsWith("/sessions")) return new Response(envelope({ token: TOKEN }), { headers: { "content-type": "application/json" } });
      throw new TypeError("fetch failed", { cause: echoingFault(headers.authorization!, headers) });
    };
  }

  function echoingFault(auth: string, headers: Record<string, string>): Error {
    const inner = Object.assign(new Error(`socket said ${auth}`), { code: "ECONNRESET", request: { headers: { ...headers }, echo: [`${auth}`] } });
    return new Error(`request failed with ${auth}`, { cause: new AggregateError([inner], `all failed: ${auth}`, { cause: inner }) });
  }

  it("an error the connection reports, quoting the header in nested causes, is a NetworkError without the token", async () => {
    const fm = client({ ...transportOption({ dispatcher: echoingDispatcher, fetch: echoingFetch }), retry: { retries: 0 } });
    const error = await failure(() => fm.layout(Contact).get(1));
    expect(error).toBeInstanceOf(NetworkError);
    expect(everythingIn(error)).toContain("socket said Bearer [redacted]");
    expectNoSecret(error);
  });
});
