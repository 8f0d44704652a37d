import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { AnswerBytes } from "./answer.js";

// The request log the inspector shows (../inspector/): one entry per request to an API that has a log name (the
// Data API, OData, the Web Viewer shim; the inspector's own requests are not logged), in a ring of a fixed size.
// The shell opens an entry when a request arrives and closes it once the answer is written; the API annotates it
// (its account, through logEntryOf) and its answer carries its code (AnswerBytes.code). What is kept is raw and
// bounded: the request's headers object as Node gave it, at most BODY_BYTES of each body (a short answer's bytes as
// they are, a copy of anything else, so that a large body is not held), only for JSON and text bodies (never a
// container's bytes). Secrets are removed when the log is read (../inspector/redact.ts), not per request: a request
// costs an object, a WeakMap entry and a copy of its request body.

/** How many requests the log keeps by default, the oldest dropped first. */
export const DEFAULT_LOG_SIZE = 500;
/** How many bytes of each body an entry keeps; the rest is counted, not kept. */
export const BODY_BYTES = 4096;

/** One request as the log keeps it. */
export interface LogEntry {
  /** 1, 2, 3, ... in arrival order: what a reader asks for entries after. */
  readonly id: number;
  /** When it arrived, ms since the epoch (the machine's clock, not the emulator's). */
  readonly at: number;
  /** Which API it was for (HttpApi.logName). */
  readonly api: string;
  readonly method: string;
  /** The request target as sent (path and query), secrets and all: read it through the inspector's redaction. */
  readonly target: string;
  readonly requestHeaders: IncomingHttpHeaders;
  /** The account the API signed the request in as (a user name, "API key", "Claris ID", "OAuth"), when it knows. */
  account?: string | undefined;
  /** The API's code of the answer (FileMaker's, or OData's error code; "0" for OData's successes). */
  code?: string | undefined;
  /** The status written; undefined while the request runs, 0 when no answer was written (a dropped connection). */
  status?: number | undefined;
  /** Milliseconds from arrival until the answer was handed to the socket. */
  ms?: number | undefined;
  requestBody?: CapturedBody | undefined;
  answerBody?: CapturedBody | undefined;
  answerHeaders?: Readonly<Record<string, string | number>> | undefined;
  /** performance.now() at arrival. */
  readonly started: number;
}

/** At most BODY_BYTES of a body, and its whole size; `bytes` undefined when the body's type is not logged. */
export interface CapturedBody {
  readonly type: string | undefined;
  readonly size: number;
  /** The first bytes of a JSON or text body; undefined for any other type (a container, a form upload). */
  readonly bytes: Buffer | undefined;
}

/**
 * Each logged request's entry. A WeakMap, not a property on the request: a property of ours on Node's own request
 * objects gives them a shape Node's HTTP code does not expect, which measured costlier than the map.
 */
const ENTRIES = new WeakMap<IncomingMessage, LogEntry>();

/** The log entry of a request, when it is logged: what an API annotates (`entry.account = ...`). */
export function logEntryOf(req: IncomingMessage): LogEntry | undefined {
  return ENTRIES.get(req);
}

/** The last `size` requests, oldest first. */
export class RequestLog {
  private readonly ring: (LogEntry | undefined)[];
  private nextId = 1;

  constructor(readonly size: number = DEFAULT_LOG_SIZE) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`requestLog.size must be a whole number of at least 1, got ${size}`);
    this.ring = new Array<LogEntry | undefined>(size);
  }

  /** How many requests were logged since start (the ring keeps the last `size`). */
  get total(): number {
    return this.nextId - 1;
  }

  /** Opens the entry of a request as it arrives. */
  open(req: IncomingMessage, api: string): LogEntry {
    // Every field set here, those filled later too: one shape for every entry.
    const entry: LogEntry = {
      id: this.nextId++,
      at: Date.now(),
      started: performance.now(),
      api,
      method: req.method ?? "GET",
      target: req.url ?? "",
      requestHeaders: req.headers,
      account: undefined,
      code: undefined,
      status: undefined,
      ms: undefined,
      requestBody: undefined,
      answerBody: undefined,
      answerHeaders: undefined,
    };
    this.ring[(entry.id - 1) % this.size] = entry;
    ENTRIES.set(req, entry);
    return entry;
  }

  /** Closes an entry: the answer written (undefined when none was, as for a dropped connection). */
  close(entry: LogEntry, answer: AnswerBytes | undefined, status: number): void {
    entry.status = status;
    entry.ms = performance.now() - entry.started;
    if (answer) {
      entry.code ??= answer.code;
      entry.answerHeaders = answer.ownHeaders;
      entry.answerBody = capture(String(answer.headers["Content-Type"] ?? ""), answer.body, "kept");
    }
  }

  /** The entries kept with an id above `after`, oldest first. */
  since(after = 0): LogEntry[] {
    const out: LogEntry[] = [];
    const first = Math.max(after + 1, this.nextId - this.size);
    for (let id = first; id < this.nextId; id++) {
      const entry = this.ring[(id - 1) % this.size];
      if (entry?.id === id) out.push(entry);
    }
    return out;
  }
}

/** Notes a request body an API read (request-body.ts calls it): its first bytes when its type is JSON or text. */
export function noteRequestBody(req: IncomingMessage, body: Buffer): void {
  const entry = logEntryOf(req);
  if (entry) entry.requestBody = capture(req.headers["content-type"], body, "copied");
}

/**
 * A body's first BODY_BYTES bytes. An answer's bytes are its own and never change once written: a short answer's are
 * kept as they are ("kept"; copying them measured costlier per request than holding them). A request's are copied,
 * as is the start of any long body (a view of it would hold all of it).
 */
function capture(type: string | undefined, body: Buffer, short: "kept" | "copied"): CapturedBody {
  if (body.byteLength === 0 || !loggedType(type, body)) return { type, size: body.byteLength, bytes: undefined };
  const bytes = short === "kept" && body.byteLength <= BODY_BYTES ? body : Buffer.from(body.subarray(0, BODY_BYTES));
  return { type, size: body.byteLength, bytes };
}

/**
 * JSON and text (an OData `$batch` is multipart/mixed text); no image, no form upload, no octet stream. A body that
 * names no type is logged when it starts as JSON does.
 */
function loggedType(type: string | undefined, body: Buffer): boolean {
  if (type === undefined || type === "") return body[0] === 0x7b || body[0] === 0x5b;
  return /^\s*(?:application\/(?:[\w.+-]*\+)?json|text\/|multipart\/mixed|application\/x-www-form-urlencoded)/i.test(type);
}
