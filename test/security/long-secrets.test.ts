import type { IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, FileMakerError, type ClientOptions } from "../../src/runtime/index.js";
import { createODataClient, ODataError, type ODataAuth } from "../../src/runtime/odata/index.js";
import { listenLoopback, type LoopbackServer } from "../support/loopback-server.js";
import { everythingIn, failure } from "./redaction-support.js";
import { envelope } from "../support/runtime-emulator.js";
import { Contacts } from "../runtime/odata/support.js";
import { Contact, DATABASE } from "../support/runtime-layouts.js";

// Redaction must never throw, whatever the secrets: 40,000 characters (one pattern of every secret's forms was past
// what a regular expression may hold, and every failing call threw a SyntaxError instead of the server's error), many
// long ones, or a lone surrogate (which has no percent-encoded form). The server here echoes the request's
// Authorization header, decoded, into its error, so each test also checks that the long secret is still taken out.

const LONG = "k".repeat(40_000);
const LONE = "pw-\uD800-lone-surrogate-secret";

/** The request's credentials as a debugging proxy quotes them: the header (a Basic pair decoded), an OAuth identifier, the body. */
function echoOf(req: IncomingMessage, body: string): string {
  const header = req.headers.authorization ?? "";
  const basic = /^Basic (.*)$/.exec(header);
  return `authorization: ${header}${basic ? ` (${Buffer.from(basic[1]!, "base64").toString()})` : ""} ${req.headers["x-fm-data-oauth-identifier"] ?? ""} ${body}`;
}

let server: LoopbackServer;
let url: string;
beforeAll(async () => {
  // Headers of 40,000-character credentials are past Node's default limit of 16 KB.
  server = await listenLoopback({ maxHeaderSize: 1 << 20 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      if (req.url!.startsWith("/fmi/odata/")) {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: "-1002", message: `cannot serve ${echoOf(req, body)}` } }));
        return;
      }
      res.writeHead(401, { "content-type": "application/json" });
      res.end(envelope({}, req.method === "POST" ? "212" : "952", `cannot serve ${echoOf(req, body)}`));
    });
  });
  url = server.url;
});
afterAll(() => server.close());

function expectRedacted(error: Error, secrets: readonly string[]): void {
  const text = everythingIn(error);
  // Any 32 characters of a secret would be a leak; each secret here is that long at least.
  for (const secret of secrets) expect(text.includes(secret.slice(0, 32)), `a secret of ${secret.length} characters leaked`).toBe(false);
  expect(error.message).toContain("[redacted]");
}

describe("the Data API client", () => {
  const dataApi = (overrides: Partial<ClientOptions>) => createClient({ server: url, database: DATABASE, auth: { username: "web", password: "pw" }, retry: { retries: 0 }, ...overrides });

  it.each([
    ["a password of 40,000 characters", { auth: { username: "web", password: LONG } }, [LONG]],
    ["an OAuth identifier of 40,000 characters", { auth: { oauth: { requestId: "r1", identifier: LONG } } }, [LONG]],
    ["a password holding a lone surrogate", { auth: { username: "web", password: LONE } }, []],
    ["three data sources' passwords of 33,000 characters each", { fmDataSource: [1, 2, 3].map((i) => ({ database: `Other${i}`, username: "ds", password: `${i}`.padStart(33_000, "s") })) }, ["s".repeat(32_999)]],
  ] as const)("%s: a failing login answers with the server's error, the secret redacted", async (_what, overrides, echoed) => {
    const fm = dataApi(overrides as Partial<ClientOptions>);
    try {
      const error = await failure(() => fm.layout(Contact).get(1));
      expect(error).toBeInstanceOf(FileMakerError);
      expect((error as FileMakerError).code).toBe("212");
      expect(error.message).toMatch(/^POST \/databases\/Contacts\/sessions: FileMaker error 212: cannot serve authorization: /);
      expectRedacted(error, echoed);
    } finally {
      await fm.close();
    }
  });

  it("a given token of 40,000 characters: a failing call answers with the server's 952, the token redacted", async () => {
    const fm = dataApi({ auth: { token: LONG } });
    try {
      const error = await failure(() => fm.layout(Contact).get(1));
      expect(error).toBeInstanceOf(FileMakerError);
      expect((error as FileMakerError).code).toBe("952");
      expect((error as FileMakerError).serverMessage).toBe("cannot serve authorization: Bearer [redacted]  ");
      expectRedacted(error, [LONG]);
    } finally {
      await fm.close();
    }
  });
});

describe("the OData client", () => {
  it.each([
    ["an API key of 40,000 characters", { apiKey: LONG }, "Bearer [redacted]"],
    ["a password of 40,000 characters", { username: "web", password: LONG }, "Basic [redacted] (web:[redacted])"],
    ["a password holding a lone surrogate", { username: "web", password: LONE }, "Basic "],
  ] as const)("%s: a failing call answers with the server's error, the secret redacted", async (_what, auth, shown) => {
    const od = createODataClient({ server: url, database: "Office", auth: auth as ODataAuth, retry: { retries: 0 } });
    try {
      const error = await failure(() => od.table(Contacts).count());
      expect(error).toBeInstanceOf(ODataError);
      expect((error as ODataError).code).toBe("-1002");
      expect((error as ODataError).serverMessage).toContain(`cannot serve authorization: ${shown}`);
      expectRedacted(error, Object.values(auth).includes(LONG) ? [LONG] : []);
    } finally {
      await od.close();
    }
  });
});
