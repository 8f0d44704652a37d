import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import { pullTables, readMetadata, tablesFromCsdl } from "../../src/pull/index.js";
import { PULL_PASSWORD, PULL_USER } from "./helpers.js";
import { CONTACTS_LAYOUT, TABLES, tableProject } from "./odata-support.js";
import { listenLoopback, type LoopbackServer } from "../support/loopback-server.js";

// What `fmgen pull --odata` does with answers that are not FileMaker Server's `$metadata`: each a clear error naming
// the URL (never the credentials) and what is wrong. A tiny loopback server serves the bad bodies; a 401 comes from
// the real emulator.

interface Answer {
  status?: number;
  type?: string;
  headers?: Record<string, string>;
  body: string | Buffer;
  /** Sent in this many writes, chunked (no Content-Length). */
  chunks?: number;
  /** No answer at all: the request is left hanging. */
  silent?: boolean;
}

let answer: Answer = { body: "" };
let server: LoopbackServer;
let base: string;
beforeAll(async () => {
  server = await listenLoopback((_req, res) => {
    if (answer.silent) return;
    res.writeHead(answer.status ?? 200, { "Content-Type": answer.type ?? "application/xml", ...answer.headers });
    if (answer.chunks === undefined) return void res.end(answer.body);
    const body = Buffer.from(answer.body);
    const size = Math.ceil(body.length / answer.chunks);
    for (let at = 0; at < body.length; at += size) res.write(body.subarray(at, at + size));
    res.end();
  });
  base = server.url;
});
afterAll(() => server.close());

const credentials = { username: PULL_USER, password: PULL_PASSWORD };
const read = (served: Answer, maxBytes?: number, at = base) => {
  answer = served;
  return readMetadata({ server: at, database: "Office", credentials, usernameEnv: "FM_USERNAME", passwordEnv: "FM_PASSWORD", timeoutMs: 300, ...(maxBytes !== undefined ? { maxBytes } : {}) });
};
const url = () => `${base}/fmi/odata/v4/Office/$metadata`;
const edmx = (schema: string) =>
  `<?xml version="1.0" encoding="utf-8"?><edmx:Edmx Version="4.01" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx"><edmx:DataServices>${schema}</edmx:DataServices></edmx:Edmx>`;
const schema = (types: string, sets: string) =>
  edmx(`<Schema Namespace="com.filemaker.odata.Office" xmlns="http://docs.oasis-open.org/odata/ns/edm">${types}<EntityContainer Name="Office">${sets}</EntityContainer></Schema>`);

async function failure(served: Answer, maxBytes?: number, at?: string): Promise<string> {
  const error = await read(served, maxBytes, at).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(error, "an error").toBeInstanceOf(Error);
  expect(error!.message).not.toContain(PULL_PASSWORD);
  return error!.message;
}

describe("fmgen pull --odata: answers that are not $metadata", () => {
  it("an HTML page, JSON, or another status: the URL and what it answered", async () => {
    expect(await failure({ type: "text/html", body: "<!DOCTYPE html><html><body>Sign in</body></html>" })).toBe(
      `${url()} answers an HTML page, not $metadata's CSDL XML: is the server URL right (a proxy's or a sign-in page)?`,
    );
    expect(await failure({ type: "application/json", body: '{"$Version":"4.01"}' })).toBe(`${url()} answers JSON (application/json), not $metadata's CSDL XML: fmgen pull --odata reads the XML form`);
    expect(await failure({ status: 404, type: "application/json", body: '{"error":{"code":"-1","message":"Not found"}}' })).toBe(
      `${url()} answers HTTP 404: code -1, "Not found": no database "Office" is served over OData there (check --database, and that the server's OData API is on)`,
    );
    expect(await failure({ status: 500, type: "text/plain", body: "boom" })).toBe(`${url()} answers HTTP 500: "boom"`);
    expect(await failure({ status: 302, headers: { Location: "https://elsewhere.example/login" }, body: "" })).toBe(
      `${url()} answers HTTP 302, a redirect to https://elsewhere.example/login; fmgen pull --odata does not follow it with the account's credentials: give --server (or "server" in the config) the address it redirects to`,
    );
  });

  it("no answer in time, or no server there: the URL and what happened", async () => {
    expect(await failure({ silent: true, body: "" })).toBe(`cannot reach ${url()}: no answer within 0.3 s`);
    const gone = await listenLoopback();
    await gone.close();
    expect(await failure({ body: "" }, undefined, gone.url)).toMatch(new RegExp(`^cannot reach ${escape(gone.url)}/fmi/odata/v4/Office/\\$metadata: .*ECONNREFUSED`));
  });

  it("malformed XML, XML that is not CSDL, an Edmx with no Schema", async () => {
    expect(await failure({ body: "<edmx:Edmx><edmx:DataServices></edmx:Edmx>" })).toMatch(
      new RegExp(`^${escape(url())}: the answer cannot be read as \\$metadata: it is not well-formed XML: .*closing tag.*\\(line 1, column \\d+\\)$`),
    );
    expect(await failure({ body: "<feed><entry/></feed>" })).toBe(`${url()}: the answer cannot be read as $metadata: it is XML but not a CSDL document: its root element is <feed>, not <edmx:Edmx>`);
    expect(await failure({ body: edmx("") })).toBe(`${url()}: the answer cannot be read as $metadata: the <edmx:Edmx> document has no <Schema> (in <edmx:DataServices>): there is no table to read`);
    expect(await failure({ body: "plain words" })).toMatch(/it does not start with "<" but with "plain words"/);
    expect(await failure({ body: Buffer.from([0x3c, 0x61, 0xff, 0x3e]) })).toBe(`${url()} answers bytes that are not UTF-8 text`);
  });

  it("refuses a DTD unread (billion laughs, external entities) and any entity XML does not define", async () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]>${schema(`<EntityType Name="T_"><Property Name="&lol2;" Type="Edm.String"/></EntityType>`, `<EntitySet Name="T" EntityType="com.filemaker.odata.Office.T_"/>`)}`;
    expect(await failure({ body: laughs })).toMatch(/it has a document type declaration \(<!DOCTYPE \.\.\.>\), which \$metadata never has; it is refused unread/);
    expect(await failure({ body: `<!DOCTYPE a [<!ENTITY e SYSTEM "file:///etc/passwd">]><a>&e;</a>` })).toMatch(/document type declaration/);
    const entity = schema(`<EntityType Name="T_"><Property Name="a&nbsp;b" Type="Edm.String"/></EntityType>`, `<EntitySet Name="T" EntityType="com.filemaker.odata.Office.T_"/>`);
    expect(await failure({ body: entity })).toMatch(/the entity &nbsp; is not one XML defines/);
  });

  it("refuses a $metadata past the size bound, by its Content-Length or as it streams", async () => {
    const refused = `${url()} answers more than 64 bytes; fmgen pull --odata refuses a $metadata that large`;
    expect(await failure({ body: "<a/>".repeat(100) }, 64)).toBe(refused);
    expect(await failure({ body: "<a/>".repeat(100), chunks: 10 }, 64)).toBe(refused);
    // Up to the bound it is read.
    expect(await failure({ body: "<a/>".repeat(16), chunks: 4 }, 64)).toMatch(/it has 16 root elements, not one|not well-formed/);
  });

  it("an unknown Edm type names the table and the field; a relation to no entity set is an error", () => {
    const guid = schema(`<EntityType Name="T_"><Property Name="Id" Type="Edm.Guid"/></EntityType>`, `<EntitySet Name="T" EntityType="com.filemaker.odata.Office.T_"/>`);
    expect(() => tablesFromCsdl(guid)).toThrow(/^table "T", field "Id": type "Edm.Guid" is none a FileMaker field has/);
    const dangling = schema(
      `<EntityType Name="T_"><Property Name="a" Type="Edm.String"/><NavigationProperty Name="U" Type="Collection(com.filemaker.odata.Office.U_)"/></EntityType>`,
      `<EntitySet Name="T" EntityType="com.filemaker.odata.Office.T_"/>`,
    );
    expect(() => tablesFromCsdl(dangling)).toThrow('table "T": relation "U" reaches type "Collection(com.filemaker.odata.Office.U_)", which no entity set (table occurrence) of the document has');
  });

  it("reads names with quotes, entities, character references, unicode and __proto__ as they are", () => {
    const doc = schema(
      `<EntityType Name="T_"><Property Name="__proto__" Type="Edm.String"/><Property Name="Say &quot;hi&quot; &amp; &lt;&#x9;&#233;&#x1F600;" Type="Edm.Decimal"/></EntityType>`,
      `<EntitySet Name="constructor" EntityType="com.filemaker.odata.Office.T_"/>`,
    );
    const [table] = tablesFromCsdl(doc);
    expect(table!.table).toBe("constructor");
    expect(table!.fields.map((f) => [f.name, f.type])).toEqual([
      ["__proto__", "text"],
      ['Say "hi" & <\té\u{1F600}', "number"],
    ]);
    expect(Object.getPrototypeOf(table!.fields[0])).toBe(Object.prototype);
  });
  it("keeps whitespace at a name's edges, literal or referenced; a literal tab or newline in an attribute reads as a space, as XML says", () => {
    const doc = schema(
      `<EntityType Name=" T "><Property Name="Price\u00a0" Type="Edm.Decimal"/><Property Name="&#160;Lead" Type="Edm.String"/><Property Name="Wide&#x3000;" Type="Edm.String"/>` +
        `<Property Name="&#9;Tab&#x9;" Type="Edm.String"/><Property Name="  two\tlines\n " Type="Edm.String"/>` +
        `<Property Name="b" Type="Edm.String"><Annotation Term="com.filemaker.odata.Global"><Bool> true </Bool></Annotation></Property></EntityType>`,
      `<EntitySet Name=" T\u3000" EntityType="com.filemaker.odata.Office. T "/>`,
    );
    const [table] = tablesFromCsdl(doc);
    expect(table!.table).toBe(" T\u3000");
    expect(table!.fields.map((f) => f.name)).toEqual(["Price\u00a0", "\u00a0Lead", "Wide\u3000", "\tTab\t", "  two lines  ", "b"]);
    // A keyword's whitespace is not part of it.
    expect(table!.fields[5]).toMatchObject({ global: true });
  });
});

describe("fmgen pull --odata: a table no description can hold", () => {
  it("fails that table with the reason and writes nothing for it; the others are written", async () => {
    const root = await tableProject();
    answer = {
      body: schema(
        `<EntityType Name="Bad_"><Property Name="Rel::F" Type="Edm.String"/></EntityType><EntityType Name="Good_"><Property Name="a" Type="Edm.String"/></EntityType>`,
        `<EntitySet Name="Bad" EntityType="com.filemaker.odata.Office.Bad_"/><EntitySet Name="Good" EntityType="com.filemaker.odata.Office.Good_"/>`,
      ),
    };
    const result = await pullTables({ cwd: root, server: base, env: { FM_USERNAME: PULL_USER, FM_PASSWORD: PULL_PASSWORD } });
    expect(result.tables.map((t) => [t.table, t.status])).toEqual([
      ["Bad", "failed"],
      ["Good", "created"],
    ]);
    expect(result.tables[0]!.error).toBe('the server\'s table cannot be described: fields[0].name: a table\'s own field cannot be named with "::" (related fields are reached through `relations`)');
    expect(result.written.map((f) => f.slice(root.length + 1))).toEqual(["tables/Good.table.json", "fmgen.pulled.json"]);
    expect(result.failed).toBe(true);
  });
});

describe("fmgen pull --odata: a refused sign-in", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ layouts: [CONTACTS_LAYOUT], tables: TABLES, accounts: [{ username: PULL_USER, password: PULL_PASSWORD }], log: () => {} });
  });
  afterAll(() => emu.close());

  it("a 401 names the URL and where the credentials come from, never the password", async () => {
    const root = await tableProject();
    const wrong = "wrong-pw-5a1c";
    const error = await pullTables({ cwd: root, server: emu.url, env: { FM_USERNAME: PULL_USER, FM_PASSWORD: wrong } }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe(
      `${emu.url}/fmi/odata/v4/Office/$metadata refuses the account (HTTP 401): a wrong account name or password, or a privilege set without the fmodata extended privilege; the credentials come from FM_USERNAME and FM_PASSWORD`,
    );
    expect(error?.message).not.toContain(wrong);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
