import { afterAll, describe, expect, it } from "vitest";
import * as nodeEntry from "../../src/runtime/index.js";
import * as fetchEntry from "../../src/runtime/fetch.js";
import * as odataNode from "../../src/runtime/odata/index.js";
import * as odataFetch from "../../src/runtime/odata/fetch.js";
import { fileTokenStore } from "../../src/runtime/file-token-store.js";
import { redisTokenStore } from "../../src/runtime/redis-token-store.js";
import { layoutMetadata, odataMetadata, wireRecords } from "../../src/runtime/metadata.js";
import { startEmulator } from "../../src/emulator/index.js";

// Every public entry checks its options itself: whatever an option is given (undefined: a forgotten --env-file; null;
// a value of the wrong type; an empty string), the entry throws a TypeError naming itself and the option, never a
// TypeError from inside ("Cannot read properties of undefined"). Required text options that usually come from the
// environment add the hint that an unset variable is the usual cause.

const ENV_HINT = "an unset environment variable?";
/** The hint as the clients word it (the file token store says only the question: its budget is tight). */
const CLIENT_HINT = `${ENV_HINT} (node --env-file=.env ...)`;
const BAD = { undefined: undefined, null: null, "wrong type": 42, "empty string": "" } as const;
type BadKind = keyof typeof BAD;

/** One option of one entry: how the options look with `bad` in its place, and which of the bad values are refused. */
interface Row {
  option: string;
  call: (bad: unknown) => unknown;
  /** The kinds that are legitimate for this option (an optional option may be left undefined). */
  allowed?: BadKind[];
  /** Whether undefined and "" name the environment. */
  env?: boolean;
  /** Another wrong type than 42 (for an option that may be a number). */
  wrong?: unknown;
}

const OPTIONAL: BadKind[] = ["undefined"];
const SERVER = "http://127.0.0.1:9";
const PASSWORD_AUTH = { username: "web", password: "pw" };

/**
 * What both APIs' clients take alike: the options object, server, database, the auth object and a password sign-in;
 * `withAuth` and `optionRows` for the rows each adds.
 */
function commonRows(entry: (options: never) => unknown) {
  const base = { server: SERVER, database: "Contacts", auth: PASSWORD_AUTH };
  const withOption = (name: string) => (bad: unknown) => entry({ ...base, [name]: bad } as never);
  const withAuth = (auth: (bad: unknown) => unknown) => (bad: unknown) => entry({ ...base, auth: auth(bad) } as never);
  /** Optional options: undefined allowed, a wrong type refused ("30000" for the numbers, 42 for the others). */
  const optionRows = (names: string[]): Row[] =>
    names.map((name): Row => ({ option: `options.${name}`, call: withOption(name), allowed: OPTIONAL, wrong: /Ms$|Bytes$/.test(name) ? "30000" : 42 }));
  const rows: Row[] = [
    { option: "options", call: (bad) => entry(bad as never) },
    { option: "options.server", call: withOption("server"), env: true },
    { option: "options.database", call: withOption("database"), env: true },
    { option: "options.auth", call: withOption("auth") },
    { option: "options.auth.username", call: withAuth((bad) => ({ username: bad, password: "pw" })), env: true },
    { option: "options.auth.password", call: withAuth((bad) => ({ username: "web", password: bad })), env: true, allowed: ["empty string"] },
  ];
  return { rows, withAuth, optionRows };
}

function clientRows(entry: typeof nodeEntry.createClient, transportOption: "dispatcher" | "fetch"): Row[] {
  const { rows, withAuth, optionRows } = commonRows(entry);
  return [
    ...rows,
    { option: "options.auth.token", call: withAuth((bad) => ({ token: bad })), env: true },
    { option: "options.auth.apiKey", call: withAuth((bad) => ({ apiKey: bad })), env: true },
    { option: "options.auth.oauth.requestId", call: withAuth((bad) => ({ oauth: { requestId: bad, identifier: "i" } })), env: true },
    { option: "options.auth.claris", call: withAuth((bad) => ({ claris: bad })) },
    ...optionRows(["tokenStore", "version", "fmDataSource", "timeoutMs", "maxResponseBytes", "retry", "validate", "dateFormat", "idleRefreshMs", "now", "insecure", transportOption]),
  ];
}

function odataRows(entry: typeof odataNode.createODataClient, transportOption: "dispatcher" | "fetch"): Row[] {
  const { rows, withAuth, optionRows } = commonRows(entry);
  return [
    ...rows,
    { option: "options.auth.apiKey", call: withAuth((bad) => ({ apiKey: bad })), env: true },
    { option: "options.auth.pathPrefix", call: withAuth((bad) => ({ apiKey: "k", pathPrefix: bad })), allowed: ["undefined", "empty string"] },
    { option: "options.auth.claris", call: withAuth((bad) => ({ claris: bad })) },
    ...optionRows(["entityIds", "timeoutMs", "maxResponseBytes", "retry", "insecure", transportOption]),
  ];
}

const redisClient = { get: async () => null, set: async () => "OK", del: async () => 1, on: () => undefined };
const fm = nodeEntry.createClient({ server: SERVER, database: "Contacts", auth: PASSWORD_AUTH });
const od = odataNode.createODataClient({ server: SERVER, database: "Contacts", auth: PASSWORD_AUTH });
afterAll(async () => {
  await fm.close();
  await od.close();
});

const ENTRIES: [string, Row[]][] = [
  ["createClient", clientRows(nodeEntry.createClient, "dispatcher")],
  ["createClient", clientRows(fetchEntry.createClient as never, "fetch")],
  ["createODataClient", odataRows(odataNode.createODataClient, "dispatcher")],
  ["createODataClient", odataRows(odataFetch.createODataClient as never, "fetch")],
  [
    "fileTokenStore",
    [
      { option: "path", call: (bad) => fileTokenStore(bad as never), env: true },
      { option: "options", call: (bad) => fileTokenStore("/tmp/fmgen-options-test/tokens.json", bad as never), allowed: OPTIONAL },
      { option: "options.lockTimeoutMs", call: (bad) => fileTokenStore("/tmp/fmgen-options-test/tokens.json", { lockTimeoutMs: bad as never }), allowed: OPTIONAL, wrong: "5000" },
    ],
  ],
  [
    "redisTokenStore",
    [
      { option: "client", call: (bad) => redisTokenStore(bad as never) },
      { option: "options", call: (bad) => redisTokenStore(redisClient as never, bad as never), allowed: OPTIONAL },
      { option: "options.prefix", call: (bad) => redisTokenStore(redisClient as never, { prefix: bad as never }), allowed: ["undefined", "empty string"] },
      { option: "options.ttlMs", call: (bad) => redisTokenStore(redisClient as never, { ttlMs: bad as never }), allowed: OPTIONAL, wrong: "5000" },
      { option: "options.timeoutMs", call: (bad) => redisTokenStore(redisClient as never, { timeoutMs: bad as never }), allowed: OPTIONAL, wrong: "5000" },
      { option: "options.onError", call: (bad) => redisTokenStore(redisClient as never, { onError: bad as never }), allowed: OPTIONAL },
    ],
  ],
  [
    "layoutMetadata",
    [
      { option: "fm", call: (bad) => layoutMetadata(bad as never, "Contacts") },
      { option: "layout", call: (bad) => layoutMetadata(fm, bad as never) },
      { option: "options", call: (bad) => layoutMetadata(fm, "Contacts", bad as never), allowed: OPTIONAL },
      { option: "options.signal", call: (bad) => layoutMetadata(fm, "Contacts", { signal: bad as never }), allowed: OPTIONAL },
    ],
  ],
  [
    "wireRecords",
    [
      { option: "fm", call: (bad) => wireRecords(bad as never, "Contacts") },
      { option: "layout", call: (bad) => wireRecords(fm, bad as never) },
      { option: "options", call: (bad) => wireRecords(fm, "Contacts", bad as never), allowed: OPTIONAL },
      { option: "options.offset", call: (bad) => wireRecords(fm, "Contacts", { offset: bad as never }), allowed: OPTIONAL, wrong: "1" },
      { option: "options.limit", call: (bad) => wireRecords(fm, "Contacts", { limit: bad as never }), allowed: OPTIONAL, wrong: "1" },
      { option: "options.signal", call: (bad) => wireRecords(fm, "Contacts", { signal: bad as never }), allowed: OPTIONAL },
    ],
  ],
  [
    "odataMetadata",
    [
      { option: "od", call: (bad) => odataMetadata(bad as never) },
      { option: "options", call: (bad) => odataMetadata(od, bad as never), allowed: OPTIONAL },
      { option: "options.signal", call: (bad) => odataMetadata(od, { signal: bad as never }), allowed: OPTIONAL },
    ],
  ],
  [
    "startEmulator",
    [
      { option: "options", call: (bad) => startEmulator(bad as never) },
      ...["layouts", "tables", "accounts", "apiKeys", "allowedHosts", "databases"].map((name): Row => ({ option: `options.${name}`, call: (bad) => startEmulator({ [name]: bad } as never), allowed: OPTIONAL })),
      ...["data", "scripts", "host"].map((name): Row => ({ option: `options.${name}`, call: (bad) => startEmulator({ [name]: bad } as never), allowed: OPTIONAL, env: name !== "host" })),
      ...["port", "maxJsonBytes", "maxUploadBytes"].map((name): Row => ({ option: `options.${name}`, call: (bad) => startEmulator({ [name]: bad } as never), allowed: OPTIONAL, wrong: "8080" })),
      ...["startTime", "serverStatuses", "metadata", "faults", "calculations", "log", "webhooks"].map(
        (name): Row => ({ option: `options.${name}`, call: (bad) => startEmulator({ [name]: bad } as never), allowed: OPTIONAL }),
      ),
    ],
  ],
];

/** What the call threw or rejected with (undefined when it returned). */
async function failure(call: () => unknown): Promise<unknown> {
  try {
    const result = call();
    if (result instanceof Promise) {
      const settled = await result.then(
        (value: unknown) => ({ value }),
        (error: unknown) => ({ error }),
      );
      if ("error" in settled) return settled.error;
      const done = settled.value as { close?: () => Promise<void> };
      if (typeof done?.close === "function") await done.close();
    }
    return undefined;
  } catch (error) {
    return error;
  }
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe.each(ENTRIES.map(([entry, rows], i) => [`${entry} (${i})`, entry, rows] as const))("%s", (_, entry, rows) => {
  const cases = rows.flatMap((row) => (Object.keys(BAD) as BadKind[]).filter((kind) => !row.allowed?.includes(kind)).map((kind) => [row.option, kind, row] as const));
  it.each(cases)("%s = %s: a TypeError naming the entry and the option", async (option, kind, row) => {
    const value = kind === "wrong type" && "wrong" in row ? row.wrong : BAD[kind];
    const error = await failure(() => row.call(value));
    expect(error, `${entry} ${option} = ${kind}`).toBeInstanceOf(TypeError);
    const message = (error as Error).message;
    expect(message).toMatch(new RegExp(`^${escape(entry)}: ${escape(option)} `));
    expect(message).not.toMatch(/Cannot read|is not a function|is not iterable|Cannot convert/);
    if (row.env && (kind === "undefined" || kind === "empty string")) expect(message).toContain(ENV_HINT);
    else expect(message).not.toContain(ENV_HINT);
  });
});

describe("the messages", () => {
  it("say what was given and what is wanted, never a text value (it may be a secret)", () => {
    expect(() => nodeEntry.createClient({ server: undefined as never, database: "Contacts", auth: PASSWORD_AUTH })).toThrow(
      new TypeError(`createClient: options.server must be an http:// or https:// URL, got undefined: ${CLIENT_HINT}`),
    );
    expect(() => odataNode.createODataClient({ server: SERVER, database: "Contacts", auth: { username: "web", password: undefined as never } })).toThrow(
      new TypeError(`createODataClient: options.auth.password must be a string, got undefined: ${CLIENT_HINT}`),
    );
    expect(() => nodeEntry.createClient({ server: SERVER, database: "Contacts", auth: { username: "web", password: "pw" }, timeoutMs: "30000" as never })).toThrow(
      new TypeError("createClient: options.timeoutMs must be a number, got string"),
    );
    expect(() => nodeEntry.createClient({ server: SERVER, database: "Contacts", auth: { usrname: "web", password: "pw" } as never })).toThrow(/^createClient: options\.auth must be .*, got an object with keys usrname,password$/);
  });
});
