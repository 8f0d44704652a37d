import { describe, expect, it } from "vitest";
import type { IncomingMessage } from "node:http";
import { BODY_BYTES, noteRequestBody, RequestLog } from "../../../src/emulator/http/request-log.js";
import { redactBody, redactHeaders, redactTarget } from "../../../src/emulator/inspector/redact.js";

// The inspector's redaction (docs/inspector.md, "How secrets are removed") on what the end-to-end tests cannot easily
// send: a body cut in the middle of a secret, a $batch part's headers, inline container bytes, secret query names.

const json = (text: string) => ({ type: "application/json", size: Buffer.byteLength(text), bytes: Buffer.from(text).subarray(0, BODY_BYTES) });

describe("bodies", () => {
  it("shows a body's text as it was sent, letters outside ASCII included, from what the log keeps of it", () => {
    const log = new RequestLog(4);
    const req = { method: "POST", url: "/fmi/data/vLatest/databases/D/layouts/L/records", headers: { "content-type": "application/json", "content-length": "58" }, rawHeaders: [] } as unknown as IncomingMessage;
    const entry = log.open(req, "Data API");
    const text = JSON.stringify({ fieldData: { Name: "Zoë Ångström 😀 日本" } });
    noteRequestBody(req, Buffer.from(text));
    expect(redactBody(log.requestBody(entry))!.text).toBe(text);
  });

  it("removes secret keys at any depth of a whole JSON body, and every value of a headers object", () => {
    const shown = redactBody(json(JSON.stringify({ a: { b: [{ Password: "p-1111111", apiKey: "k-2222222", x: 1 }] }, headers: { "X-Any": "h-3333333" }, token: 42 })))!;
    expect(JSON.parse(shown.text!)).toEqual({ a: { b: [{ Password: "[removed]", apiKey: "[removed]", x: 1 }] }, headers: { "X-Any": "[removed]" }, token: "[removed]" });
  });

  it("removes a secret from a body cut past the bound, even one cut in the middle of its value", () => {
    const filler = "word ".repeat((BODY_BYTES - 40) / 5);
    const text = JSON.stringify({ note: filler, password: "cut-secret-4444444444444444444444" });
    const body = { type: "application/json", size: Buffer.byteLength(text), bytes: Buffer.from(text).subarray(0, BODY_BYTES) };
    expect(body.bytes.toString()).toContain("cut-secret-44");
    const shown = redactBody(body)!;
    expect(shown.truncated).toBe(true);
    expect(shown.text).not.toContain("cut-secret");
    expect(shown.text).toMatch(/"password":"\[removed\]"/);
    expect(shown.text).toMatch(/\[truncated: 4096 of \d+ bytes shown\]$/);
  });

  it("removes a $batch part's credentials, inline container bytes and credentials after an auth scheme", () => {
    const batch = ["--b", "Content-Type: application/http", "", "GET Contacts HTTP/1.1", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "X-FM-Data-Access-Token: tok-5555555", "", "--b--"].join("\r\n");
    const shown = redactBody({ type: "multipart/mixed; boundary=b", size: batch.length, bytes: Buffer.from(batch) })!;
    expect(shown.text).not.toMatch(/dXNlcjpwYXNzd29yZA|tok-5555555/);
    expect(shown.text).toContain("GET Contacts HTTP/1.1");
    const inline = JSON.stringify({ fieldData: { Photo: "iVBORw0KGgo".padEnd(600, "A") }, note: "see Bearer abcdefgh123" });
    const text = redactBody(json(inline))!.text!;
    expect(text).toMatch(/\[600 base64 characters removed\]/);
    expect(text).toContain("Bearer [removed]");
  });

  it("says what a body of a type not logged was, without its bytes", () => {
    expect(redactBody({ type: "image/png", size: 1234, bytes: undefined })).toEqual({ type: "image/png", size: 1234, text: null, truncated: false });
  });
});

describe("paths and headers", () => {
  it("removes a logout's token, a container URL's token and secret query parameters", () => {
    expect(redactTarget("/fmi/data/vLatest/databases/C/sessions/abc123def")).toBe("/fmi/data/vLatest/databases/C/sessions/[removed]");
    // The name (the container id and its signature) is what opens the file; the extension and RCType stay.
    const name = `${"0A".repeat(16)}${"F1".repeat(16)}`;
    expect(redactTarget(`/Streaming/MainDB/${name}.png?RCType=EmbeddedRCFileProcessor`)).toBe("/Streaming/MainDB/[removed].png?RCType=EmbeddedRCFileProcessor");
    expect(redactTarget(`/Streaming/MainDB/${name}`)).toBe("/Streaming/MainDB/[removed]");
    expect(redactTarget("/x?api_key=k-66666666&token=t-7777777&_limit=5")).toBe("/x?api_key=[removed]&token=[removed]&_limit=5");
  });

  it("keeps ordinary headers, the scheme of Authorization, and removes every other", () => {
    expect(redactHeaders({ "content-type": "application/json", authorization: "Bearer t-8888888", cookie: "X-FMS-Session-Key=c-999999", "x-custom": "v", "Set-Cookie": "a=b" })).toEqual({
      "content-type": "application/json",
      authorization: "Bearer [removed]",
      cookie: "[removed]",
      "x-custom": "[removed]",
      "Set-Cookie": "[removed]",
    });
  });
});

describe("what an entry keeps", () => {
  const request = (url: string, rawHeaders: string[]) => ({ method: "GET", url, headers: {}, rawHeaders }) as unknown as IncomingMessage;
  const answer = (text: string) => ({ status: 200, headers: { "Content-Type": "application/json" }, body: Buffer.from(text) });

  it("gives back the target and headers as Node read them, names in lower case and repeated ones joined", () => {
    const log = new RequestLog(2);
    const entry = log.open(request("/odata/v4/D/T?$top=1", ["Host", "h:1", "X-Té", "é1", "x-té", "2", "Set-Cookie", "a", "set-cookie", "b"]), "OData");
    expect(log.target(entry)).toBe("/odata/v4/D/T?$top=1");
    expect(log.requestHeaders(entry)).toEqual({ host: "h:1", "x-té": "é1, 2", "set-cookie": ["a", "b"] });
    const long = log.open(request(`/${"a".repeat(5000)}`, ["Host", "h"]), "OData");
    expect(log.target(long)).toBe(`/${"a".repeat(5000)}`);
    expect(log.requestHeaders(long)).toEqual({ host: "h" });
  });

  it("keeps the last `size` requests: a newer one takes the oldest's place, however late the older is answered", () => {
    const log = new RequestLog(1);
    const slow = log.open(request("/slow", []), "Data API");
    const fast = log.open(request("/fast", []), "Data API");
    log.close(fast, answer('{"fast":true}'), 200);
    log.close(slow, answer('{"slow":true}'), 200);
    expect(log.since().map((e) => [log.target(e), log.answerBody(e)!.bytes!.toString()])).toEqual([["/fast", '{"fast":true}']]);
    expect(log.total).toBe(2);
  });

  it("gives a reader a copy of what it keeps, never the bytes it holds", () => {
    const log = new RequestLog(1);
    const entry = log.open(request("/x", []), "Data API");
    log.close(entry, answer('{"kept":true}'), 200);
    log.answerBody(entry)!.bytes!.fill(0);
    expect(log.answerBody(entry)!.bytes!.toString()).toBe('{"kept":true}');
  });

  it("notes the body of a request that declares one, and none for a request without (a GET)", () => {
    const log = new RequestLog(4);
    const withBody = (headers: Record<string, string>) => ({ method: "POST", url: "/b", headers, rawHeaders: [] }) as unknown as IncomingMessage;
    const declared = withBody({ "content-type": "application/json", "content-length": "7" });
    const chunked = withBody({ "content-type": "application/json", "transfer-encoding": "chunked" });
    const none = request("/none", []);
    const ids = [declared, chunked, none].map((req) => log.open(req, "OData"));
    for (const req of [declared, chunked, none]) noteRequestBody(req, Buffer.from('{"a":1}'));
    expect(ids.map((id) => log.requestBody(id)?.bytes?.toString())).toEqual(['{"a":1}', '{"a":1}', undefined]);
  });

  it("shows a running request without status or time, its account once served, and its code once it is closed", () => {
    const log = new RequestLog(2);
    const entry = log.open(request("/run", []), "Data API");
    expect(log.since()[0]).toMatchObject({ id: 1, status: undefined, ms: undefined, account: undefined });
    log.noteAccount(entry, "web");
    expect(log.since()[0]).toMatchObject({ id: 1, status: undefined, account: "web" });
    log.close(entry, { ...answer("{}"), code: "401" }, 500);
    expect(log.since()[0]).toMatchObject({ id: 1, status: 500, account: "web", code: "401" });
    expect(log.since()[0]!.ms).toBeGreaterThanOrEqual(0);
  });

  it("judges each answer's type on its own, however the types alternate, and a body without one by its first byte", () => {
    const log = new RequestLog(8);
    const kept = (type: string | undefined, text: string) => {
      const entry = log.open(request("/x", []), "OData");
      log.close(entry, { status: 200, headers: type === undefined ? {} : { "Content-Type": type }, body: Buffer.from(text) }, 200);
      return log.answerBody(entry)!.bytes?.toString();
    };
    expect(kept("application/json", '{"a":1}')).toBe('{"a":1}');
    expect(kept("image/png", "PNG bytes")).toBeUndefined();
    expect(kept("application/json", '{"b":2}')).toBe('{"b":2}');
    expect(kept("image/png", "PNG again")).toBeUndefined();
    expect(kept(undefined, '{"c":3}')).toBe('{"c":3}');
    expect(kept(undefined, "plain bytes")).toBeUndefined();
    expect(kept(undefined, "[1]")).toBe("[1]");
  });

  it("keeps a long answer's first BODY_BYTES and its whole size", () => {
    const log = new RequestLog(1);
    const entry = log.open(request("/long", []), "Data API");
    const text = `"${"x".repeat(BODY_BYTES * 2)}"`;
    log.close(entry, answer(text), 200);
    const body = log.answerBody(entry)!;
    expect(body.size).toBe(text.length);
    expect(body.bytes!.toString()).toBe(text.slice(0, BODY_BYTES));
  });
});
