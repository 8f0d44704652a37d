#!/usr/bin/env node
// Speed bounds (`npm run bench:bounds`: builds, then `node test/bench/bounds.bench.mjs`).
//
// The time budgets the tests once asserted with a clock. A test that compares elapsed time fails when the machine is
// busy rather than when the code regresses, so the tests assert the behaviour only (the answer, the error, the work
// counted where it can be counted: parts, rows, attempts) and each budget lives here, measured against the built
// product (dist/ and packages/runtime/dist/): each case says which test asserts its behaviour. The rule, pinned by
// test/structure/no-wall-clock.test.ts: speed targets are measured by benchmarks, never by wall-clock assertions in
// tests.
//
// Each case is run REPEATS times (BENCH_REPEATS, default 3); its median is held to its budget (the budget the test
// had, generous for two shared cores), its slowest run shown beside it. A case whose answer is wrong fails as well.
// Exits 1 when a case is over its budget or wrong. The Redis cases need `redis-server` (Debian's package) and are
// reported as skipped without it. BENCH_ONLY=<part of a case's name> runs the matching cases only;
// BENCH_BUDGET_SCALE multiplies every budget.

import { spawn, spawnSync } from "node:child_process";
import { createServer as createHttpServer } from "node:http";
import { connect as connectSocket, createServer as createNetServer } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dist = (path) => import(new URL(`../../dist/${path}`, import.meta.url).href);
const runtimeDist = (path) => import(new URL(`../../packages/runtime/dist/${path}`, import.meta.url).href);

const { startEmulator } = await dist("emulator/index.js");
const { ODataError } = await dist("emulator/odata/odata-error.js");
const { parseODataPath } = await dist("emulator/odata/url-path.js");
const { parseQueryOptions } = await dist("emulator/odata/query-options.js");
const { parseBatchRequest } = await dist("emulator/odata/batch-parse.js");
const { writeBatchRequest } = await dist("emulator/odata/batch-write.js");
const { MAX_BATCH_PARTS } = await dist("emulator/odata/batch-multipart.js");
const { parseApply } = await dist("emulator/odata/apply-parse.js");
const { MAX_APPLY_WORK } = await dist("emulator/odata/apply-eval.js");
const runtime = await runtimeDist("index.js");
const fetchRuntime = await runtimeDist("fetch.js");
const { redisTokenStore } = await runtimeDist("redis-token-store.js");

const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const ONLY = process.env.BENCH_ONLY;
/** BENCH_BUDGET_SCALE=2: every budget doubled (a slower machine); 0 puts every case over (test/bench/scripts.test.ts). */
const SCALE = Number(process.env.BENCH_BUDGET_SCALE ?? 1);
const HAS_REDIS_SERVER = spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;

// ---------------------------------------------------------------------------------------------------
// Helpers: what the tests' support modules do, for the built product.

function check(condition, what) {
  if (!condition) throw new Error(`wrong answer: ${what}`);
}

/** Runs `fn`, which must return or throw an ODataError (what the parsers' tests call onlyTypedErrors). */
function onlyTypedErrors(fn) {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof ODataError)) throw error;
  }
}

/** The elapsed milliseconds of `fn` (setup and teardown around it are not counted). */
async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const basic = (user, password) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

/** The OData tests' hosted file (test/emulator/odata/serve-support.ts): Office, Contacts with a portal to Notes. */
const OFFICE = "Office";
const S = `/fmi/odata/v4/${OFFICE}`;
const OFFICE_AUTH = basic("web", "secret");
function startOffice(notes = 25, extra = {}) {
  return startEmulator({
    layouts: [
      {
        database: OFFICE,
        layout: "Contacts",
        table: "Contacts",
        fields: [
          { name: "id", type: "text", autoEnter: "uuid", required: true, unique: true },
          { name: "Name", type: "text" },
          { name: "Age", type: "number" },
          { name: "Born", type: "date" },
          { name: "Alarm", type: "time" },
          { name: "Seen", type: "timestamp" },
          { name: "Tags", type: "text", repetitions: 2 },
        ],
        portals: [{ name: "Notes", table: "Notes", relation: { parentField: "id", childField: "ContactId" }, fields: [{ name: "Notes::Text", type: "text" }] }],
      },
      {
        database: OFFICE,
        layout: "Notes",
        table: "Notes",
        fields: [
          { name: "ContactId", type: "text" },
          { name: "Text", type: "text" },
          { name: "N", type: "number" },
        ],
      },
      ...(extra.layouts ?? []),
    ],
    data: {
      accounts: [{ username: "web", password: "secret" }],
      records: {
        Contacts: [
          { id: "A1", Name: "Ada", Age: 36 },
          { id: "B2", Name: "bob", Age: 41 },
          { id: "C3", Name: "Cy", Age: 20 },
        ],
        Notes: Array.from({ length: notes }, (_, i) => ({ ContactId: i % 2 === 0 ? "A1" : "B2", Text: `note ${i + 1}`, N: i + 1 })),
        ...extra.records,
      },
    },
  });
}

/** `method` `url` with the Office account, a JSON body; resolves to the status and the parsed body. */
async function send(url, method = "GET", body, headers = {}) {
  const init = { method, headers: { Authorization: OFFICE_AUTH, ...headers }, signal: AbortSignal.timeout(60_000) };
  if (body !== undefined) {
    init.body = typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body);
    init.headers["Content-Type"] ??= "application/json";
  }
  const res = await fetch(url, init);
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, body: json };
}

const odataError = (a, status, code) => check(a.status === status && a.body?.error?.code === code, `expected ${status} ${code}, got ${a.status} ${a.text.slice(0, 200)}`);

/** A Data API session on `url` (the Office account). */
async function dataApiLogin(url) {
  const a = await send(`${url}/fmi/data/vLatest/databases/${OFFICE}/sessions`, "POST", {});
  check(a.status === 200, `Data API login: ${a.text}`);
  return a.body.response.token;
}

const CONTACT = runtime.defineLayout()({ database: "Contacts", layout: "Contacts Web", table: "Contacts", fields: { "First Name": { type: "text" } } });

// ---------------------------------------------------------------------------------------------------
// The cases: name, the test that asserts the behaviour, the budget, and `measure`, which returns the milliseconds
// of the bounded part (or "skipped: why").

const CASES = [
  {
    name: "fetch entry: a fetch that never settles fails the call after timeoutMs (200 ms)",
    test: "test/runtime/fetch-transport.test.ts",
    budgetMs: 2_000,
    async measure() {
      const never = async (url, init) => {
        if (/\/sessions(\/[^/]*)?$/.test(String(url))) return new Response(JSON.stringify({ response: { token: "t" }, messages: [{ code: "0", message: "OK" }] }), { headers: { "content-type": "application/json" } });
        return new Promise(() => undefined);
      };
      const fm = fetchRuntime.createClient({ server: "http://127.0.0.1:9", database: "Contacts", auth: { username: "u", password: "p" }, retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 2 }, timeoutMs: 200, fetch: never });
      try {
        return await timed(async () => {
          const error = await fm.layout(CONTACT).get(1).then(() => undefined, (e) => e);
          check(error instanceof fetchRuntime.NetworkError && error.reason === "timeout", `a timeout NetworkError, not ${error}`);
        });
      } finally {
        await fm.close().catch(() => undefined);
      }
    },
  },
  ...["node-redis", "ioredis"].map((kind) => ({
    name: `Redis token store (${kind}): a Redis that hangs (the process stopped), the call logs in after timeoutMs (200 ms)`,
    test: "test/runtime/redis-token-store.test.ts",
    budgetMs: 2_000,
    measure: () => withRedis(async (server, emu) => {
      const client = await redisClient(kind, server.url);
      const seen = [];
      server.process.kill("SIGSTOP");
      try {
        const fm = runtime.createClient({ server: emu.url, database: "Contacts", auth: { username: "web", password: "secret" }, tokenStore: redisTokenStore(client, { prefix: "hang:", timeoutMs: 200, onError: (_e, f) => seen.push(`${f.op} ${f.kind}`) }) });
        const ms = await timed(() => fm.layouts());
        check(seen.join() === "get timeout,set timeout", `get and set timed out, not ${seen}`);
        return ms;
      } finally {
        server.process.kill("SIGCONT");
        await closeRedisClient(kind, client);
      }
    }),
  })),
  {
    name: "Redis token store (ioredis): a Redis that never answers a byte, the call logs in after timeoutMs (200 ms)",
    test: "test/runtime/redis-token-store.test.ts",
    budgetMs: 2_000,
    async measure() {
      const { Redis } = await import("ioredis");
      const silent = createNetServer(() => undefined);
      await new Promise((resolve) => silent.listen(0, "127.0.0.1", resolve));
      const emu = await startEmulator({ layouts: [join(ROOT, "examples/contacts/layouts")], data: join(ROOT, "examples/contacts/seed.json") });
      const client = new Redis(`redis://127.0.0.1:${silent.address().port}`, { connectTimeout: 60_000 });
      const seen = [];
      try {
        const fm = runtime.createClient({ server: emu.url, database: "Contacts", auth: { username: "web", password: "secret" }, tokenStore: redisTokenStore(client, { timeoutMs: 200, onError: (_e, f) => seen.push(`${f.op} ${f.kind}`) }) });
        const ms = await timed(() => fm.layouts());
        check(seen.join() === "get timeout,set timeout", `get and set timed out, not ${seen}`);
        await fm.logout();
        return ms;
      } finally {
        client.disconnect();
        silent.close();
        await emu.close();
      }
    },
  },
  {
    name: "Redis token store (node-redis): Redis killed, the sessions expired: the call logs in by itself",
    test: "test/runtime/redis-token-store.test.ts (three processes sharing one Redis)",
    budgetMs: 3_000,
    measure: () => withRedis(async (server, emu) => {
      const client = await redisClient("node-redis", server.url);
      const seen = [];
      try {
        const fm = runtime.createClient({ server: emu.url, database: "Contacts", auth: { username: "web", password: "secret" }, tokenStore: redisTokenStore(client, { timeoutMs: 500, onError: (_e, f) => seen.push(`${f.op} ${f.kind}`) }) });
        await fm.layouts();
        await server.kill();
        emu.advanceTime(16 * 60_000);
        const ms = await timed(() => fm.layouts());
        // A timeout (the command queued until Redis comes back), or an error (one sent as the socket closed); the
        // client's own connection errors are told to onError too.
        const failed = seen.filter((f) => f !== "client error");
        check(failed.length === 2 && /^get (timeout|error)$/.test(failed[0]) && /^set (timeout|error)$/.test(failed[1]), `get and set failed, not ${seen}`);
        return ms;
      } finally {
        await closeRedisClient("node-redis", client);
      }
    }),
  },
  {
    name: "OData: 20 concurrent Data API edits and OData PATCHes of one record",
    test: "test/emulator/odata/serve-writes.test.ts",
    budgetMs: 5_000,
    async measure() {
      const emu = await startOffice();
      try {
        const token = await dataApiLogin(emu.url);
        const created = await send(`${emu.url}${S}/Contacts`, "POST", { Name: "race" });
        const rowid = (await send(`${emu.url}${S}/Contacts('${created.body.id}')?$select=ROWID`)).body.ROWID;
        const n = 20;
        const ms = await timed(() =>
          Promise.all(
            Array.from({ length: n }, (_, i) => {
              if (i % 2 === 0) return send(`${emu.url}/fmi/data/vLatest/databases/${OFFICE}/layouts/Contacts/records/${rowid}`, "PATCH", { fieldData: i % 4 === 0 ? { Name: `n${i}` } : { Age: i } }, { Authorization: `Bearer ${token}` });
              return send(`${emu.url}${S}/Contacts(ROWID=${rowid})`, "PATCH", i % 4 === 1 ? { Born: `2020-01-${String(i).padStart(2, "0")}` } : { Alarm: `10:00:${String(i).padStart(2, "0")}` });
            }),
          ),
        );
        check((await send(`${emu.url}${S}/Contacts(ROWID=${rowid})?$select=ROWMODID`)).body.ROWMODID === n, "every write landed");
        return ms;
      } finally {
        await emu.close();
      }
    },
  },
  {
    name: "OData webhooks: a process whose emulator closed with a 30 s retry waiting exits",
    test: "test/emulator/odata/webhooks-close.test.ts",
    budgetMs: 10_000,
    async measure() {
      const script = `
        import { createServer, request } from "node:http";
        import { startEmulator } from ${JSON.stringify(new URL("../../dist/emulator/index.js", import.meta.url).href)};
        let hits = 0;
        const receiver = createServer((req, res) => { hits++; req.resume(); res.writeHead(500); res.end(); });
        await new Promise((r) => receiver.listen(0, "127.0.0.1", r));
        const emu = await startEmulator({
          layouts: [{ database: "D", layout: "T", table: "T", fields: [{ name: "A", type: "text" }] }],
          data: { accounts: [{ username: "u", password: "p" }] },
          webhooks: { retryDelayMs: 30000, maxRetryDelayMs: 30000 },
        });
        const call = (path, body) => new Promise((resolve, reject) => {
          const req = request(emu.url + "/fmi/odata/v4/D/" + path, { method: "POST", agent: false, headers: { Authorization: ${JSON.stringify(basic("u", "p"))}, "Content-Type": "application/json" } }, (res) => { res.resume(); res.on("end", () => resolve(res.statusCode)); });
          req.on("error", reject);
          req.end(JSON.stringify(body));
        });
        await call("Webhook.Add", { webhook: "http://127.0.0.1:" + receiver.address().port + "/", tableName: "T" });
        await call("T", { A: "x" });
        while (hits === 0) await new Promise((r) => setTimeout(r, 10));
        await new Promise((r) => setTimeout(r, 50));
        await emu.close();
        receiver.close();
        console.log("closed after " + hits + " attempt(s)");
      `;
      let out = "";
      const t0 = performance.now();
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
      child.stdout.on("data", (c) => (out += c));
      child.stderr.on("data", (c) => (out += c));
      const code = await new Promise((resolve) => {
        const timer = setTimeout(() => (child.kill(), resolve("hung")), 60_000);
        child.once("exit", (c) => (clearTimeout(timer), resolve(c)));
      });
      const ms = performance.now() - t0;
      check(code === 0 && out.includes("closed after 1 attempt(s)"), `exit ${code}: ${out}`);
      return ms;
    },
  },
  {
    name: "OData URL paths: long hostile paths parse in linear time",
    test: "test/emulator/odata/url-path.test.ts",
    budgetMs: 500,
    measure: () =>
      timed(() => {
        onlyTypedErrors(() => parseODataPath("/DB/T(" + "'',".repeat(2500) + "1)"));
        onlyTypedErrors(() => parseODataPath("/DB/" + "(".repeat(8000)));
        onlyTypedErrors(() => parseODataPath("/DB/" + "a/".repeat(4000)));
      }),
  },
  {
    name: "OData query options: hostile nesting and long lists parse in linear time",
    test: "test/emulator/odata/query-options.test.ts",
    budgetMs: 500,
    measure: () =>
      timed(() => {
        onlyTypedErrors(() => parseQueryOptions("$expand=" + "a($expand=".repeat(2000) + "b" + ")".repeat(2000)));
        onlyTypedErrors(() => parseQueryOptions("$select=" + "a,".repeat(999) + "a"));
        onlyTypedErrors(() => parseQueryOptions("$filter=" + "(".repeat(8000)));
        onlyTypedErrors(() => parseQueryOptions("$orderby=" + '"'.repeat(8000)));
        onlyTypedErrors(() => parseQueryOptions("&".repeat(8000)));
      }),
  },
  {
    name: "OData $batch parser: hostile bodies (100,000 boundaries, 200,000 newlines, 50,000 headers)",
    test: "test/emulator/odata/batch.test.ts",
    budgetMs: 1_000,
    measure: () =>
      timed(() => {
        const contentType = "multipart/mixed; boundary=batch_X";
        onlyTypedErrors(() => parseBatchRequest("--batch_X\r\n" + "--batch_".repeat(100_000), { contentType, db: "DB" }));
        onlyTypedErrors(() => parseBatchRequest("--batch_X\r\n" + "\n".repeat(200_000), { contentType, db: "DB" }));
        onlyTypedErrors(() => parseBatchRequest("--batch_X\r\nA: b\r\n".repeat(50_000), { contentType, db: "DB" }));
      }),
  },
  {
    name: `OData $batch of 10,000 parts: refused (more than ${MAX_BATCH_PARTS}), nothing applied`,
    test: "test/emulator/odata/batch-hostile.test.ts",
    budgetMs: 5_000,
    async measure() {
      const emu = await startOffice();
      try {
        const written = writeBatchRequest(
          Array.from({ length: 10_000 }, (_, i) =>
            i === 0 ? { kind: "changeset", requests: [{ method: "POST", url: `${S}/Notes`, headers: [["Content-Type", "application/json"]], body: JSON.stringify({ Text: "many" }) }] } : { kind: "request", method: "GET", url: `${S}/Contacts('A1')` },
          ),
        );
        let answer;
        const ms = await timed(async () => (answer = await send(`${emu.url}${S}/$batch`, "POST", written.body, { "Content-Type": written.contentType, "OData-Version": "4.0" })));
        odataError(answer, 400, "-1015");
        check(answer.body.error.message === `Batch request has more than ${MAX_BATCH_PARTS} parts`, `refused for its parts: ${answer.text.slice(0, 200)}`);
        check((await send(`${emu.url}${S}/Notes/$count`)).text === "25", "nothing applied");
        return ms;
      } finally {
        await emu.close();
      }
    },
  },
  {
    name: "OData $crossjoin: pages of a 10,000 x 10,000 product, counted",
    test: "test/emulator/odata/crossjoin.test.ts",
    budgetMs: 5_000,
    async measure() {
      const BIG = 10_000;
      const key = (name) => ({ name, type: "number", autoEnter: "serial", required: true, unique: true });
      const emu = await startEmulator({
        layouts: [
          { database: "Join", layout: "Big1", table: "Big1", fields: [key("k1"), { name: "v1", type: "number" }] },
          { database: "Join", layout: "Big2", table: "Big2", fields: [key("k2"), { name: "v2", type: "number" }] },
        ],
        data: { accounts: [{ username: "web", password: "secret" }], records: { Big1: Array.from({ length: BIG }, (_, i) => ({ v1: i })), Big2: Array.from({ length: BIG }, (_, i) => ({ v2: i })) } },
      });
      try {
        const cj = (rest) => send(`${emu.url}/fmi/odata/v4/Join/$crossjoin(Big1,Big2)${rest}`);
        let last, middle;
        const ms = await timed(async () => {
          last = await cj(`?$top=3&$skip=${BIG * BIG - 2}&$count=true`);
          middle = await cj(`?$top=1&$skip=${1234 * BIG + 5678}`);
        });
        check(last.body?.["@count"] === BIG * BIG && last.body.value.map((r) => `${r.v1},${r.v2}`).join(" ") === `${BIG - 1},${BIG - 2} ${BIG - 1},${BIG - 1}`, `the last page: ${last.text.slice(0, 200)}`);
        check(middle.body?.value?.[0]?.v1 === 1234 && middle.body.value[0].v2 === 5678, `a middle page: ${middle.text.slice(0, 200)}`);
        return ms;
      } finally {
        await emu.close();
      }
    },
  },
  {
    name: "OData $batch: Data API edits racing PATCHes and changesets (8 rounds on 4 records)",
    test: "test/emulator/odata/batch-concurrency.test.ts",
    budgetMs: 10_000,
    async measure() {
      const emu = await startOffice(2);
      try {
        const token = await dataApiLogin(emu.url);
        const json = (value) => ({ headers: [["Content-Type", "application/json"]], body: JSON.stringify(value) });
        const batch = (entries) => {
          const written = writeBatchRequest(entries);
          return send(`${emu.url}${S}/$batch`, "POST", written.body, { "Content-Type": written.contentType, "OData-Version": "4.0" });
        };
        const created = await batch([{ kind: "changeset", requests: Array.from({ length: 4 }, (_, i) => ({ method: "POST", url: `${S}/Notes`, ...json({ Text: `race ${i}`, N: 0 }) })) }]);
        const rowids = [...created.text.matchAll(/ROWID=(\d+)/g)].map((m) => Number(m[1])).filter((r, i, all) => all.indexOf(r) === i);
        check(rowids.length === 4, `four notes created: ${created.text.slice(0, 300)}`);
        const ops = [];
        for (let i = 0; i < 8; i++) {
          const rowid = rowids[i % rowids.length];
          ops.push(send(`${emu.url}/fmi/data/vLatest/databases/${OFFICE}/layouts/Notes/records/${rowid}`, "PATCH", { fieldData: { Text: `dapi ${i}` } }, { Authorization: `Bearer ${token}` }));
          ops.push(send(`${emu.url}${S}/Notes(ROWID=${rowid})`, "PATCH", { N: i }));
          ops.push(batch([{ kind: "changeset", requests: rowids.map((r) => ({ method: "PATCH", url: `${S}/Notes(ROWID=${r})`, ...json({ Text: `cs ${i}` }) })) }]));
          ops.push(batch([{ kind: "changeset", requests: [...rowids.map((r) => ({ method: "PATCH", url: `${S}/Notes(ROWID=${r})`, ...json({ Text: "FAILED", N: -1 }) })), { method: "PATCH", url: `${S}/Notes(ROWID=999999)`, ...json({ N: 1 }) }] }]));
        }
        let answers;
        const ms = await timed(async () => (answers = await Promise.all(ops)));
        check(answers.every((a) => a.status < 300), "every request answered");
        for (const rowid of rowids) check((await send(`${emu.url}${S}/Notes(ROWID=${rowid})?$select=Text`)).body.Text !== "FAILED", "no failed changeset shows");
        return ms;
      } finally {
        await emu.close();
      }
    },
  },
  ...hostileRequests().map(([what, path, status, code]) => ({
    name: `OData hostile request: ${what}`,
    test: "test/emulator/odata/hostile.test.ts",
    budgetMs: 3_000,
    async measure() {
      const emu = await startOffice(6);
      try {
        let answer;
        const ms = await timed(async () => (answer = await rawGet(emu.url, path)));
        check(answer.status === status && answer.body.includes(`"code":"${code}"`), `expected ${status} ${code}, got ${answer.status} ${answer.body.slice(0, 200)}`);
        check((await send(`${emu.url}${S}/Contacts/$count`)).text === "3", "still serving");
        return ms;
      } finally {
        await emu.close();
      }
    },
  })),
  {
    name: `OData $apply: a concat fan-out stops at MAX_APPLY_WORK (${MAX_APPLY_WORK}) rows`,
    test: "test/emulator/odata/apply.test.ts",
    budgetMs: 8_000,
    measure: () => applyRefused("Notes", Array.from({ length: 20 }, () => "concat(filter(true),filter(true))").join("/")),
  },
  {
    name: `OData $apply: chained joins stop at MAX_APPLY_WORK (${MAX_APPLY_WORK}) rows`,
    test: "test/emulator/odata/apply.test.ts",
    budgetMs: 8_000,
    measure: () => applyRefused("Contacts", Array.from({ length: 6 }, (_, i) => `join(Notes as J${i})`).join("/")),
  },
  ...[
    `compute('${"''".repeat(3000)}' as x)`,
    `filter(${"(".repeat(50)}N gt 1${")".repeat(50)})`,
    `aggregate(${Array.from({ length: 100 }, (_, i) => `"${"x".repeat(60)}${i}" with sum as a${i}`).join(",")})`,
    `groupby((${Array.from({ length: 100 }, (_, i) => `"f ${i} ${"y".repeat(50)}"`).join(",")}))`,
    "concat(".repeat(4000),
    `compute(N${" add N".repeat(1000)} as x)`,
  ].map((text) => ({
    name: `OData $apply parser: ${text.slice(0, 30)}... (${text.length} characters)`,
    test: "test/emulator/odata/apply.test.ts",
    budgetMs: 250,
    measure: () =>
      timed(() => {
        try {
          parseApply(text);
        } catch {
          // A refusal is an answer too; what is measured is how soon it comes.
        }
      }),
  })),
  {
    name: "runtime: 100 fuzzed server answers (statuses, headers, bytes, truncations, hang-ups), the slowest call",
    test: "test/security/fuzz-responses.test.ts",
    budgetMs: 5_000,
    measure: fuzzedAnswers,
  },
];

// ---------------------------------------------------------------------------------------------------
// What some cases share.

async function withRedis(fn) {
  if (!HAS_REDIS_SERVER) return "skipped: no redis-server (apt-get install redis-server)";
  const server = await startRedisServer();
  const emu = await startEmulator({ layouts: [join(ROOT, "examples/contacts/layouts")], data: join(ROOT, "examples/contacts/seed.json") });
  try {
    return await fn(server, emu);
  } finally {
    await emu.close();
    await server.kill();
    rmSync(server.dir, { recursive: true, force: true });
  }
}

async function startRedisServer() {
  const dir = mkdtempSync(join(tmpdir(), "fmgen-bench-redis-"));
  const port = await new Promise((resolve) => {
    const probe = createNetServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
  const child = spawn("redis-server", ["--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no", "--logfile", ""], { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`redis-server did not get ready in 5 s:\n${output}`)), 5_000);
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (output.includes("Ready to accept connections")) clearTimeout(timer), resolve();
    });
    child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`redis-server exited (${code}):\n${output}`))));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    dir,
    process: child,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

async function redisClient(kind, url) {
  if (kind === "ioredis") {
    const { Redis } = await import("ioredis");
    const client = new Redis(url, { lazyConnect: true });
    await client.connect();
    return client;
  }
  const { createClient } = await import("redis");
  const client = createClient({ url });
  client.on("error", () => undefined);
  await client.connect();
  return client;
}

async function closeRedisClient(kind, client) {
  if (kind === "ioredis") client.disconnect();
  else await client.destroy();
}

/** The requests of test/emulator/odata/hostile.test.ts that take the most work, one of each kind, with their answers. */
function hostileRequests() {
  const enc = (text) => text.replace(/ /g, "%20");
  const cycle = (a, b, depth) => {
    let text = "";
    for (let i = depth - 1; i >= 0; i--) text = i === depth - 1 ? (i % 2 === 0 ? a : b) : `${i % 2 === 0 ? a : b}($expand=${text})`;
    return text;
  };
  return [
    ["$filter nested 10,000 deep (past the URL cap)", `${S}/Contacts?$filter=${enc(`${"(".repeat(10_000)}Name eq 'x'${")".repeat(10_000)}`)}`, 414, "-1002"],
    ["$filter nested 4,000 deep", `${S}/Contacts?$filter=${enc(`${"(".repeat(4_000)}Name eq 'x'${")".repeat(4_000)}`)}`, 400, "-1002"],
    ["$filter of 1,300 nots", `${S}/Contacts?$filter=${enc(`${"not ".repeat(1_300)}Name eq 'x'`)}`, 400, "-1002"],
    ["$filter of tolower 900 deep", `${S}/Contacts/$count?$filter=${enc(`${"tolower(".repeat(900)}Name${")".repeat(900)} eq 'x'`)}`, 400, "-1002"],
    ["an unterminated string in $filter", `${S}/Contacts?$filter=${enc("Name eq 'Ada")}`, 400, "-1002"],
    ["$expand cycle 1,000 deep (past the URL cap)", `${S}/Contacts?$expand=${cycle("Notes", "Contacts", 1_000)}`, 414, "-1002"],
    ["$expand cycle 50 deep", `${S}/Contacts?$expand=${cycle("Notes", "Contacts", 50)}`, 400, "-1002"],
    ["an 8,000-character field name in $select", `${S}/Contacts?$select=${"N".repeat(8_000)}`, 400, "8309"],
    ["a 10,000-character table name (past the URL cap)", `${S}/${"N".repeat(10_000)}`, 414, "-1002"],
    ["a URL of 100,000 characters", `${S}/Contacts?x=${"a".repeat(100_000 - `${S}/Contacts?x=`.length)}`, 414, "-1002"],
    ["$select of 1,001 items", `${S}/Contacts?$select=${Array.from({ length: 1_001 }, () => "Name").join(",")}`, 400, "-1002"],
    ["$orderby of 10,000 items (past the URL cap)", `${S}/Contacts?$orderby=${Array.from({ length: 10_000 }, () => "Name").join(",")}`, 414, "-1002"],
  ];
}

/** GET written byte for byte on its own socket (Node's client refuses some of these request lines before sending them). */
function rawGet(url, path) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connectSocket(Number(port), hostname);
    const chunks = [];
    socket.setTimeout(60_000, () => socket.destroy(new Error("no answer in 60 s")));
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      resolve({ status, body: text.slice(text.indexOf("\r\n\r\n") + 4) });
    });
    socket.end(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: ${OFFICE_AUTH}\r\nConnection: close\r\n\r\n`);
  });
}

async function applyRefused(set, text) {
  const emu = await startOffice();
  try {
    let answer;
    const ms = await timed(async () => (answer = await send(`${emu.url}${S}/${set}?$apply=${text.replace(/ /g, "%20")}`)));
    odataError(answer, 400, "-1");
    check(answer.body.error.message.includes(String(MAX_APPLY_WORK)), `refused at MAX_APPLY_WORK: ${answer.text.slice(0, 200)}`);
    return ms;
  } finally {
    await emu.close();
  }
}

/** 100 seeded random answers to `get(1)` (seed 777, as the test), each call on a client with timeoutMs 300: the slowest. */
async function fuzzedAnswers() {
  const { default: fc } = await import("fast-check");
  let script;
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.method === "POST" && req.url?.endsWith("/sessions")) {
        res.writeHead(200, { "content-type": "application/json", "x-fm-data-access-token": "fuzz-token" });
        res.end(JSON.stringify({ response: { token: "fuzz-token" }, messages: [{ code: "0", message: "OK" }] }));
        return;
      }
      const s = script;
      if (s.hangUp) return void req.socket.destroy();
      try {
        res.writeHead(s.status, { ...s.headers, "content-length": String(s.body.byteLength + (s.truncate ? 10 : 0)) });
      } catch {
        res.writeHead(s.status, { "content-length": String(s.body.byteLength) });
      }
      if (s.truncate) res.write(s.body, () => res.destroy());
      else res.end(s.body);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  const good = { response: { data: [{ recordId: "1", modId: "0", fieldData: { "First Name": "Ada" }, portalData: {} }], dataInfo: { database: "Contacts", layout: "Contacts Web", table: "Contacts", totalRecordCount: 1, foundCount: 1, returnedCount: 1 } }, messages: [{ code: "0", message: "OK" }] };
  const envelopeLike = fc.oneof(fc.constant(good), fc.constant(good), fc.record({ response: fc.jsonValue({ maxDepth: 3 }), messages: fc.oneof(fc.constant([{ code: "0" }]), fc.jsonValue({ maxDepth: 1 })) }), fc.jsonValue({ maxDepth: 3 }));
  const arb = fc.record({
    status: fc.oneof(fc.constantFrom(200, 200, 200, 400, 401, 404, 500, 502, 503), fc.integer({ min: 100, max: 599 })),
    headers: fc.oneof(fc.constant({ "content-type": "application/json" }), fc.dictionary(fc.constantFrom("content-type", "x-fm-data-access-token", "connection", "x-junk", "transfer-encoding"), fc.string({ maxLength: 20 }), { maxKeys: 3 })),
    body: fc.oneof(envelopeLike.map((v) => Buffer.from(JSON.stringify(v))), fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)), fc.constant(Buffer.from("<html>502 Bad Gateway</html>"))),
    truncate: fc.nat(4).map((n) => n === 0),
    hangUp: fc.nat(9).map((n) => n < 2),
  });
  let slowest = 0;
  try {
    for (const s of fc.sample(arb, { numRuns: 100, seed: 777 })) {
      script = s;
      const fm = runtime.createClient({ server: url, database: "Contacts", auth: { username: "u", password: "p" }, timeoutMs: 300, retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 2 } });
      const ms = await timed(async () => {
        const outcome = await fm.layout(CONTACT).get(1).then(() => undefined, (e) => e);
        const typed = [runtime.FileMakerError, runtime.ProtocolError, runtime.NetworkError, runtime.DecodeError];
        check(outcome === undefined || typed.some((T) => outcome instanceof T), `a typed error, not ${outcome}`);
      });
      await fm.close().catch(() => undefined);
      slowest = Math.max(slowest, ms);
    }
  } finally {
    server.close();
  }
  return slowest;
}

// ---------------------------------------------------------------------------------------------------
// Run, report, judge.

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

console.log(`bounds: ${REPEATS} run(s) of each case, the median against its budget; load average ${loadavg()[0].toFixed(2)} at start\n`);
let failed = 0;
for (const c of CASES) {
  if (ONLY && !c.name.includes(ONLY)) continue;
  const runs = [];
  let verdict;
  try {
    for (let i = 0; i < REPEATS; i++) {
      const ms = await c.measure();
      if (typeof ms === "string") {
        verdict = ms;
        break;
      }
      runs.push(ms);
    }
    if (verdict === undefined) {
      const m = median(runs);
      const budget = c.budgetMs * SCALE;
      if (m > budget) failed++;
      verdict = `${m.toFixed(1).padStart(8)} ms (slowest ${Math.max(...runs).toFixed(1)}) of ${budget} ms: ${m <= budget ? "ok" : "OVER BUDGET"}`;
    }
  } catch (error) {
    failed++;
    verdict = `FAILED: ${error instanceof Error ? error.message : String(error)}`;
  }
  console.log(`${c.name}\n  ${verdict}   [${c.test}]`);
}
console.log(failed ? `\n${failed} case(s) over budget or wrong` : "\nevery case within its budget");
process.exit(failed ? 1 : 0);
