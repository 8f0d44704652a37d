import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseBatchRequest, parseBatchResponse, type BatchItem, type HeaderList } from "../../../src/emulator/odata/batch-parse.js";
import { writeBatchRequest, writeBatchResponse, type BatchRequestEntry, type BatchResponseEntry } from "../../../src/emulator/odata/batch-write.js";
import { expectODataError, onlyTypedErrors, syntax } from "./odata-errors.js";

const CT = "multipart/mixed; boundary=batch_X";
const crlf = (s: string): string => s.replace(/\r?\n/g, "\r\n");
const utf8 = (b: Uint8Array): string => Buffer.from(b).toString("utf8");
/** Items with bodies as text, for toEqual. */
const readable = (items: BatchItem[]): unknown =>
  items.map((i) =>
    i.kind === "request" ? { ...i, request: { ...i.request, body: utf8(i.request.body) } } : { ...i, requests: i.requests.map((r) => ({ ...r, body: utf8(r.body) })) },
  );

// A `$batch` request in the wire contract's own framing (docs/emulator.md, "`$batch`").
const CONTRACT_EXAMPLE = `--batch_X
Content-Type: application/http
Content-Transfer-Encoding: binary

GET /fmi/odata/v4/DB/contacts?$top=2 HTTP/1.1


--batch_X
Content-Type: multipart/mixed; boundary=changeset_Y

--changeset_Y
Content-Type: application/http
Content-Transfer-Encoding: binary
Content-ID: 1

POST /fmi/odata/v4/DB/contacts HTTP/1.1
Content-Type: application/json
Content-Length: 17

{"name":"Batch1"}
--changeset_Y--
--batch_X--
`;

const CONTRACT_PARSED = [
  { kind: "request", request: { method: "GET", url: "/fmi/odata/v4/DB/contacts?$top=2", target: "/DB/contacts?$top=2", headers: [], body: "" } },
  {
    kind: "changeset",
    requests: [
      {
        method: "POST",
        url: "/fmi/odata/v4/DB/contacts",
        target: "/DB/contacts",
        headers: [
          ["Content-Type", "application/json"],
          ["Content-Length", "17"],
        ],
        body: '{"name":"Batch1"}',
        contentId: "1",
      },
    ],
  },
];

const one = (requestLine: string, extra = ""): string => crlf(`--batch_X\nContent-Type: application/http\nContent-Transfer-Encoding: binary\n\n${requestLine}\n${extra}\n\n--batch_X--\n`);

describe("$batch requests (section 4)", () => {
  it("parses the contract's example with CRLF, with LF, and with the outer name DB.fmp12", () => {
    expect(readable(parseBatchRequest(crlf(CONTRACT_EXAMPLE), { contentType: CT, db: "DB" }))).toEqual(CONTRACT_PARSED);
    expect(readable(parseBatchRequest(CONTRACT_EXAMPLE, { contentType: CT, db: "DB" }))).toEqual(CONTRACT_PARSED);
    expect(readable(parseBatchRequest(Buffer.from(crlf(CONTRACT_EXAMPLE)), { contentType: 'multipart/mixed;boundary="batch_X"', db: "DB.fmp12" }))).toEqual(
      CONTRACT_PARSED,
    );
  });

  it("absolute URLs, absolute paths and relative URLs all normalise to the target after /fmi/odata/v4", () => {
    const target = (url: string): string => {
      const [item] = parseBatchRequest(one(`GET ${url} HTTP/1.1`), { contentType: CT, db: "DB.fmp12" });
      return item!.kind === "request" ? item!.request.target : "";
    };
    expect(target("https://host/fmi/odata/v4/DB/Contacts(1)")).toBe("/DB/Contacts(1)");
    expect(target("http://127.0.0.1:8080/fmi/odata/v4/DB/Contacts?$top=1")).toBe("/DB/Contacts?$top=1");
    expect(target("/fmi/odata/v4/DB/Contacts")).toBe("/DB/Contacts");
    expect(target("Contacts('a')")).toBe("/DB/Contacts('a')");
    expect(target("/fmi/odata/v4/D%42")).toBe("/D%42");
  });

  it("the inner database must be the outer one without .fmp12 → else 400 -1032", () => {
    const msg = "Operation database does not match batch request database";
    expectODataError(() => parseBatchRequest(one("GET /fmi/odata/v4/DB.fmp12/contacts HTTP/1.1"), { contentType: CT, db: "DB.fmp12" }), 400, "-1032", msg);
    expectODataError(() => parseBatchRequest(one("GET https://h/fmi/odata/v4/Other/contacts HTTP/1.1"), { contentType: CT, db: "DB" }), 400, "-1032", msg);
    expectODataError(() => parseBatchRequest(one("GET /fmi/odata/v4/%ZZ/contacts HTTP/1.1"), { contentType: CT, db: "DB" }), 400, "-1032", msg);
  });

  it("a proxy prefix inside a part → 400 -1000; a $1 reference → 400 -1002", () => {
    expectODataError(() => parseBatchRequest(one("GET https://h/otto/fmi/odata/v4/DB/contacts HTTP/1.1"), { contentType: CT, db: "DB" }), 400, "-1000", "Incorrect OData service root path");
    expectODataError(() => parseBatchRequest(one("GET $1/name HTTP/1.1"), { contentType: CT, db: "DB" }), 400, "-1002", syntax("$1"));
  });

  it("not multipart → 400 -1014", () => {
    for (const ct of [undefined, "application/json", "multipart/mixed", "multipart/related; boundary=x", "multipart/mixed; boundary="]) {
      expectODataError(() => parseBatchRequest(crlf(CONTRACT_EXAMPLE), { contentType: ct, db: "DB" }), 400, "-1014", "Batch operation requires multipart content type");
    }
  });

  it("empty or malformed bodies → 400 -1015 'Expected batch boundary at …'", () => {
    const bad = (body: string, message: string | RegExp): void => {
      expectODataError(() => parseBatchRequest(body, { contentType: CT, db: "DB" }), 400, "-1015", message);
    };
    bad("{}", "Expected batch boundary at '{}...' batch body near line:1");
    bad("", "Expected batch boundary at '...' batch body near line:1");
    bad("--batch_Xyz\r\n", "Expected batch boundary at '--batch_Xyz...' batch body near line:1");
    bad(crlf(CONTRACT_EXAMPLE).replace("--batch_X--\r\n", ""), /^Expected batch boundary at '\.\.\.' batch body near line:2\d$/);
    bad(crlf(CONTRACT_EXAMPLE).replace("--changeset_Y--", "--changeset_Z--"), /^Expected batch boundary at/);
  });

  it("parts that are not requests → 400 -1015 naming the line", () => {
    const bad = (body: string, what: RegExp): void => {
      expectODataError(() => parseBatchRequest(body, { contentType: CT, db: "DB" }), 400, "-1015", what);
    };
    bad(crlf(CONTRACT_EXAMPLE).replace("Content-Type: application/http", "Content-Type: text/plain"), /line:2: Content-Type 'text\/plain' is not application\/http/);
    bad(crlf(CONTRACT_EXAMPLE).replace("Content-Transfer-Encoding: binary", "Content-Transfer-Encoding: base64"), /is not binary/);
    bad(one("GET /fmi/odata/v4/DB/x"), /not a request line: 'GET \/fmi\/odata\/v4\/DB\/x'/);
    bad(one("BREW /fmi/odata/v4/DB/x HTTP/1.1"), /method BREW is not one of/);
    bad(crlf(CONTRACT_EXAMPLE).replace("Content-Length: 17", "Content-Length: 18"), /Content-Length 18 does not match the 17 bytes/);
    bad(crlf(CONTRACT_EXAMPLE).replace("Content-Length: 17", "Content-Length: 5"), /Content-Length 5 does not match/);
    bad(crlf(CONTRACT_EXAMPLE).replace("Content-Length: 17", "Content-Length: x"), /Content-Length 'x' is not a number/);
    bad(crlf(CONTRACT_EXAMPLE).replace("POST /fmi/odata/v4/DB/contacts", "GET /fmi/odata/v4/DB/contacts"), /a GET inside a changeset/);
    bad(crlf("--batch_X\nContent-Type: application/http\nno colon here\n\nGET /fmi/odata/v4/DB/x HTTP/1.1\n\n\n--batch_X--"), /not a header line: 'no colon here'/);
    // A changeset inside a changeset.
    const nested = crlf(CONTRACT_EXAMPLE).replace(
      "--changeset_Y\r\nContent-Type: application/http",
      "--changeset_Y\r\nContent-Type: multipart/mixed; boundary=z\r\n\r\n--z--\r\n--changeset_Y\r\nContent-Type: application/http",
    );
    bad(nested, /Content-Type 'multipart\/mixed; boundary=z' is not application\/http/);
  });

  it("a Content-Length with line breaks after the body is tolerated; the body is exactly Content-Length bytes", () => {
    const body = crlf(CONTRACT_EXAMPLE).replace('{"name":"Batch1"}\r\n', '{"name":"Batch1"}\r\n\r\n');
    expect(readable(parseBatchRequest(body, { contentType: CT, db: "DB" }))).toEqual(CONTRACT_PARSED);
  });

  it("limits: parts count → 400 -1015, body size → 413 -1015", () => {
    const many: BatchRequestEntry[] = Array.from({ length: 6 }, () => ({ kind: "request", method: "GET", url: "/fmi/odata/v4/DB/x" }));
    const w = writeBatchRequest(many, "b");
    expect(parseBatchRequest(w.body, { contentType: w.contentType, db: "DB", maxParts: 6 })).toHaveLength(6);
    expectODataError(() => parseBatchRequest(w.body, { contentType: w.contentType, db: "DB", maxParts: 5 }), 400, "-1015", "Batch request has more than 5 parts");
    expectODataError(() => parseBatchRequest(w.body, { contentType: w.contentType, db: "DB", maxBytes: w.body.length - 1 }), 413, "-1015", `Batch body exceeds ${w.body.length - 1} bytes`);
  });

  it("binary bodies survive: every byte value", () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const w = writeBatchRequest([{ kind: "changeset", requests: [{ method: "PATCH", url: "/fmi/odata/v4/DB/T(1)/Photo", headers: [["Content-Type", "image/png"]], body: bytes }] }]);
    const [item] = parseBatchRequest(w.body, { contentType: w.contentType, db: "DB" });
    expect(item!.kind === "changeset" && Buffer.from(item!.requests[0]!.body).equals(Buffer.from(bytes))).toBe(true);
  });
});

describe("$batch responses", () => {
  it("writes section 4's shape, byte for byte", () => {
    const w = writeBatchResponse(
      [
        { kind: "response", status: 200, headers: [["Content-Type", "application/json;charset=utf-8"]], body: '{"value":[]}' },
        { kind: "changeset", boundary: "cs_1", responses: [{ status: 204, headers: [["Location", "https://h/fmi/odata/v4/DB/contacts(ROWID=7)"]], contentId: "1" }] },
        { kind: "response", status: 404, headers: [["Content-Type", "application/json;charset=utf-8"]], body: '{"error":{"code":"-1020","message":"Table \'Purchase_Orders\' not defined in database"}}' },
      ],
      "b_1",
    );
    expect(w.contentType).toBe("multipart/mixed; boundary=b_1");
    expect(utf8(w.body)).toBe(
      crlf(`--b_1
Content-Type: application/http
Content-Transfer-Encoding: binary

HTTP/1.1 200 Ok
Content-Type: application/json;charset=utf-8
Content-Length: 12

{"value":[]}
--b_1
Content-Type: multipart/mixed; boundary=cs_1

--cs_1
Content-Type: application/http
Content-Transfer-Encoding: binary
Content-ID: 1

HTTP/1.1 204 No Content
Location: https://h/fmi/odata/v4/DB/contacts(ROWID=7)


--cs_1--
--b_1
Content-Type: application/http
Content-Transfer-Encoding: binary

HTTP/1.1 404 Not Found
Content-Type: application/json;charset=utf-8
Content-Length: 86

{"error":{"code":"-1020","message":"Table 'Purchase_Orders' not defined in database"}}
--b_1--`),
    );
  });

  it("refuses a boundary that occurs in a body, and picks a fresh one when none is given", () => {
    expect(() => writeBatchResponse([{ kind: "response", status: 200, body: "--b_1" }], "b_1")).toThrow(/boundary "b_1" occurs in a part/);
    const w = writeBatchResponse([{ kind: "response", status: 200, body: "x" }]);
    expect(w.contentType).toMatch(/^multipart\/mixed; boundary=batchresponse_[0-9a-f-]{36}$/);
    expect(() => writeBatchResponse([{ kind: "response", status: 200, headers: [["X", "a\r\nInjected: 1"]] }])).toThrow(/line break/);
  });

  it("parses a response in the shape SOL and proofkit read (LF, 'HTTP/1.1 200 Ok')", () => {
    const text = `--batchresponse_1
Content-Type: application/http

HTTP/1.1 200 Ok
Content-Type: application/json;charset=utf-8

{"value":[]}
--batchresponse_1--
`;
    const [item] = parseBatchResponse(text, "multipart/mixed; boundary=batchresponse_1");
    expect(item!.kind === "response" && { ...item!.response, body: utf8(item!.response.body) }).toEqual({
      status: 200,
      reason: "Ok",
      headers: [["Content-Type", "application/json;charset=utf-8"]],
      body: '{"value":[]}',
    });
  });
});

// Round trips. Header names are tokens; values have no line breaks and no outer spaces (the parser trims them).
const headerArb: fc.Arbitrary<[string, string]> = fc.tuple(
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,10}$/).filter((n) => !/^content-(length|id)$/i.test(n)),
  fc.string({ maxLength: 12 }).map((v) => v.replace(/[\r\n]/g, "").trim()),
);
const bodyArb = fc.oneof(fc.constant(""), fc.string({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b).toString("latin1")));
const withLength = (headers: HeaderList, body: string): HeaderList => (Buffer.byteLength(body) > 0 ? [...headers, ["Content-Length", String(Buffer.byteLength(body))]] : headers);
const contentIdArb = fc.option(fc.stringMatching(/^[A-Za-z0-9]{1,6}$/), { nil: undefined });
const urlArb = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9()'$=?&%-]{0,20}$/).map((s) => `/fmi/odata/v4/DB/${s}`),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9()'=?&-]{0,20}$/),
);
const requestArb = fc.record({
  method: fc.constantFrom("POST" as const, "PATCH" as const, "PUT" as const, "DELETE" as const),
  url: urlArb,
  headers: fc.array(headerArb, { maxLength: 3 }),
  body: bodyArb,
  contentId: contentIdArb,
});

describe("properties", () => {
  it("writing a random batch request, then parsing it, gives it back", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(requestArb.map((r) => ({ kind: "request" as const, ...r, method: fc.sample(fc.constantFrom("GET" as const, r.method), 1)[0]! })), fc.record({ kind: fc.constant("changeset" as const), requests: fc.array(requestArb, { minLength: 1, maxLength: 3 }) })), { maxLength: 5 }),
        (entries) => {
          const clean = (r: { contentId: string | undefined } & Record<string, unknown>) => {
            const { contentId, ...rest } = r;
            return contentId === undefined ? rest : { ...rest, contentId };
          };
          const input = entries.map((e) => (e.kind === "request" ? clean(e) : { kind: "changeset", requests: e.requests.map(clean) })) as BatchRequestEntry[];
          const w = writeBatchRequest(input);
          const parsed = parseBatchRequest(w.body, { contentType: w.contentType, db: "DB" });
          const expected = entries.map((e) => {
            const one = (r: (typeof entries)[number] & { kind?: string }) => {
              const req = r as unknown as { method: string; url: string; headers: [string, string][]; body: string; contentId?: string };
              return {
                method: req.method,
                url: req.url,
                target: req.url.startsWith("/") ? req.url.slice("/fmi/odata/v4".length) : `/DB/${req.url}`,
                headers: withLength(req.headers, req.body),
                body: req.body,
                ...(req.contentId !== undefined && { contentId: req.contentId }),
              };
            };
            return e.kind === "request" ? { kind: "request", request: one(e) } : { kind: "changeset", requests: e.requests.map((r) => one(r as never)) };
          });
          expect(readable(parsed)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("writing a random batch response, then parsing it, gives it back", () => {
    const resp = fc.record({ status: fc.integer({ min: 100, max: 599 }), headers: fc.array(headerArb, { maxLength: 3 }), body: bodyArb, contentId: contentIdArb });
    fc.assert(
      fc.property(fc.array(fc.oneof(resp.map((r) => ({ kind: "response" as const, ...r })), fc.record({ kind: fc.constant("changeset" as const), responses: fc.array(resp, { minLength: 1, maxLength: 3 }) })), { maxLength: 5 }), (entries) => {
        const clean = <R extends { contentId: string | undefined }>(r: R) => {
          const { contentId, ...rest } = r;
          return contentId === undefined ? rest : { ...rest, contentId };
        };
        const input = entries.map((e) => (e.kind === "response" ? clean(e) : { kind: "changeset", responses: e.responses.map(clean) })) as BatchResponseEntry[];
        const w = writeBatchResponse(input);
        const parsed = parseBatchResponse(w.body, w.contentType);
        const one = (r: { status: number; headers: [string, string][]; body: string; contentId: string | undefined }) => ({
          status: r.status,
          reason: expect.any(String),
          headers: withLength(r.headers, r.body),
          body: r.body,
          ...(r.contentId !== undefined && { contentId: r.contentId }),
        });
        const text = parsed.map((i) =>
          i.kind === "response" ? { kind: "response", response: { ...i.response, body: utf8(i.response.body) } } : { kind: "changeset", responses: i.responses.map((r) => ({ ...r, body: utf8(r.body) })) },
        );
        expect(text).toEqual(entries.map((e) => (e.kind === "response" ? { kind: "response", response: one(e) } : { kind: "changeset", responses: e.responses.map(one) })));
      }),
      { numRuns: 300 },
    );
  });

  it("random bodies throw nothing but ODataError", () => {
    const piece = fc.constantFrom("--batch_X", "--batch_X--", "--cs", "--cs--", "\r\n", "\n", "Content-Type: application/http", "Content-Type: multipart/mixed; boundary=cs", "Content-Length: 3", "Content-ID: 1", "GET /fmi/odata/v4/DB/x HTTP/1.1", "POST x HTTP/1.1", "HTTP/1.1 200 Ok", ":", "abc", "$1");
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(piece, { maxLength: 40 }).map((a) => a.join(""))), (body) => {
        onlyTypedErrors(() => parseBatchRequest(body, { contentType: CT, db: "DB" }));
        onlyTypedErrors(() => parseBatchResponse(body, CT));
      }),
      { numRuns: 3000 },
    );
  });

  // No clock is read (its budget is in test/bench/bounds.bench.mjs): each answers a typed error, and a quadratic
  // parser fails by the test's timeout.
  it("hostile bodies parse to typed errors", () => {
    onlyTypedErrors(() => parseBatchRequest("--batch_X\r\n" + "--batch_".repeat(100_000), { contentType: CT, db: "DB" }));
    onlyTypedErrors(() => parseBatchRequest("--batch_X\r\n" + "\n".repeat(200_000), { contentType: CT, db: "DB" }));
    onlyTypedErrors(() => parseBatchRequest("--batch_X\r\nA: b\r\n".repeat(50_000), { contentType: CT, db: "DB" }));
  });
});
