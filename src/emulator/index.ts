/**
 * A FileMaker Data API and OData emulator for tests and local development: {@link startEmulator} serves layout and
 * table descriptions over real HTTP on loopback, with seed records, accounts, API keys, scripts as JavaScript
 * handlers, calculations, webhooks and injected faults. Its choices where FileMaker is undocumented are in
 * docs/emulator.md; the wire it answers is the same as a server's, so the runtime and any other client run against it
 * unchanged.
 *
 * @example
 * ```ts
 * import { startEmulator } from "fmgen/emulator";
 *
 * const emulator = await startEmulator({ layouts: ["layouts"], data: "seed.json" });
 * // createClient({ server: emulator.url, database: "Contacts", auth: { username: "admin", password: "admin" } })
 * await emulator.close();
 * ```
 *
 * @module fmgen/emulator
 */
import { randomBytes } from "node:crypto";
import { IncomingMessage, type IncomingHttpHeaders } from "node:http";
import { Socket, type AddressInfo } from "node:net";
import type { LayoutDescription } from "../layout/description.js";
import { loadLayouts, parseLayoutDescription } from "../layout/load.js";
import type { LayoutDescriptionInput } from "../layout/schema.js";
import { loadTableFiles, parseTableDescription, type TableDescription, type TableDescriptionInput } from "../table/index.js";
import { addTableDescriptions } from "./hosted-file/described-tables.js";
import { EmulatorClock } from "./hosted-file/clock.js";
import { FAULT_KINDS, FaultPlan, type FaultKind, type FaultOptions } from "./http/faults.js";
import { listenHttp, loggedAccount, type HttpShell } from "./http/server.js";
import { routeByPrefix } from "./http/router.js";
import { odataApi } from "./odata/odata-api.js";
import { SERVICE_ROOT } from "./odata/url-request.js";
import { checkWebhookOptions, WebhookRegistry, type WebhookOptions, type WebhookStats } from "./odata/webhook-registry.js";
import { dataApi } from "./data-api/server.js";
import { buildModel, type DatabaseModel } from "./hosted-file/model.js";
import { NameMap } from "./hosted-file/name-map.js";
import { resolveDatabase } from "./hosted-file/database-name.js";
import { uniqueKey } from "./hosted-file/records/record-writes.js";
import { joinKey, relationSteps } from "./hosted-file/relations.js";
import { parseSeed, readSeedFile, seedAccounts, seedRecords, type SeedData } from "./hosted-file/seed.js";
import { SessionRegistry, SWEEP_EVERY_MS } from "./data-api/sessions.js";
import { SessionGlobals } from "./hosted-file/globals.js";
import { ApiKeyRing, type ApiKey } from "./hosted-file/api-keys.js";
import { StreamingSessions } from "./data-api/streaming-sessions.js";
import { ServedHosts } from "./http/request-host.js";
import { dropAllSessions, type DataApiState } from "./data-api/state.js";
import { AccountBook, type Account } from "./hosted-file/sign-ins.js";
import { ContainerStore, TableData, type HostedDatabase } from "./hosted-file/store.js";
import type { DatabaseDescriptionInput } from "../layout/database-schema.js";
import { loadScriptCatalog } from "./hosted-file/scripts/script-catalog.js";
import { checkFolderDepth } from "./hosted-file/layout-folders.js";
import { loadScriptModule, type ScriptHandlers } from "./hosted-file/scripts/script-module.js";
import { WebViewerBridge } from "./webviewer/bridge.js";
import type { DataApiCall } from "./webviewer/step-request.js";
import { emulatedWebViewer, type EmulatedWebViewer } from "./webviewer/page-bridge.js";
import { WEB_VIEWER_LOG_NAME, webViewerApi, WEBVIEWER_PREFIX } from "./webviewer/http-api.js";
import type { HttpApi } from "./http/server.js";
import type { AnswerBytes } from "./http/answer.js";
import { Persistence } from "./store/persistence.js";
import { exportSeed, loadSeedFiles } from "./store/seed-snapshot.js";
import { writeExportFile } from "./store/export-file.js";
import { checkCalculations, checkCalculationTables, linkComputedFields, mergeCalculations, type Calculations } from "./hosted-file/calculations.js";
import { RequestLog } from "./http/request-log.js";
import { inspectorApi, INSPECTOR_PREFIX } from "./inspector/http-api.js";
import { stringifyJson } from "../runtime/core/json-numbers.js";

export type { SeedData } from "./hosted-file/seed.js";
export type { SeedContainer, SeedFieldValue, SeedFile, SeedRecord, SeedSchemaChange, SeedTable, SeedValue } from "./hosted-file/seed-files.js";
export type { FieldDefinition } from "./hosted-file/schema-changes.js";
export type { TableDescription, TableDescriptionInput } from "../table/index.js";
export type { Account } from "./hosted-file/sign-ins.js";
export type { ApiKey } from "./hosted-file/api-keys.js";
export { FAULT_KINDS, parseFaultOptions, type FaultKind, type FaultOptions } from "./http/faults.js";
export type {
  ScriptContext,
  ScriptFoundSet,
  ScriptHandler,
  ScriptHandlers,
  ScriptPortalData,
  ScriptRecord,
  ScriptRecords,
  ScriptReturn,
  ScriptSort,
} from "./hosted-file/scripts/script-module.js";
export { ScriptStepError } from "./hosted-file/scripts/handler-api.js";
export type { WebhookOptions, WebhookStats } from "./odata/webhook-registry.js";
export type { EmulatedWebViewer, FileMakerObject } from "./webviewer/page-bridge.js";
export type { BridgeCall } from "./webviewer/bridge.js";
export { NEVER_ANSWERING_SCRIPT } from "./webviewer/bridge.js";
export type { Calculation, CalculationRecord, CalculationRelated, Calculations, CalculationValue } from "./hosted-file/calculations.js";

/**
 * What `startEmulator` takes: the descriptions to host, the data and accounts to start with, where to listen, limits,
 * and the scripts, calculations, webhooks and faults to play.
 */
export interface EmulatorOptions {
  /** Description files, folders of `*.layout.json`, or description objects. */
  layouts?: readonly (string | LayoutDescriptionInput | LayoutDescription)[];
  /**
   * Table descriptions (`<Name>.table.json`): files, folders of `*.table.json`, or description objects. A described
   * table is hosted even when no layout shows it (OData reads and writes it; seed records name it), and `$metadata`
   * states it as described (docs/emulator.md, "Table descriptions"). At least one layout or table is needed.
   */
  tables?: readonly (string | TableDescriptionInput | TableDescription)[];
  /** Seed data: a path to a JSON file or the object itself. */
  data?: string | SeedData;
  /**
   * Accounts beside the seed's: `{ username, password }`, `{ oauth: { requestId, identifier } }` (OAuth login
   * headers) or `{ fmid }` (a Claris ID id token), each with optional `privileges` (default `["fmrest", "fmodata"]`: both APIs).
   */
  accounts?: readonly Account[];
  /**
   * Static API keys, as a proxy such as OttoFMS takes them: `Authorization: Bearer <key>` under `pathPrefix`
   * (default none: the `/fmi/data` and `/fmi/odata/v4` paths themselves; `/otto` serves `/otto/fmi/data/...` and
   * `/otto/fmi/odata/v4/...`) needs no login.
   */
  apiKeys?: readonly ApiKey[];
  /** Default 127.0.0.1: the emulator is for this machine only unless told otherwise. */
  host?: string;
  /**
   * Host names (or IP addresses), without a port, that requests may name in their `Host` header besides
   * `localhost`, `127.0.0.1`, `[::1]` and the bound address: the names clients reach the emulator by (a LAN name, a
   * proxy's public name). Any other Host is answered HTTP 421, so a page of another origin cannot drive the
   * emulator by DNS rebinding.
   */
  allowedHosts?: readonly string[];
  /** Default 0: a free port. */
  port?: number;
  /** Largest JSON body accepted (default 10 MiB); larger ones get 413. */
  maxJsonBytes?: number;
  /** Largest container upload accepted (default 100 MiB): the Data API's upload and OData's binary `PATCH T(k)/Field`. */
  maxUploadBytes?: number;
  /** Where the emulator's clock starts (default: now). */
  startTime?: Date;
  /**
   * Answer HTTP 500 for every FileMaker error that the wire contract gives as 400 or 404, as real FileMaker
   * Servers do, so that clients can be tested against both (default false: the contract's statuses).
   */
  serverStatuses?: boolean;
  /**
   * Serve the layout metadata endpoints (`GET .../layouts` and `GET .../layouts/{layout}`; default true).
   * false answers them as an unknown resource (404, code 1630), as a server without them would, so that
   * clients can be tested against both (`fmgen pull` then samples records instead).
   */
  metadata?: boolean;
  /** Injected faults (latency, dropped connections, HTML 5xx, truncated bodies, revoked tokens, restarts, capacity codes). */
  faults?: FaultOptions;
  /**
   * Script handlers (docs/emulator.md, "Scripts" and "Scripts: handlers"): an object mapping script names
   * to handler functions, or the path of a module (resolved from the current directory) whose default export is one.
   */
  scripts?: string | ScriptHandlers;
  /**
   * Calculation fields (docs/emulator.md, "Calculations and related fields"): by table, then field, a function of
   * the record and its related rows, computed on every read. Beside a scripts module's `calculations` export; a
   * field given by both is an error.
   */
  calculations?: Calculations;
  /**
   * Database descriptions (`<Database>.database.json`: the file's scripts), as paths or objects, beside those
   * found in the folders among `layouts`.
   */
  databases?: readonly (string | DatabaseDescriptionInput)[];
  /**
   * A folder the hosted files persist in (docs/emulator.md, "Hosted files that persist"): records, record ids and
   * modIds, serials, container files, schema changes, OData webhooks (not their waiting deliveries) and the file's
   * globals survive a restart. The first start fills it from `data`; later starts read it instead (the seed's
   * accounts still apply), carrying the data into the descriptions as they are then. A write (a webhook's
   * registration too) is answered once it is on disk. One emulator at a time may hold a folder.
   */
  dataDir?: string;
  /** With `dataDir`: start over, from the descriptions and `data`, as if the folder were empty. */
  reset?: boolean;
  /**
   * A file `close()` writes the hosted data to, as a seed file `data` reads back (docs/emulator.md, "Snapshots"):
   * `exportData()`'s document, accounts included. Written atomically (a file beside it, then renamed); a failure
   * rejects `close()` with an error naming the file, once the emulator has stopped.
   */
  exportOnExit?: string;
  /** Where the emulator's log lines go (a script that throws, for one); default: stderr. */
  log?: (line: string) => void;
  /**
   * OData webhooks (docs/emulator.md, "Webhooks"): the hosts besides loopback their URLs may name (default none:
   * the emulator POSTs to this machine only), and how failed deliveries are retried.
   */
  webhooks?: WebhookOptions;
  /**
   * The inspector (docs/inspector.md): a page at `${url}/fmgen/` showing the hosted files, their records, the
   * sessions, webhooks and faults, and the request log (the last `logSize` Data API, OData and Web Viewer requests,
   * secrets removed; default 500), and `${url}/fmgen/export`, the hosted data as a seed file without accounts
   * (docs/emulator.md, "Snapshots"). Default on; `false` serves none of them and keeps no log.
   */
  inspector?: boolean | { logSize?: number };
}

/**
 * What `stats()` reports: counters a test asserts on (logins, sessions, requests, records, faults, container files, webhook backlog).
 */
export interface EmulatorStats {
  /** Successful logins since start. */
  logins: number;
  /** Tokens that have not expired or been logged out. */
  activeSessions: number;
  /**
   * Sessions the emulator holds in memory: the active ones, and expired ones not swept yet (the next login after a
   * minute of the emulator's clock sweeps them, and so does a timer once a minute).
   */
  heldSessions: number;
  /** HTTP requests received, of any kind. */
  requests: number;
  /** Records per table, per database: `records["Contacts"]["Contacts"]`. */
  records: Record<string, Record<string, number>>;
  /** Injected faults played so far, per kind (all 0 without `faults`). */
  faults: Record<FaultKind, number>;
  /** Container files held in memory: only those a record's field, or a live session's global field, still holds. */
  containerFiles: number;
  /** What the OData webhooks' waiting deliveries hold (bounded per file: docs/emulator.md, "Webhooks"). */
  webhooks: WebhookStats;
}

/** A started emulator, from `startEmulator`: its URL, its clock, its counters and its faults, and `close()`. */
export interface RunningEmulator {
  /** `http://host:port`; the Data API is under `${url}/fmi/data/{version}`, OData under `${url}/fmi/odata/v4`. */
  url: string;
  /** Stops listening and drops every connection; resolves once the server is closed. */
  close(): Promise<void>;
  /** Moves the emulator's clock forward (token expiry, auto-enter timestamps). */
  advanceTime(ms: number): void;
  /** The counters as they are now. */
  stats(): EmulatorStats;
  /** Drops every session, as a FileMaker Server restart does; records and containers stay. */
  restart(): void;
  /** Replaces the fault plan (a fresh sequence from its seed), or stops injecting faults with no argument. */
  setFaults(faults?: FaultOptions): void;
  /**
   * An emulated Web Viewer for a page without a browser (docs/emulator.md, "Web Viewer bridge"): `FileMaker`
   * (`PerformScript`, `PerformScriptWithOption`) answering the bridge protocol from the hosted file through the Data
   * API's own logic, signed in as `account` (a password account's name; default the first), and `install(window)`,
   * which sets `window.FileMaker` and has the page's callbacks called on that object, asynchronously and in order.
   */
  webViewer(options?: WebViewerOptions): EmulatedWebViewer;
  /**
   * The hosted data now, as a seed document (docs/emulator.md, "Snapshots"): every hosted file's schema changes and
   * tables (records with their record ids and modIds, counters, globals, container files as base64), and the accounts
   * the emulator was started with, as given. `data` reads it back; `JSON.stringify` writes it as a seed file.
   */
  exportData(): SeedData;
}

/** What `webViewer()` and the shim's URL take: whose account the bridge script runs with, and where. */
export interface WebViewerOptions {
  /** A password account's name (default: the first password account). */
  account?: string;
  /** The Web Viewer's object name; a call whose parameter names another is never answered here (default: any). */
  webViewer?: string;
  /** The hosted file the Web Viewer is in (default: the only one; needed when several are hosted). */
  database?: string;
  /** The layout named scripts run on (default: the file's first layout). */
  layout?: string;
}

const DEFAULT_HOST = "127.0.0.1";
/** `maxJsonBytes`' default: 10 MiB. */
export const DEFAULT_MAX_JSON_BYTES = 10 * 1024 * 1024;
/** `maxUploadBytes`' default: 100 MiB. */
export const DEFAULT_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/**
 * Starts the emulator (the Data API and OData over one hosted file, on 127.0.0.1 unless `host` says otherwise) and
 * resolves once it listens; a bad description, seed or scripts module is thrown before it does.
 *
 * @example
 * ```ts
 * const emulator = await startEmulator({
 *   layouts: ["layouts"],
 *   data: { accounts: [{ username: "admin", password: "admin" }], records: { Contacts: [{ "First Name": "Ada" }] } },
 * });
 * try {
 *   const fm = createClient({ server: emulator.url, database: "Contacts", auth: { username: "admin", password: "admin" } });
 *   // ... the code under test, against a real HTTP server
 * } finally {
 *   await emulator.close();
 * }
 * ```
 */
export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  checkEmulatorOptions(options);
  const webhookOptions = checkWebhookOptions(options.webhooks);
  // One state: the hosted server both APIs serve, with the Data API's sessions beside it (data-api/state.ts).
  // With a data directory, a seed file's records (and files) are read only at a start that fills DIR from it.
  const seed = await readSeedOption(options.data, { whole: options.dataDir === undefined || options.reset === true });
  const state = await createState(options, seed);
  // What the emulator was started with, as given (an export to a file carries them; GET /fmgen/export never does).
  const startAccounts = distinctAccounts([...(seed?.data.accounts ?? []), ...(options.accounts ?? []).map((a) => structuredClone(a) as NonNullable<SeedData["accounts"]>[number])]);
  const webhooks = new WebhookRegistry(state, webhookOptions);
  // With a data directory, the webhooks' registrations are kept too (registered again there, after the records).
  const persistence = options.dataDir === undefined ? undefined : await openDataDir(options.dataDir, options, state, seed, webhooks).catch((error: unknown) => {
    webhooks.close();
    throw error;
  });
  // Requests under /fmi/odata/v4 go to the OData API, the rest to the Data API: one hosted file, two APIs.
  // An API key's proxy prefix serves OData too (`/otto/fmi/odata/v4`), before the Data API's routes take the rest.
  const odataRoutes = [...state.apiKeys.pathPrefixes().map((p) => ({ prefix: p + SERVICE_ROOT, api: odataApi(state, webhooks, p) })), { prefix: SERVICE_ROOT, api: odataApi(state, webhooks) }];
  // The HTTP shell (http/server.ts) carries both: the Host check, faults, bodies, for every route.
  const shell: HttpShell = {
    counters: { requests: 0 },
    hosts: new ServedHosts(options.host ?? DEFAULT_HOST, options.allowedHosts ?? []),
    faults: options.faults ? new FaultPlan(options.faults) : undefined,
    restart: () => dropAllSessions(state),
    requestLog: inspectorLog(options.inspector),
    ...(persistence ? { durable: () => persistence.durable() } : {}),
  };
  const data = dataApi(state);
  const log = state.log;
  // The Web Viewer bridge answers through the Data API's own router and handlers, in process (webviewer/ imports neither API).
  // webViewer()'s calls reach no HTTP route: each Data API call its bridge makes is a "Web Viewer" entry of the request
  // log (the shim's bridges are not: the shim's own request is the call's entry).
  const bridge = (wv: WebViewerOptions, requestLog?: RequestLog) => {
    const call = inProcessDataApi(data, state, wv.account, shell.durable, requestLog);
    return new WebViewerBridge({ ...bridgeTarget(state, wv), call: call.run, account: call.account, webViewer: wv.webViewer, log });
  };
  const shimBridges = new Map<string, WebViewerBridge>();
  const shimApi = webViewerApi({
    maxJsonBytes: state.maxJsonBytes,
    bridgeFor: (account, webViewer) => {
      const key = JSON.stringify([account ?? null, webViewer ?? null]);
      let found = shimBridges.get(key);
      if (!found) shimBridges.set(key, (found = bridge({ ...(account === undefined ? {} : { account }), ...(webViewer === undefined ? {} : { webViewer }) })));
      return found;
    },
  });
  // The inspector (inspector/) takes the rest of /fmgen, the shim its own two paths; it reads the Data API's
  // sessions, the webhooks and the fault plan through the functions given here, so that it imports neither API.
  const requestLog = shell.requestLog;
  const inspector = requestLog
    ? inspectorApi({
        server: state,
        log: requestLog,
        sessions: () => state.sessions.list(),
        webhooks: (database) => webhooks.list(database),
        deliveries: webhooks.deliveries,
        faults: () => (shell.faults ? { options: shell.faults.options, counts: { ...shell.faults.counts } } : undefined),
      })
    : undefined;
  const fmgenRoutes = inspector
    ? [{ prefix: `${WEBVIEWER_PREFIX}/webviewer.js`, api: shimApi }, { prefix: `${WEBVIEWER_PREFIX}/webviewer`, api: shimApi }, { prefix: INSPECTOR_PREFIX, api: inspector }]
    : [{ prefix: WEBVIEWER_PREFIX, api: shimApi }];
  const routes = [...fmgenRoutes, ...odataRoutes];
  const server = await listenHttp(shell, routeByPrefix(routes, data), options.host ?? DEFAULT_HOST, options.port ?? 0);
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  state.baseUrl = `http://${host}:${address.port}`;
  // Sweeps expired sessions of an emulator nobody logs in to (logins sweep too); it never keeps the process alive.
  const sweeper = setInterval(() => state.sessions.sweep(), SWEEP_EVERY_MS);
  sweeper.unref();

  return {
    url: state.baseUrl,
    close: () =>
      new Promise<void>((resolve, reject) => {
        clearInterval(sweeper);
        webhooks.close();
        server.close((error) => {
          // Nothing writes any more: the export is the data as the last request left it. What the last requests
          // wrote is on disk before the folder is let go, whether the export could be written or not.
          const file = options.exportOnExit;
          // In a promise: a throw while the document is built rejects close() rather than escaping this callback.
          const exported = file === undefined ? Promise.resolve() : Promise.resolve().then(() => writeExportFile(file, exportSeed(state, startAccounts)));
          const closed = exported.finally(() => (persistence ? persistence.close() : undefined));
          closed.then(() => (error ? reject(error) : resolve()), reject);
        });
        server.closeAllConnections();
      }),
    advanceTime: (ms) => state.clock.advance(ms),
    restart: () => dropAllSessions(state),
    setFaults: (faults) => {
      shell.faults = faults ? new FaultPlan(faults) : undefined;
    },
    webViewer: (wv = {}) => emulatedWebViewer(bridge(wv, shell.requestLog), log),
    exportData: () => exportSeed(state, startAccounts),
    stats: () => ({
      faults: { ...(shell.faults?.counts ?? Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>) },
      logins: state.sessions.logins,
      activeSessions: state.sessions.activeCount(),
      heldSessions: state.sessions.heldCount(),
      requests: shell.counters.requests,
      containerFiles: state.containers.count(),
      webhooks: webhooks.stats(),
      records: Object.fromEntries(
        [...state.databases].map(([name, db]) => [name, Object.fromEntries([...db.tables].map(([t, data]) => [t, data.records.size]))]),
      ),
    }),
  };
}

/** The request log the inspector shows, unless `inspector: false`. */
function inspectorLog(option: EmulatorOptions["inspector"]): RequestLog | undefined {
  if (option === false) return undefined;
  if (option === undefined || option === true) return new RequestLog();
  if (typeof option !== "object" || option === null || Array.isArray(option)) throw new TypeError("startEmulator: options.inspector must be true, false or { logSize }");
  if (option.logSize !== undefined && !(Number.isInteger(option.logSize) && option.logSize >= 1 && option.logSize <= 1_000_000)) {
    throw new TypeError(`startEmulator: options.inspector.logSize must be a whole number from 1 to 1000000, got ${String(option.logSize)}`);
  }
  return new RequestLog(option.logSize);
}

/** The hosted file and the scripts' layout of a Web Viewer; an unknown or ambiguous one is thrown. */
function bridgeTarget(state: DataApiState, wv: WebViewerOptions): { database: string; scriptLayout: string } {
  const names = [...state.databases.keys()];
  const database = wv.database ?? (names.length === 1 ? names[0]! : undefined);
  if (database === undefined) throw new Error(`webViewer: name the hosted file (database), one of ${names.map((n) => JSON.stringify(n)).join(", ")}`);
  // Named as both APIs name a file (hosted-file/database-name.ts): `.fmp12` and case aside.
  const named = resolveDatabase(state.databases, database);
  if (!named) throw new Error(`webViewer: no hosted file named ${JSON.stringify(database)}`);
  const scriptLayout = wv.layout ?? named.db.model.layouts.keys().next().value;
  if (scriptLayout === undefined) throw new Error(`webViewer: the hosted file ${JSON.stringify(named.name)} has no layout to run scripts on`);
  return { database: named.name, scriptLayout };
}

/**
 * Runs Data API requests in process through the Data API's router and handlers (`dataApi(state).serve`) as
 * `account`, as the step does with the user's account: one session, signed in on first use and again once the
 * token has expired (a 952 answer). Each request is a request object of its own, with its JSON body; with
 * `requestLog`, each is an entry of it (as "Web Viewer", with the account and FileMaker code the Data API notes).
 * Returns the call, and the account's name.
 */
function inProcessDataApi(data: HttpApi, state: DataApiState, accountName: string | undefined, durable?: () => Promise<void>, requestLog?: RequestLog): { run: DataApiCall; account: string } {
  const account = state.accounts.passwordAccount(accountName);
  if (!account) throw new Error(accountName === undefined ? "webViewer: the emulator has no password account to run the bridge with" : `webViewer: no password account named ${JSON.stringify(accountName)}`);
  const tokens = new Map<string, string>();
  const run = async (method: string, path: string, headers: IncomingHttpHeaders, body?: object) => {
    const req = new IncomingMessage(new Socket());
    req.method = method;
    req.url = `/fmi/data/vLatest/${path}`;
    // stringifyJson: a number token a double does not hold (a NumberToken the bridge read) goes on bare, every digit.
    const bytes = body === undefined ? undefined : Buffer.from(stringifyJson(body));
    // The emulator's own host and port: container URLs are built from the Host header, and the page fetches them over HTTP.
    req.headers = { host: state.baseUrl === "" ? "127.0.0.1" : new URL(state.baseUrl).host, ...headers, ...(bytes ? { "content-type": "application/json", "content-length": String(bytes.byteLength) } : {}) };
    if (bytes) req.push(bytes);
    req.push(null);
    const entry = requestLog?.open(req, WEB_VIEWER_LOG_NAME);
    let answer: AnswerBytes | undefined;
    try {
      answer = await data.serve(req);
      // As over HTTP: what the call wrote is on disk before the page hears of it.
      await durable?.();
    } finally {
      if (entry !== undefined) {
        if (answer) requestLog!.noteAccount(entry, loggedAccount(data, req, answer));
        requestLog!.close(entry, answer, answer?.status ?? 0);
      }
    }
    return answer.body.toString("utf8");
  };
  const signIn = async (database: string) => {
    const basic = Buffer.from(`${account.username}:${account.password}`).toString("base64");
    const text = await run("POST", `databases/${encodeURIComponent(database)}/sessions`, { authorization: `Basic ${basic}` }, {});
    const token = (JSON.parse(text) as { response?: { token?: string } }).response?.token;
    if (token === undefined) return { text };
    tokens.set(database, token);
    return { token };
  };
  const call: DataApiCall = async ({ method, path, body }) => {
    const database = decodeURIComponent(/^databases\/([^/?]+)/.exec(path)?.[1] ?? "");
    for (let attempt = 0; ; attempt++) {
      let token = tokens.get(database);
      if (token === undefined) {
        const signedIn = await signIn(database);
        if (signedIn.token === undefined) return signedIn.text;
        token = signedIn.token;
      }
      const text = await run(method, path, { authorization: `Bearer ${token}` }, body);
      if (attempt === 0 && (JSON.parse(text) as { messages?: { code?: string }[] }).messages?.[0]?.code === "952") {
        tokens.delete(database);
        continue;
      }
      return text;
    }
  };
  return { run: call, account: account.username };
}

/** What each option must be when given: a list, a path or an object, a number, a flag, an object, a function. */
const OPTION_KINDS: Record<string, "a list" | "a file path or an object" | "a number" | "a non-empty string" | "true or false" | "true, false or an object" | "an object" | "a function" | "a Date"> = {
  layouts: "a list",
  tables: "a list",
  accounts: "a list",
  apiKeys: "a list",
  allowedHosts: "a list",
  databases: "a list",
  data: "a file path or an object",
  scripts: "a file path or an object",
  host: "a non-empty string",
  port: "a number",
  maxJsonBytes: "a number",
  maxUploadBytes: "a number",
  startTime: "a Date",
  serverStatuses: "true or false",
  metadata: "true or false",
  dataDir: "a non-empty string",
  exportOnExit: "a non-empty string",
  reset: "true or false",
  faults: "an object",
  calculations: "an object",
  inspector: "true, false or an object",
  webhooks: "an object",
  log: "a function",
};

/**
 * Refuses options of the wrong kind before anything starts, naming the option and what it was given (its type, never
 * a text's value); an undefined option is left out. A path given as "" hints at an unset environment variable.
 */
function checkEmulatorOptions(options: unknown): asserts options is EmulatorOptions {
  const given = (value: unknown) => (value === null ? "null" : value === "" ? "an empty string" : Array.isArray(value) ? "an array" : typeof value === "number" ? String(value) : `a ${typeof value}`);
  if (typeof options !== "object" || options === null || Array.isArray(options)) throw new TypeError(`startEmulator: options must be an object, got ${options === undefined ? "undefined" : given(options)}`);
  for (const [name, kind] of Object.entries(OPTION_KINDS)) {
    const value = (options as Record<string, unknown>)[name];
    if (value === undefined) continue;
    const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
    const ok =
      kind === "a list" ? Array.isArray(value)
      : // An array goes on to the checks of the data and scripts themselves, which say what they hold.
        kind === "a file path or an object" ? (typeof value === "string" && value !== "") || (typeof value === "object" && value !== null)
      : kind === "a non-empty string" ? typeof value === "string" && value !== ""
      : kind === "a number" ? typeof value === "number" && !Number.isNaN(value) && (name !== "port" || (Number.isInteger(value) && value >= 0 && value <= 65535))
      : kind === "true or false" ? typeof value === "boolean"
      : kind === "true, false or an object" ? typeof value === "boolean" || isObject
      : kind === "a Date" ? value instanceof Date && !Number.isNaN(value.getTime())
      : kind === "a function" ? typeof value === "function"
      : isObject;
    if (!ok) {
      const want = name === "port" ? "a whole number from 0 to 65535" : kind;
      const hint = value === "" && kind === "a file path or an object" ? ": an unset environment variable? (node --env-file=.env ...)" : "";
      throw new TypeError(`startEmulator: options.${name} must be ${want}, got ${given(value)}${hint}`);
    }
  }
}

/** Loads descriptions and seed data into a fresh state (the hosted server and the Data API's sessions); every input error is thrown before the server starts. */
export async function createState(options: EmulatorOptions, given?: ReadSeed): Promise<DataApiState> {
  const descriptions = await resolveLayouts(options.layouts ?? []);
  const tableDescriptions = await resolveTables(options.tables ?? []);
  if (descriptions.length === 0 && tableDescriptions.length === 0) throw new Error("the emulator needs at least one layout or table description");
  for (const d of descriptions) checkFolderDepth(d.folder?.split("/") ?? [], `${d.source ? `${d.source}: ` : ""}layout "${d.layout}"`);
  const clock = new EmulatorClock(options.startTime);
  const accounts = new AccountBook();
  const sessions = new SessionRegistry(clock, accounts);
  const apiKeys = new ApiKeyRing(options.apiKeys ?? []);
  // A file a session's (or an API key's) global field holds is kept while the session lives (store.ts).
  const containers = new ContainerStore((scope) => !(scope instanceof SessionGlobals) || sessions.ownsGlobals(scope) || apiKeys.ownsGlobals(scope));
  const log = options.log ?? ((line: string) => process.stderr.write(`fmgen emulator: ${line}\n`));
  // The scripts module first: its calculations are part of the file's tables, which the seed fills.
  const module = typeof options.scripts === "string" ? await loadScriptModule(options.scripts) : undefined;
  const calculations = mergeCalculations([
    ...(module?.calculations ? [{ calculations: module.calculations, source: `${options.scripts as string}: export calculations` }] : []),
    ...(options.calculations ? [{ calculations: checkCalculations(options.calculations, "calculations"), source: "calculations" }] : []),
  ]);
  const models = buildModel(descriptions);
  for (const warning of addTableDescriptions(models, tableDescriptions)) log(warning);
  checkCalculationTables(calculations, models.values());
  const databases = new NameMap<HostedDatabase>();
  for (const [name, model] of models) {
    // Computed fields are marked before the tables are made (no index is kept on them); their values read `tables`.
    const tables = new NameMap<TableData>();
    const computed = linkComputedFields(model, tables, calculations, { write: log });
    for (const [table, data] of createTables(model, containers)) tables.set(table, data);
    for (const { table, field, values } of computed) tables.get(table)!.compute(field, values);
    databases.set(name, { model, tables });
  }
  const seed = given ?? (await readSeedOption(options.data, { whole: options.dataDir === undefined }));
  if (seed) {
    for (const account of seedAccounts(seed.data)) accounts.add(account);
    // With a data directory, records come from it, or from the seed at its first start (openDataDir).
    if (options.dataDir === undefined) fillFromSeed(seed.data, seed.source, { databases, containers, clock });
  }
  for (const account of options.accounts ?? []) accounts.add(account);
  return {
    databases,
    clock,
    containers,
    accounts,
    apiKeys,
    maxUploadBytes: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
    baseUrl: "",
    urlKey: randomBytes(32),
    sessions,
    streaming: new StreamingSessions(),
    maxJsonBytes: options.maxJsonBytes ?? DEFAULT_MAX_JSON_BYTES,
    serverStatuses: options.serverStatuses ?? false,
    metadata: options.metadata ?? true,
    scripts: await loadScriptCatalog(
      { scripts: module?.handlers ?? options.scripts, databases: options.databases, layoutPaths: (options.layouts ?? []).filter((l): l is string => typeof l === "string") },
      descriptions,
    ),
    log,
  };
}

/** A seed as read, with the name its errors give it (the file's path, or `<seed>` for an object). */
interface ReadSeed {
  /** All of it, or (a file read with `whole: false`) its accounts only. */
  data: SeedData;
  source: string;
  /** All of it: `data`, or the file read again whole (a data directory's first start). */
  whole(): Promise<SeedData>;
}

/**
 * `data`, read. `whole: false` reads a seed file's accounts only (seed.ts), for a start whose records and files come
 * from a data directory; `whole()` reads the rest if they do not (DIR was empty). `--reset` reads it whole up front:
 * a seed that does not read refuses the start before DIR is emptied.
 */
async function readSeedOption(data: EmulatorOptions["data"], { whole }: { whole: boolean }): Promise<ReadSeed | undefined> {
  if (typeof data === "string") {
    const read = await readSeedFile(data, { records: whole });
    return { data: read, source: data, whole: whole ? async () => read : () => readSeedFile(data) };
  }
  if (!data) return undefined;
  const parsed = parseSeed(data);
  return { data: parsed, source: "<seed>", whole: async () => parsed };
}

/** An export's hosted files as they were (ids kept), then the seed's records, created after them. */
function fillFromSeed(seed: SeedData, source: string, server: Pick<DataApiState, "databases" | "containers" | "clock">): void {
  if (seed.files) loadSeedFiles(seed.files, server, source);
  seedRecords(seed, server.databases, server.clock, source);
}

/** The accounts in order, an exact repeat left out (an account in the seed given again with --account). */
function distinctAccounts(accounts: NonNullable<SeedData["accounts"]>): NonNullable<SeedData["accounts"]> {
  const seen = new Set<string>();
  return accounts.filter((a) => {
    const key = JSON.stringify(a);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Opens the data directory and fills the state from it, or from the seed at its first start. */
async function openDataDir(dir: string, options: EmulatorOptions, state: DataApiState, seed: ReadSeed | undefined, webhooks: WebhookRegistry): Promise<Persistence> {
  return Persistence.open(dir, state, { reset: options.reset, seed: async () => seed && fillFromSeed(await seed.whole(), seed.source, state), webhooks });
}

/** Empty tables with indexes on unique fields and on the keys portal rows are joined by. */
function createTables(model: DatabaseModel, containers: ContainerStore): Map<string, TableData> {
  const tables = new Map([...model.tables].map(([name, table]) => [name, new TableData(table, containers)]));
  for (const table of tables.values()) {
    for (const field of table.model.fields.values()) if (field.unique) table.addIndex(field, "unique", uniqueKey);
  }
  for (const layout of model.layouts.values()) {
    for (const portal of layout.portals) {
      if (portal.relation) tables.get(portal.table.name)!.addIndex(portal.relation.childField, "join", joinKey);
    }
  }
  // A described relation's match fields, both ways (either side may be the one looked up).
  for (const table of model.tables.values()) {
    for (const join of table.described?.joins ?? []) {
      tables.get(join.table)!.addIndex(join.relatedField, "join", joinKey);
      tables.get(table.name)!.addIndex(join.field, "join", joinKey);
    }
  }
  // A table with computed fields reads its related rows both ways along its relations (calculations.ts).
  for (const [from, byName] of relationSteps(model)) {
    if (![...model.tables.get(from)!.fields.values()].some((field) => field.computed)) continue;
    for (const steps of byName.values()) for (const step of steps) tables.get(step.toTable)!.addIndex(step.toField, "join", joinKey);
  }
  return tables;
}

async function resolveLayouts(layouts: NonNullable<EmulatorOptions["layouts"]>): Promise<LayoutDescription[]> {
  const out: LayoutDescription[] = [];
  for (const [i, entry] of layouts.entries()) {
    if (typeof entry === "string") out.push(...(await loadLayouts([entry])));
    else out.push(parseLayoutDescription(entry, `layouts[${i}]`));
  }
  return out;
}

async function resolveTables(tables: NonNullable<EmulatorOptions["tables"]>): Promise<TableDescription[]> {
  const out: TableDescription[] = [];
  for (const [i, entry] of tables.entries()) {
    if (typeof entry === "string") out.push(...(await loadTableFiles([entry])));
    else {
      // A description loaded before (`loadTables`) carries its defaults and source: parse it again as its input.
      const { source, ...input } = entry as TableDescription;
      out.push(parseTableDescription(input, source ?? `tables[${i}]`));
    }
  }
  return out;
}
