// The four OData clients of test/bench/odata.bench.mjs, each behind the same four calls on table `table`:
//   get(key)            one row by its text key, `T('K0000042')`            -> the row
//   list(i)             `Qty ge (i % 50) and Status eq 'Active'`, $top=100   -> the rows
//   create(n)           one row of 17 fields (newRow)                        -> the new row, as stored
//   batch(keys, n)      one changeset of keys.length PATCHes by key          -> how many parts succeeded
// A call a client cannot make throws a CannotError (reported as such, never faked).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { DATABASE, newRow, PASSWORD, tableSpec, USERNAME } from "./table.mjs";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const PEERS_NM = join(ROOT, "test/peer-clients/node_modules");
const rootRequire = createRequire(join(ROOT, "package.json"));

export class CannotError extends Error {}

const peerImport = (path) => import(pathToFileURL(join(PEERS_NM, path)).href);
export const basic = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString("base64")}`;
/** The changes of the batch's n-th PATCH. */
export const batchChange = (n) => ({ Notes: `batch ${n}`, Qty: n % 100 });
/** The list call's filter value. */
const listQty = (i) => i % 50;

/**
 * The floor: undici's `request()` on one keep-alive Agent, URLs and the multipart body built by hand, bodies parsed
 * with `body.json()` (the batch answer counted, not parsed part by part). `Accept: application/json;odata.metadata=none`
 * by default: answers without `@context`, `@id`, `@editLink` (2.2), the least the server sends; with
 * `accept: "application/json"` it sends what fmgen's client sends, so that the wire's share of a gap shows apart.
 */
export async function rawClient(url, table, { accept = "application/json;odata.metadata=none" } = {}) {
  const { Agent, request } = rootRequire("undici");
  const agent = new Agent({ keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 });
  const base = `${url}/fmi/odata/v4/${DATABASE}`;
  const path = `/fmi/odata/v4/${DATABASE}/${table}`;
  const read = { authorization: basic, accept };
  const write = { ...read, "content-type": "application/json" };
  const json = async (res, status) => {
    if (res.statusCode !== status) throw new Error(`raw: HTTP ${res.statusCode}: ${(await res.body.text()).slice(0, 300)}`);
    return res.body.json();
  };
  return {
    name: accept.includes("metadata=none") ? "raw undici (floor)" : `raw undici, Accept: ${accept}`,
    version: rootRequire("undici/package.json").version,
    get: async (key) => json(await request(`${base}/${table}('${key}')`, { dispatcher: agent, headers: read }), 200),
    list: async (i) => (await json(await request(`${base}/${table}?$filter=Qty%20ge%20${listQty(i)}%20and%20Status%20eq%20'Active'&$top=100`, { dispatcher: agent, headers: read }), 200)).value,
    create: async (n) => json(await request(`${base}/${table}`, { dispatcher: agent, method: "POST", headers: write, body: JSON.stringify(newRow(n)) }), 201),
    batch: async (keys, n) => {
      const b = `batch_${n}`;
      const c = `changeset_${n}`;
      let body = `--${b}\r\nContent-Type: multipart/mixed; boundary=${c}\r\n\r\n`;
      keys.forEach((key, i) => {
        const change = JSON.stringify(batchChange(n + i));
        body += `--${c}\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\nContent-ID: ${i + 1}\r\n\r\nPATCH ${path}('${key}') HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(change)}\r\n\r\n${change}\r\n`;
      });
      body += `--${c}--\r\n--${b}--\r\n`;
      const res = await request(`${base}/$batch`, { dispatcher: agent, method: "POST", headers: { authorization: basic, "odata-version": "4.0", "content-type": `multipart/mixed; boundary=${b}` }, body });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`raw batch: HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
      let ok = 0;
      for (let at = text.indexOf("HTTP/1.1 2"); at !== -1; at = text.indexOf("HTTP/1.1 2", at + 1)) ok++;
      return ok;
    },
    close: () => agent.close(),
  };
}

/**
 * A `fetchClientOptions.fetchHandler` for @proofkit/fmodata, which always builds `https://` URLs (and the global
 * fetch of fm-odata-client's batch): the emulator's https URLs sent as http, its http ones as they are, anything
 * else refused (nothing leaves loopback). As light as it can be (no Request copy
 * for a string URL), so that the figure is the client's.
 */
const realFetch = globalThis.fetch;

function loopbackFetch(url) {
  const https = url.replace(/^http:/, "https:") + "/";
  const plain = (u) => {
    if (u.startsWith(https)) return `http:${u.slice(6)}`;
    if (u.startsWith(`${url}/`)) return u;
    throw new Error(`refusing a request off loopback: ${u}`);
  };
  return (input, init) => {
    if (typeof input === "string") return realFetch(plain(input), init);
    if (input instanceof URL) return realFetch(plain(input.href), init);
    return realFetch(new Request(plain(input.url), input), init);
  };
}

/** @proofkit/fmodata 0.1.2: a schema of the 20 fields (no validators), through FMServerConnection. */
export async function fmodataClient(url, table) {
  const fm = await peerImport("@proofkit/fmodata/dist/esm/index.js");
  const connection = new fm.FMServerConnection({ serverUrl: url, auth: { username: USERNAME, password: PASSWORD }, fetchClientOptions: { fetchHandler: loopbackFetch(url) } });
  const kinds = { text: fm.textField, number: fm.numberField, date: fm.dateField, time: fm.timeField, timestamp: fm.timestampField };
  const columns = {};
  for (const [name, field] of Object.entries(tableSpec(table).fields)) {
    let column = kinds[field.type]();
    if (name === "id") column = column.primaryKey();
    columns[name] = column;
  }
  const items = fm.fmTableOccurrence(table, columns);
  const db = connection.database(DATABASE);
  const data = async (builder) => {
    const result = await builder.execute();
    if (result.error) throw result.error;
    return result.data;
  };
  return {
    name: "@proofkit/fmodata",
    version: peerVersion("@proofkit/fmodata"),
    get: (key) => data(db.from(items).get(key)),
    list: (i) => data(db.from(items).list().where(fm.and(fm.gte(items.Qty, listQty(i)), fm.eq(items.Status, "Active"))).top(100)),
    create: (n) => data(db.from(items).insert(newRow(n))),
    batch: async (keys, n) => {
      const result = await db.batch(keys.map((key, i) => db.from(items).update(batchChange(n + i)).byId(key))).execute();
      const failed = result.results.find((r) => r.error);
      if (failed) throw failed.error;
      return result.successCount;
    },
  };
}

/** Soliant's fm-odata-client 3.2.5 (global fetch; `disableSsl` for plain http). */
export async function fmOdataClient(url, table) {
  const mod = await peerImport("fm-odata-client/dist/index.js");
  const host = new URL(url).host;
  const connection = new mod.Connection(host, new mod.BasicAuth(USERNAME, PASSWORD), { disableSsl: true });
  const db = connection.database(DATABASE);
  const items = db.table(table);
  return {
    name: "fm-odata-client",
    version: peerVersion("fm-odata-client"),
    get: (key) => items.fetchById(key),
    list: (i) => items.query({ filter: `Qty ge ${listQty(i)} and Status eq 'Active'`, top: 100 }),
    create: (n) => items.create(newRow(n)),
    // Its batch connection drops disableSsl (always https): the global fetch is swapped for a loopback one while the
    // batch runs, as test/peer-clients/fm-odata-client.test.ts does. A changeset's parts answer 204, and the client's
    // `new Response(body, { status: 204 })` throws: the writes apply, the call rejects (WIRE-ODATA.md).
    batch: async (keys, n) => {
      const real = globalThis.fetch;
      globalThis.fetch = loopbackFetch(url);
      try {
        const results = await db.batch((batch) => {
          const t = batch.table(table);
          return keys.map((key, i) => t.update(key, batchChange(n + i)));
        });
        return results.length;
      } catch (error) {
        if (!/Invalid response status code 204/.test(error.message)) throw error;
        throw new CannotError(`fm-odata-client ${peerVersion("fm-odata-client")} cannot: "${error.message}" (every PATCH of the changeset is answered 204, and the client builds \`new Response(body, { status: 204 })\`, which fetch refuses; the writes apply, the call rejects: test/peer-clients/WIRE-ODATA.md)`);
      } finally {
        globalThis.fetch = real;
      }
    },
  };
}

/** fmgen's `@fmgen/runtime/odata` (the built package, as an app imports it) with the table as `defineTable` takes it. */
export async function fmgenClient(url, table) {
  const odata = await import(pathToFileURL(join(ROOT, "packages/runtime/dist/odata/index.js")).href);
  const { createODataClient, defineTable, f } = odata;
  const Items = defineTable()(tableSpec(table));
  const od = createODataClient({ server: url, database: DATABASE, auth: { username: USERNAME, password: PASSWORD } });
  const items = od.table(Items);
  return {
    name: "fmgen",
    version: JSON.parse(readFileSync(join(ROOT, "packages/runtime/package.json"), "utf8")).version,
    get: (key) => items.get(key),
    list: async (i) => (await items.list({ filter: f.and(f.gte("Qty", listQty(i)), f.eq("Status", "Active")), top: 100 })).value,
    create: (n) => items.create(newRow(n)),
    batch: async (keys, n) => (await od.batch((b) => keys.map((key, i) => b.table(Items).update(key, batchChange(n + i))))).length,
    close: () => od.close(),
  };
}

function peerVersion(name) {
  return JSON.parse(readFileSync(join(PEERS_NM, name, "package.json"), "utf8")).version;
}

/** The clients, by key; keys starting with "raw" are floors, not clients (never "the fastest client"). */
export const CLIENTS = {
  raw: rawClient,
  "raw-json": (url, table) => rawClient(url, table, { accept: "application/json" }),
  fmgen: fmgenClient,
  fmodata: fmodataClient,
  "fm-odata-client": fmOdataClient,
};
