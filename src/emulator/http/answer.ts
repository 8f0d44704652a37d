import type { ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { STATUS_CODES } from "node:http";

// An answer as bytes: each API builds its own (its wire), the shell writes it, or mangles it for a fault.

/** An answer in bytes, as its API would send it. */
export interface AnswerBytes {
  status: number;
  /** The headers every answer of the API carries (its Content-Type, OData-Version): what a cut answer keeps. */
  headers: Readonly<Record<string, string | number>>;
  /** This answer's own headers (Location, a cookie, an affected-rows count), sent after Content-Length. */
  ownHeaders?: Readonly<Record<string, string>> | undefined;
  body: Buffer;
  /** The API's code of this answer (FileMaker's, OData's), which the request log shows (request-log.ts). */
  code?: string | undefined;
  /** The account the request signed in as, for the request log, when the API knows it as it answers (a session's, a logout's); else the log asks HttpApi.logAccount. */
  account?: string | undefined;
}

/** Writes an answer whole. */
export function sendAnswer(res: ServerResponse, answer: AnswerBytes): void {
  res.writeHead(answer.status, { ...answer.headers, "Content-Length": answer.body.byteLength, ...answer.ownHeaders });
  res.end(answer.body);
}

/** Writes an answer on a bare socket (a request Node's parser refused): its type and length, then the connection closes. */
export function endSocket(socket: Duplex, answer: AnswerBytes): void {
  const type = answer.headers["Content-Type"];
  socket.end(
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${type === undefined ? "" : `Content-Type: ${type}\r\n`}Content-Length: ${answer.body.byteLength}\r\nConnection: close\r\n\r\n${answer.body.toString("latin1")}`,
    "latin1",
  );
}

/** What the shell answers itself, before or instead of the API: the API words it in its own wire. */
export type ShellAnswer =
  /** A request refused: 421 for a Host not served, 403 for a write of another origin (both before the API reads it), 503 for a write the data directory could not keep. */
  | { kind: "refused"; status: 421 | 403 | 503; reason: string }
  /** An injected fault's error: FileMaker's unknown error (a cut answer's body), or its capacity codes. */
  | { kind: "injected"; status: 500 | 503; code: InjectedCode }
  /** A request Node's HTTP parser refused; `requestLineLength` when its raw bytes start with a request line. */
  | { kind: "malformed"; status: 400 | 408 | 431; parserCode: string | undefined; requestLineLength: number | undefined };

/** The FileMaker codes injected faults answer with: -1 (unknown error), 812 and 956 (capacity). */
export type InjectedCode = "-1" | "812" | "956";
