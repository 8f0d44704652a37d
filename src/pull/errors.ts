import { DatabaseMissingError, FileMakerError, InvalidCredentialsError, LayoutMissingError, NetworkError, ProtocolError } from "@fmgen/runtime";
import { EmptyLayoutError } from "./sample.js";
import type { PullSettings } from "./settings.js";

/**
 * What went wrong, said so that the reader knows what to do. Some errors end the whole pull (the login, the
 * database, the network); others end only one layout's (a missing layout, an empty table), and the rest go on.
 */

/** Errors that end the whole pull (the login, the database, the network), with the message to show. */
export class PullError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PullError";
  }
}

/** A server without the layout metadata endpoints answers them as unknown resources. */
export function isMissingEndpoint(error: unknown): boolean {
  if (error instanceof FileMakerError) return error.code === "1630";
  return error instanceof ProtocolError && !isLoginCall(error) && (error.httpStatus === 404 || error.httpStatus === 405);
}

function isLoginCall(error: ProtocolError | FileMakerError): boolean {
  return error.call.method === "POST" && error.call.path.endsWith("/sessions");
}

export function describeAnswer(error: unknown): string {
  if (error instanceof FileMakerError) return `HTTP ${error.httpStatus}, code ${error.code}`;
  if (error instanceof ProtocolError) return `HTTP ${error.httpStatus}`;
  return String(error);
}

export function isFatal(error: unknown): boolean {
  return (
    error instanceof PullError ||
    error instanceof InvalidCredentialsError ||
    error instanceof DatabaseMissingError ||
    error instanceof NetworkError ||
    (error instanceof ProtocolError && isLoginCall(error)) ||
    (error instanceof FileMakerError && error.httpStatus === 401 && error.code !== "952")
  );
}

/** Edits (insertions, deletions, substitutions) from `a` to `b`, letters compared without case. */
function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    row = next;
  }
  return row[y.length]!;
}

/** The names closest to `name` (fewest edits, case aside; then by name), at most `limit`. */
export function closestNames(name: string, names: readonly string[], limit = 5): string[] {
  return names
    .map((candidate) => ({ candidate, distance: editDistance(name, candidate) }))
    .sort((a, b) => a.distance - b.distance || (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0))
    .slice(0, limit)
    .map((entry) => entry.candidate);
}

/** The one name `name` was most likely meant to be: the closest, when it is a few edits away (a typo, a case). */
export function likelyName(name: string, closest: readonly string[]): string | undefined {
  const first = closest[0];
  return first !== undefined && editDistance(name, first) <= Math.max(2, Math.floor(name.length / 4)) ? first : undefined;
}

/**
 * Why a layout failed, and for a layout the server does not have (FileMaker error 105), the names it has, closest
 * first (`missing`, when the server's layout list was read): a wrong name is not drift, and the report says so.
 */
export function layoutFailure(error: unknown, layout: string, settings: PullSettings, serverLayouts: readonly { name: string }[] | undefined): { error: string; missing?: { closest: string[] } } {
  if (!(error instanceof LayoutMissingError)) return { error: explainLayoutError(error, layout) };
  const closest = closestNames(layout, serverLayouts?.map((entry) => entry.name) ?? []);
  const likely = likelyName(layout, closest);
  const head = `no layout named "${layout}" in database "${settings.database}" (FileMaker error 105)`;
  if (closest.length === 0) return { error: `${head}: check the name; fmgen pull --list shows the server's layouts`, missing: { closest } };
  const names = closest.map((name) => `"${name}"`).join(", ");
  return { error: `${head}: ${likely ? `did you mean "${likely}"? The server's layouts` : "the server's layouts"}, closest first: ${names}`, missing: { closest } };
}

/** Why a layout failed, for any failure but a missing layout (layoutFailure's). */
function explainLayoutError(error: unknown, layout: string): string {
  if (error instanceof EmptyLayoutError) return error.message;
  if (error instanceof FileMakerError) return `layout "${layout}": FileMaker error ${error.code}: ${error.serverMessage} (${error.call.method} ${error.call.path})`;
  return `layout "${layout}": ${(error as Error).message}`;
}

/** Connection faults' codes in words, the code kept beside them: how both pulls tell a server they cannot reach. */
const CONNECTION_FAULTS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EPIPE: "connection closed while sending",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name cannot be looked up now (DNS)",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
  UND_ERR_SOCKET: "connection closed",
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "the server's TLS certificate chain is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate cannot be verified",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate is for another host name",
};

/** The first code in an error's cause chain (the connection's own error, which `fetch` wraps in "fetch failed"). */
function faultCode(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === "string") return e.code;
  }
  return undefined;
}

/**
 * `cannot reach <where>: <why>`, the one wording of both pulls (the layout pull's Data API calls and the OData pull's
 * $metadata read): the time waited, an abort, or the connection's fault in words with its code ("connection refused
 * (ECONNREFUSED)"), whatever carried the request; a fault without a code is quoted as the runtime words it.
 */
export function unreachable(where: string, error: NetworkError): PullError {
  const said = error.message.slice(`${error.call.method} ${error.call.path}: `.length);
  const ms = /^no answer within (\d+) ms$/.exec(said);
  const code = faultCode(error.cause);
  const why =
    error.reason === "timeout" && ms ? `no answer within ${Number(ms[1]) / 1000} s`
    : error.reason === "aborted" ? "aborted"
    : code ? `${CONNECTION_FAULTS[code] ?? said.replace(/^network fault \S+: /, "")} (${code})`
    : said.replace(/^network fault: /, "");
  return new PullError(`cannot reach ${where}: ${why}`, { cause: error });
}

export function explainFatal(error: unknown, settings: PullSettings): Error {
  const where = `database "${settings.database}" on ${settings.server}`;
  if (error instanceof PullError) return error;
  if (error instanceof InvalidCredentialsError) {
    return new PullError(`cannot log in to ${where}: wrong account name or password (FileMaker error 212); the credentials come from ${settings.usernameEnv} and ${settings.passwordEnv}`, { cause: error });
  }
  if (error instanceof DatabaseMissingError) return new PullError(`no database "${settings.database}" is hosted on ${settings.server} (FileMaker error 100)`, { cause: error });
  if (error instanceof FileMakerError && error.httpStatus === 401 && error.code !== "952") {
    return new PullError(`cannot log in to ${where}: the account's privilege set lacks the fmrest extended privilege (FileMaker error ${error.code})`, { cause: error });
  }
  if (error instanceof NetworkError) return unreachable(settings.server, error);
  if (error instanceof ProtocolError) return new PullError(`${settings.server} does not answer as a FileMaker Data API server (is the URL right?): ${error.message}`, { cause: error });
  return error as Error;
}
