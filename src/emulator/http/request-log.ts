import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { AnswerBytes } from "./answer.js";

// The request log the inspector shows (../inspector/): one entry per request to an API that has a log name (the
// Data API, OData, the Web Viewer shim; the inspector's own requests are not logged), in a ring of a fixed size.
// The shell opens an entry when a request arrives, notes the account once the API has served it (AnswerBytes.account,
// else HttpApi.logAccount) and closes it once the answer is written, with the code its answer carries
// (AnswerBytes.code).
//
// An entry is one small object that keeps what the request and its answer already hold rather than copies of them:
// the target and raw header lines as Node read them, and a body of at most BODY_BYTES as it was read or sent (a
// longer one's first BODY_BYTES are copied). What that costs is the collector's work over what the ring keeps alive
// (it grows with the log's size); copying heads and bodies into a ring of bytes instead, so that nothing of a
// request's stays on the heap, measured about twice as costly (`npm run bench:emulator`, docs/inspector.md). Bodies
// are kept only for JSON and text (never a container's bytes). Secrets are removed, and the headers made an object
// again, when the log is read (../inspector/redact.ts), not per request.

/** How many requests the log keeps by default, the oldest dropped first. */
export const DEFAULT_LOG_SIZE = 500;
/** How many bytes of each body an entry keeps; the rest is counted, not kept. */
export const BODY_BYTES = 4096;

/** One request as the log keeps it; its target, headers and bodies are read through the log (RequestLog). */
export class LogEntry {
  /** The account the API signed the request in as (a user name, "API key", "Claris ID", "OAuth"), when it knows. */
  account: string | undefined = undefined;
  /** The API's code of the answer (FileMaker's, or OData's error code; "0" for OData's successes). */
  code: string | undefined = undefined;
  /** The status written; undefined while the request runs, 0 when no answer was written (a dropped connection). */
  status: number | undefined = undefined;
  /** Milliseconds from arrival until the answer was handed to the socket; undefined while the request runs. */
  ms: number | undefined = undefined;
  answerHeaders: Readonly<Record<string, string | number>> | undefined = undefined;
  /** @internal The request body's type, whole size (-1 when none was read) and first bytes (undefined when its type is not logged). */
  requestType: string | undefined = undefined;
  /** @internal */
  requestSize = -1;
  /** @internal */
  requestBytes: Buffer | undefined = undefined;
  /** @internal The answer body's, as the request body's. */
  answerType: string | undefined = undefined;
  /** @internal */
  answerSize = -1;
  /** @internal */
  answerBytes: Buffer | undefined = undefined;

  constructor(
    /** 1, 2, 3, ... in arrival order: what a reader asks for entries after. */
    readonly id: number,
    /** Which API it was for (HttpApi.logName). */
    readonly api: string,
    readonly method: string,
    /** @internal The request target as sent, secrets and all. */
    readonly target: string,
    /** @internal The raw header lines, name, value, name, value ..., as Node read them, secrets and all. */
    readonly rawHeaders: readonly string[],
    /** @internal performance.now() at arrival. */
    readonly started: number,
  ) {}

  /** When it arrived, ms since the epoch (the machine's clock, not the emulator's). */
  get at(): number {
    return performance.timeOrigin + this.started;
  }
}

/** At most BODY_BYTES of a body, and its whole size; `bytes` undefined when the body's type is not logged. */
export interface CapturedBody {
  readonly type: string | undefined;
  readonly size: number;
  /** The first bytes of a JSON or text body; undefined for any other type (a container, a form upload). */
  readonly bytes: Buffer | undefined;
}

/**
 * The entry of each logged request that may carry a body, for the body reader to note its body on (noteRequestBody).
 * A WeakMap, not a property on the request: a property of ours on Node's own request objects gives them a shape
 * Node's HTTP code does not expect. A request without a body (a GET) is not put in it: it has nothing to note.
 */
const BODY_ENTRIES = new WeakMap<IncomingMessage, { readonly log: RequestLog; readonly entry: LogEntry }>();

/** The last `size` requests, oldest first. */
export class RequestLog {
  private readonly ring: (LogEntry | undefined)[];
  private nextId = 1;
  /** The last body type asked about and whether it is logged: an API answers every request with the same type. */
  private lastType: string | undefined = "";
  private lastTypeLogged = false;

  constructor(readonly size: number = DEFAULT_LOG_SIZE) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`requestLog.size must be a whole number of at least 1, got ${size}`);
    this.ring = new Array<LogEntry | undefined>(size).fill(undefined);
  }

  /** How many requests were logged since start (the ring keeps the last `size`). */
  get total(): number {
    return this.nextId - 1;
  }

  /** Opens the entry of a request as it arrives. */
  open(req: IncomingMessage, api: string): LogEntry {
    const id = this.nextId++;
    // A request made in process (the Web Viewer bridge's) has a headers object and no raw lines.
    const raw = req.rawHeaders.length > 0 ? req.rawHeaders : flatHeaders(req.headers);
    const entry = new LogEntry(id, api, req.method ?? "GET", req.url ?? "", raw, performance.now());
    this.ring[(id - 1) % this.size] = entry;
    if (mayHaveBody(req)) BODY_ENTRIES.set(req, { log: this, entry });
    return entry;
  }

  /** Notes the account its API served a request as (the shell asks once the API has answered). */
  noteAccount(entry: LogEntry, account: string | undefined): void {
    entry.account = account;
  }

  /**
   * Closes an entry: the answer written (undefined when none was, as for a dropped connection) and its status (0
   * when none was written).
   */
  close(entry: LogEntry, answer: AnswerBytes | undefined, status: number): void {
    entry.status = status;
    entry.ms = performance.now() - entry.started;
    if (!answer) return;
    entry.code = answer.code;
    entry.answerHeaders = answer.ownHeaders;
    const type = answer.headers["Content-Type"];
    entry.answerType = type === undefined ? undefined : String(type);
    entry.answerSize = answer.body.byteLength;
    entry.answerBytes = this.kept(entry.answerType, answer.body);
  }

  /** Notes a request body the API read: its first bytes when its type is JSON or text. */
  noteRequestBody(entry: LogEntry, type: string | undefined, body: Buffer): void {
    entry.requestType = type;
    entry.requestSize = body.byteLength;
    entry.requestBytes = this.kept(type, body);
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

  /** An entry's request target as sent (path and query), secrets and all: read it through the inspector's redaction. */
  target(entry: LogEntry): string {
    return entry.target;
  }

  /** An entry's request headers as Node gives them (names in lower case, repeated ones joined), secrets and all. */
  requestHeaders(entry: LogEntry): IncomingHttpHeaders {
    const raw = entry.rawHeaders;
    const out: IncomingHttpHeaders = {};
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      const value = raw[i + 1]!;
      const had = out[name];
      if (name === "set-cookie") out[name] = [...(had ?? []), value];
      else out[name] = had === undefined ? value : `${had as string}, ${value}`;
    }
    return out;
  }

  /** An entry's request body as kept (a copy of its bytes); undefined when it read none. */
  requestBody(entry: LogEntry): CapturedBody | undefined {
    return captured(entry.requestType, entry.requestSize, entry.requestBytes);
  }

  /** An entry's answer body as kept (a copy of its bytes); undefined when no answer was written. */
  answerBody(entry: LogEntry): CapturedBody | undefined {
    return captured(entry.answerType, entry.answerSize, entry.answerBytes);
  }

  /** What an entry keeps of a body: the body itself when it is short, else a copy of its first BODY_BYTES. */
  private kept(type: string | undefined, body: Buffer): Buffer | undefined {
    if (!this.isLogged(type, body)) return undefined;
    // Bodies are never written to once read or sent: keeping a short one costs the log nothing but memory.
    return body.byteLength <= BODY_BYTES ? body : Buffer.from(body.subarray(0, BODY_BYTES));
  }

  private isLogged(type: string | undefined, body: Buffer): boolean {
    // A body without a type is judged by its first byte, each time.
    if (type === undefined || type === "") return loggedType(type, body);
    if (type !== this.lastType) {
      this.lastType = type;
      this.lastTypeLogged = loggedType(type, body);
    }
    return this.lastTypeLogged;
  }
}

function captured(type: string | undefined, size: number, bytes: Buffer | undefined): CapturedBody | undefined {
  if (size < 0) return undefined;
  // A copy: a reader never holds the kept bytes themselves.
  return { type, size, bytes: bytes === undefined ? (size === 0 ? Buffer.alloc(0) : undefined) : Buffer.from(bytes) };
}

/** Whether a request declares a body (HTTP/1.1: Content-Length or Transfer-Encoding); a GET usually does not. */
function mayHaveBody(req: IncomingMessage): boolean {
  const headers = req.headers;
  const length = headers["content-length"];
  return (length !== undefined && length !== "0") || headers["transfer-encoding"] !== undefined;
}

/** A headers object as name, value, name, value ... (a request made in process has no raw headers). */
function flatHeaders(headers: IncomingHttpHeaders): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) out.push(name, one);
  }
  return out;
}

/** Notes a request body an API read (request-body.ts calls it): its first bytes when its type is JSON or text. */
export function noteRequestBody(req: IncomingMessage, body: Buffer): void {
  const noted = BODY_ENTRIES.get(req);
  if (noted) noted.log.noteRequestBody(noted.entry, req.headers["content-type"], body);
}

/**
 * JSON and text (an OData `$batch` is multipart/mixed text); no image, no form upload, no octet stream. A body that
 * names no type is logged when it starts as JSON does.
 */
function loggedType(type: string | undefined, body: Buffer): boolean {
  if (type === undefined || type === "") return body[0] === 0x7b || body[0] === 0x5b;
  return /^\s*(?:application\/(?:[\w.+-]*\+)?json|text\/|multipart\/mixed|application\/x-www-form-urlencoded)/i.test(type);
}
