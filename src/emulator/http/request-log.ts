import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { AnswerBytes } from "./answer.js";

// The request log the inspector shows (../inspector/): one entry per request to an API that has a log name (the
// Data API, OData, the Web Viewer shim; the inspector's own requests are not logged), in a ring of a fixed size.
// The shell opens an entry when a request arrives and closes it once the answer is written; the API annotates it
// (its account, through logEntryOf) and its answer carries its code (AnswerBytes.code). What is kept is raw and
// bounded, and kept out of the JS heap: the request's target and headers (as Node read them) and at most BODY_BYTES
// of each body are copied into bytes of the entry's slot of the ring, reused when the slot is, so that an entry
// holds no object of its request's (no headers object, no Buffer) and the garbage collector has little to move and
// promote per request. Bodies are kept only for JSON and text (never a container's bytes). Secrets are removed,
// and the headers made an object again, when the log is read (../inspector/redact.ts), not per request.

/** How many requests the log keeps by default, the oldest dropped first. */
export const DEFAULT_LOG_SIZE = 500;
/** How many bytes of each body an entry keeps; the rest is counted, not kept. */
export const BODY_BYTES = 4096;
/** How many bytes of its slot an entry's target and headers may take; longer ones are kept as a string instead. */
const HEAD_BYTES = 4096;
/** A slot's bytes: its target and headers, its request body's first bytes, its answer's. */
const SLOT_BYTES = HEAD_BYTES + 2 * BODY_BYTES;
/** Slots' bytes are allocated this many slots at a time, as the ring fills. */
const SLOTS_PER_CHUNK = 32;

/** One request as the log keeps it; its target, headers and bodies are read through the log (RequestLog). */
export interface LogEntry {
  /** 1, 2, 3, ... in arrival order: what a reader asks for entries after. */
  readonly id: number;
  /** When it arrived, ms since the epoch (the machine's clock, not the emulator's). */
  readonly at: number;
  /** Which API it was for (HttpApi.logName). */
  readonly api: string;
  readonly method: string;
  /** The account the API signed the request in as (a user name, "API key", "Claris ID", "OAuth"), when it knows. */
  account?: string | undefined;
  /** The API's code of the answer (FileMaker's, or OData's error code; "0" for OData's successes). */
  code?: string | undefined;
  /** The status written; undefined while the request runs, 0 when no answer was written (a dropped connection). */
  status?: number | undefined;
  /** Milliseconds from arrival until the answer was handed to the socket. */
  ms?: number | undefined;
  answerHeaders?: Readonly<Record<string, string | number>> | undefined;
  /** performance.now() at arrival. */
  readonly started: number;
  /** The log whose ring holds it (and its slot's bytes). */
  readonly log: RequestLog;
  /** How many bytes of the slot the target and headers take; -1 when they are in `head` instead. */
  headBytes: number;
  /** The target and headers, NUL-separated, when longer than their part of the slot. */
  head: string | undefined;
  requestType: string | undefined;
  /** The request body's size; -1 when none was read. */
  requestSize: number;
  /** How many of its bytes the slot keeps; -1 when its type is not logged. */
  requestKept: number;
  answerType: string | undefined;
  /** The answer body's size; -1 when no answer was written. */
  answerSize: number;
  answerKept: number;
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
  private readonly chunks: (Buffer | undefined)[];
  private nextId = 1;
  /** The last body type asked about and whether it is logged: an API answers every request with the same type. */
  private lastType: string | undefined = "";
  private lastTypeLogged = false;

  constructor(readonly size: number = DEFAULT_LOG_SIZE) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`requestLog.size must be a whole number of at least 1, got ${size}`);
    this.ring = new Array<LogEntry | undefined>(size);
    this.chunks = new Array<Buffer | undefined>(Math.ceil(size / SLOTS_PER_CHUNK));
  }

  /** How many requests were logged since start (the ring keeps the last `size`). */
  get total(): number {
    return this.nextId - 1;
  }

  /** Opens the entry of a request as it arrives. */
  open(req: IncomingMessage, api: string): LogEntry {
    const id = this.nextId++;
    const target = req.url ?? "";
    // The target and the raw header lines, one string NUL-separated (Node's parser refuses a NUL in either), copied
    // into the slot as latin1: Node reads the request line and headers as latin1, so the bytes are exactly its.
    const raw = req.rawHeaders.length > 0 ? req.rawHeaders : flatHeaders(req.headers);
    const head = raw.length === 0 ? target : `${target}\0${raw.join("\0")}`;
    const long = head.length > HEAD_BYTES;
    const slot = (id - 1) % this.size;
    const started = performance.now();
    // The epoch time from the same clock reading: one clock read per request, not two.
    const at = performance.timeOrigin + started;
    const method = req.method ?? "GET";
    // Every field set here, those filled later too: one shape for every entry. (Reusing the slot's closed entry
    // instead, field by field, measured costlier than a new one.)
    const entry: LogEntry = {
      id,
      at,
      started,
      log: this,
      api,
      method,
      account: undefined,
      code: undefined,
      status: undefined,
      ms: undefined,
      answerHeaders: undefined,
      headBytes: long ? -1 : head.length,
      head: long ? head : undefined,
      requestType: undefined,
      requestSize: -1,
      requestKept: -1,
      answerType: undefined,
      answerSize: -1,
      answerKept: -1,
    };
    this.ring[slot] = entry;
    if (!long) this.slotBytes(slot).write(head, this.slotStart(slot), head.length, "latin1");
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
      const type = answer.headers["Content-Type"];
      entry.answerType = type === undefined ? undefined : String(type);
      entry.answerSize = answer.body.byteLength;
      entry.answerKept = this.keep(entry, HEAD_BYTES + BODY_BYTES, entry.answerType, answer.body);
    }
  }

  /** Notes a request body the API read: its first bytes when its type is JSON or text. */
  noteRequestBody(entry: LogEntry, type: string | undefined, body: Buffer): void {
    entry.requestType = type;
    entry.requestSize = body.byteLength;
    entry.requestKept = this.keep(entry, HEAD_BYTES, type, body);
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
    const head = this.headOf(entry);
    const end = head.indexOf("\0");
    return end < 0 ? head : head.slice(0, end);
  }

  /** An entry's request headers as Node gives them (names in lower case, repeated ones joined), secrets and all. */
  requestHeaders(entry: LogEntry): IncomingHttpHeaders {
    const parts = this.headOf(entry).split("\0");
    const out: IncomingHttpHeaders = {};
    for (let i = 1; i + 1 < parts.length; i += 2) {
      const name = parts[i]!.toLowerCase();
      const value = parts[i + 1]!;
      const had = out[name];
      if (name === "set-cookie") out[name] = [...(had ?? []), value];
      else out[name] = had === undefined ? value : `${had as string}, ${value}`;
    }
    return out;
  }

  /** An entry's request body as kept (a copy of its bytes); undefined when it read none. */
  requestBody(entry: LogEntry): CapturedBody | undefined {
    return this.captured(entry, HEAD_BYTES, entry.requestType, entry.requestSize, entry.requestKept);
  }

  /** An entry's answer body as kept (a copy of its bytes); undefined when no answer was written. */
  answerBody(entry: LogEntry): CapturedBody | undefined {
    return this.captured(entry, HEAD_BYTES + BODY_BYTES, entry.answerType, entry.answerSize, entry.answerKept);
  }

  private captured(entry: LogEntry, at: number, type: string | undefined, size: number, kept: number): CapturedBody | undefined {
    if (size < 0 || !this.holds(entry)) return undefined;
    const slot = (entry.id - 1) % this.size;
    const start = this.slotStart(slot) + at;
    return { type, size, bytes: kept < 0 ? undefined : Buffer.from(this.slotBytes(slot).subarray(start, start + kept)) };
  }

  private headOf(entry: LogEntry): string {
    if (entry.head !== undefined) return entry.head;
    if (!this.holds(entry)) return "";
    const slot = (entry.id - 1) % this.size;
    const start = this.slotStart(slot);
    return this.slotBytes(slot).toString("latin1", start, start + entry.headBytes);
  }

  /** Copies a body's first bytes into the entry's slot; how many, or -1 when its type is not logged. */
  private keep(entry: LogEntry, at: number, type: string | undefined, body: Buffer): number {
    if (body.byteLength === 0) return 0;
    // A request still running when its slot was taken by a newer one writes nothing: the slot is the newer one's.
    if (!this.isLogged(type, body) || !this.holds(entry)) return -1;
    const slot = (entry.id - 1) % this.size;
    const kept = Math.min(body.byteLength, BODY_BYTES);
    // A whole body without the view a part of one takes (Buffer#copy makes one each time).
    this.slotBytes(slot).set(kept === body.byteLength ? body : body.subarray(0, kept), this.slotStart(slot) + at);
    return kept;
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

  private holds(entry: LogEntry): boolean {
    return this.ring[(entry.id - 1) % this.size] === entry;
  }

  private slotBytes(slot: number): Buffer {
    const chunk = Math.floor(slot / SLOTS_PER_CHUNK);
    return (this.chunks[chunk] ??= Buffer.allocUnsafeSlow(Math.min(SLOTS_PER_CHUNK, this.size - chunk * SLOTS_PER_CHUNK) * SLOT_BYTES));
  }

  private slotStart(slot: number): number {
    return (slot % SLOTS_PER_CHUNK) * SLOT_BYTES;
  }
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
  const entry = logEntryOf(req);
  if (entry) entry.log.noteRequestBody(entry, req.headers["content-type"], body);
}

/**
 * JSON and text (an OData `$batch` is multipart/mixed text); no image, no form upload, no octet stream. A body that
 * names no type is logged when it starts as JSON does.
 */
function loggedType(type: string | undefined, body: Buffer): boolean {
  if (type === undefined || type === "") return body[0] === 0x7b || body[0] === 0x5b;
  return /^\s*(?:application\/(?:[\w.+-]*\+)?json|text\/|multipart\/mixed|application\/x-www-form-urlencoded)/i.test(type);
}
