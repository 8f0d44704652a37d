import type { IncomingHttpHeaders } from "node:http";
import { BODY_BYTES, type CapturedBody } from "../http/request-log.js";

// Secrets out of what the inspector shows of a request: its path, its headers, its bodies. The log keeps requests as
// they came (../http/request-log.ts); this runs when the inspector reads them, so a request pays nothing for it.
// - Paths: a logout's `/sessions/{token}`, a container URL's signed name (`/Streaming/MainDB/{name}.{ext}`), and any
//   query parameter whose name reads as a secret; a webhook's URL the same (its user name, password, fragment too).
// - Headers: only those of ALLOWED_HEADERS keep their value; every other shows as removed (Authorization keeps its
//   scheme: "Basic [removed]"). So Authorization, Cookie, Set-Cookie, X-FM-Data-Access-Token, the OAuth headers
//   and any header a client invents never show.
// - Bodies: a whole JSON body is parsed and every value of a key that reads as a secret (password, token, secret,
//   API key, authorization, cookie, credential, OAuth, FMID) is removed, as is every value of a `headers` object
//   (a webhook's), and a webhook's URL (`webhook`) loses its secret parameters as a path does; a cut or other text
//   body gets the same by pattern. In every string: credentials after
//   Basic/Bearer/FMID, container URLs' signed names, and runs of 200 or more base64 characters (container bytes sent inline).

export const REMOVED = "[removed]";

/** Request and answer headers shown with their value; any other is shown as removed. */
const ALLOWED_HEADERS = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
  "cache-control",
  "connection",
  "content-length",
  "content-type",
  "host",
  "if-match",
  "if-none-match",
  "location",
  "odata-version",
  "odata-maxversion",
  "odata-entityid",
  "origin",
  "prefer",
  "preference-applied",
  "transfer-encoding",
  "user-agent",
  "sec-fetch-site",
  "sec-fetch-mode",
  "sec-fetch-dest",
  "www-authenticate",
  "fmodata.affected_rows",
]);

/** A key whose value is a secret, wherever it is in a JSON body (fmDataSource's password, a login's token). */
const SECRET_KEY = /pass(?:word|wd)?|pwd|token|secret|api[-_ ]?key|authori[sz]ation|cookie|credential|oauth|fmid|session[-_]?key/i;
/** A key whose value is a webhook's URL. */
const WEBHOOK_KEY = /^webhook$/i;
const SECRET_PARAM = /pass|pwd|token|secret|key|auth|cookie|credential|signature|sig$/i;

/** The path and query, with tokens and secret parameters removed. */
export function redactTarget(target: string): string {
  const q = target.indexOf("?");
  const path = scrubText(q < 0 ? target : target.slice(0, q)).replace(/(\/sessions\/)[^/?#]+/i, `$1${REMOVED}`);
  if (q < 0) return path;
  const query = target
    .slice(q + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return eq >= 0 && SECRET_PARAM.test(safeDecode(name)) ? `${name}=${REMOVED}` : scrubText(pair);
    })
    .join("&");
  return `${path}?${query}`;
}

/**
 * A URL as shown (a webhook's): its scheme and host, its path and query as redactTarget shows a request's (secret
 * parameters removed), any user name or password and its fragment removed.
 */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return redactTarget(text);
  }
  const user = url.username !== "" || url.password !== "" ? `${REMOVED}@` : "";
  return `${url.protocol}//${user}${url.host}${redactTarget(`${url.pathname}${url.search}`)}${url.hash === "" ? "" : `#${REMOVED}`}`;
}

/** Headers as shown: the allowed ones with their value, the scheme of Authorization, every other removed. */
export function redactHeaders(headers: IncomingHttpHeaders | Readonly<Record<string, string | number>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    const text = Array.isArray(value) ? value.join(", ") : String(value);
    if (lower === "authorization") out[name] = `${/^\S+/.exec(text)?.[0] ?? ""} ${REMOVED}`.trim();
    else out[name] = ALLOWED_HEADERS.has(lower) ? scrubText(text).slice(0, 500) : REMOVED;
  }
  return out;
}

/** A body as shown: its type, size, text (secrets removed) and whether it was cut. */
export interface ShownBody {
  type: string | null;
  size: number;
  /** null when the body's type is not logged (a container, a form upload). */
  text: string | null;
  truncated: boolean;
}

export function redactBody(body: CapturedBody | undefined): ShownBody | undefined {
  if (!body || body.size === 0) return undefined;
  if (body.bytes === undefined) return { type: body.type ?? null, size: body.size, text: null, truncated: false };
  const truncated = body.size > BODY_BYTES;
  const raw = body.bytes.toString("utf8");
  let text: string | undefined;
  if (!truncated && /^\s*[[{]/.test(raw)) {
    try {
      text = JSON.stringify(redactJson(JSON.parse(raw) as unknown));
    } catch {
      text = undefined;
    }
  }
  text ??= redactJsonText(raw);
  if (truncated) text += `\n… [truncated: ${BODY_BYTES} of ${body.size} bytes shown]`;
  return { type: body.type ?? null, size: body.size, text, truncated };
}

/** A parsed JSON value with its secrets removed. */
export function redactJson(value: unknown, inHeaders = false): unknown {
  if (typeof value === "string") return inHeaders ? REMOVED : scrubText(value);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, inHeaders));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (SECRET_KEY.test(key) && v !== null) out[key] = REMOVED;
      // A webhook's URL (Webhook.Add's body, Webhook.Get's answer): its secret parameters, as a request's.
      else if (!inHeaders && typeof v === "string" && WEBHOOK_KEY.test(key)) out[key] = redactUrl(v);
      else out[key] = redactJson(v, inHeaders || /^headers$/i.test(key));
    }
    return out;
  }
  return inHeaders && value !== null ? REMOVED : value;
}

/** JSON-like text (cut, or not JSON at all: a `$batch` body) with the same secrets removed by pattern. */
function redactJsonText(text: string): string {
  return scrubText(
    text
      // "password": "…" (a cut string included), "token": 123
      .replace(/("(?:[^"\\]|\\.)*")(\s*:\s*)("(?:[^"\\]|\\.)*(?:"|$)|[^\s,}\]]+)/g, (all, key: string, colon: string) =>
        SECRET_KEY.test(key) ? `${key}${colon}"${REMOVED}"` : all,
      )
      // a webhook's URL, its secret parameters removed
      .replace(/("webhook"\s*:\s*")((?:[^"\\]|\\.)*)/gi, (_all, key: string, url: string) => `${key}${redactTarget(url)}`)
      // a webhook's "headers": { … }, cut or whole
      .replace(/("headers"\s*:\s*)\{[^}]*\}?/gi, `$1{"${REMOVED}":"${REMOVED}"}`)
      // header lines of a `$batch` part
      .replace(/^((?:authorization|cookie|set-cookie|x-fm-[\w-]*|x-api-key)[ \t]*:)[^\r\n]*/gim, `$1 ${REMOVED}`),
  );
}

/** What any shown string loses: credentials after an auth scheme, container URLs' signed names, inline container bytes. */
export function scrubText(text: string): string {
  return text
    .replace(/\b(Basic|Bearer|FMID)(\s+)[A-Za-z0-9+/=._~-]{4,}/gi, `$1$2${REMOVED}`)
    // A container URL's name (its id and signature: what opens the file); its extension stays.
    .replace(/(\/Streaming[^/\s"]*\/[^/\s"]+\/)[^/\s"?.]+/g, `$1${REMOVED}`)
    .replace(/[A-Za-z0-9+/]{200,}={0,2}/g, (run) => `[${run.length} base64 characters removed]`);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
