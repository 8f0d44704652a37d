import { stringifyJson } from "../../runtime/core/json-numbers.js";
import type { IncomingMessage } from "node:http";
import type { AnswerBytes, ShellAnswer } from "../http/answer.js";
import type { HttpApi } from "../http/server.js";
import { exportSeed, seedText } from "../store/seed-snapshot.js";
import { INSPECTOR_HTML } from "./page.js";
import { INSPECTOR_SCRIPT } from "./page-script.js";
import { INSPECTOR_STYLE } from "./page-style.js";
import { deliveries, logEntries, logEntry, MAX_PAGE, NotFound, overview, record, records, type InspectorSource } from "./views.js";

/** Where the inspector is served: its page at `/fmgen/`, its JSON under `/fmgen/api/`. */
export const INSPECTOR_PREFIX = "/fmgen";

/** Every answer's own headers: never cached, never framed, never read by a page of another origin (no CORS header). */
const COMMON = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Referrer-Policy": "no-referrer",
};
/** The page loads its own script, style and images, and talks to its own origin only. */
const PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The inspector (docs/inspector.md): a page showing what the emulator holds and the requests it answered, and the
 * JSON it reads, all GETs. The shell's Host check applies as to every path; besides, a request a browser marks as
 * coming from a page of another site (`Sec-Fetch-Site: cross-site`, or an `Origin` other than the Host's) is
 * refused, no answer carries a CORS header, and container bytes are served to loopback clients only.
 */
export function inspectorApi(source: InspectorSource): HttpApi {
  return {
    takesFaults: () => false,
    serve: (req) => Promise.resolve(serve(source, req)),
    shellAnswer: (answer: ShellAnswer) => text(answer.status, answer.kind === "refused" ? answer.reason : answer.kind === "malformed" ? "malformed HTTP request" : "injected fault"),
    revoke: () => undefined,
  };
}

function serve(source: InspectorSource, req: IncomingMessage): AnswerBytes {
  const url = new URL(req.url ?? "/", "http://emulator.invalid");
  const method = req.method ?? "GET";
  if (method !== "GET" && method !== "HEAD") return text(405, `the inspector answers GET only, not ${method}`, { Allow: "GET, HEAD" });
  if (crossSite(req)) return text(403, "the inspector answers its own page only, not a page of another site");
  const path = url.pathname;
  const q = url.searchParams;
  try {
    switch (path) {
      case INSPECTOR_PREFIX:
        return { status: 308, headers: {}, ownHeaders: { ...COMMON, Location: `${INSPECTOR_PREFIX}/` }, body: Buffer.alloc(0) };
      case `${INSPECTOR_PREFIX}/`:
        return asset("text/html; charset=utf-8", INSPECTOR_HTML, { "Content-Security-Policy": PAGE_POLICY });
      case `${INSPECTOR_PREFIX}/inspector.js`:
        return asset("text/javascript; charset=utf-8", INSPECTOR_SCRIPT);
      case `${INSPECTOR_PREFIX}/inspector.css`:
        return asset("text/css; charset=utf-8", INSPECTOR_STYLE);
      case `${INSPECTOR_PREFIX}/api/overview`:
        return json(overview(source));
      case `${INSPECTOR_PREFIX}/api/records`:
        return json(records(source.server, { ...which(q), offset: whole(q, "offset", 0, Number.MAX_SAFE_INTEGER), limit: whole(q, "limit", 20, MAX_PAGE), search: q.get("q") ?? undefined }));
      case `${INSPECTOR_PREFIX}/api/record`:
        return json(record(source.server, which(q), whole(q, "id", 0, Number.MAX_SAFE_INTEGER)));
      case `${INSPECTOR_PREFIX}/api/log`:
        return json(logEntries(source.log, whole(q, "after", 0, Number.MAX_SAFE_INTEGER), whole(q, "limit", source.log.size, source.log.size)));
      case `${INSPECTOR_PREFIX}/api/request`:
        return json(logEntry(source.log, whole(q, "id", 0, Number.MAX_SAFE_INTEGER)));
      case `${INSPECTOR_PREFIX}/api/deliveries`:
        return json(deliveries(source.deliveries, whole(q, "after", 0, Number.MAX_SAFE_INTEGER)));
      case `${INSPECTOR_PREFIX}/api/container`:
        return container(source, req, q);
      case `${INSPECTOR_PREFIX}/export`:
        return exported(source, req);
    }
  } catch (error) {
    if (error instanceof BadQuery) return json({ error: error.message }, 400);
    if (error instanceof NotFound) return json({ error: error.message }, 404);
    return json({ error: `the inspector failed: ${(error as Error)?.message ?? String(error)}` }, 500);
  }
  return text(404, `no inspector page at ${path}: open ${INSPECTOR_PREFIX}/`);
}

/**
 * A browser's request from a page of another site: `Sec-Fetch-Site: cross-site` (or `same-site`: another port of
 * this host is another origin), or an `Origin` that is not the Host's own.
 */
function crossSite(req: IncomingMessage): boolean {
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).origin !== new URL(`http://${req.headers.host ?? ""}`).origin;
  } catch {
    return true;
  }
}

/** A container's bytes, to a client on this machine only; an image inline, anything else as a download. */
function container(source: InspectorSource, req: IncomingMessage, q: URLSearchParams): AnswerBytes {
  if (!isLoopback(req.socket?.remoteAddress)) return text(403, "container files are served to this machine only");
  const file = source.server.containers.get(q.get("file") ?? "", q.get("id") ?? "");
  if (!file) return json({ error: "no such container file (or no field holds it any more)" }, 404);
  const image = /^image\/(?:png|jpeg|gif|webp|bmp)$/i.test(file.contentType);
  const disposition = `${image ? "inline" : "attachment"}; filename*=UTF-8''${encodeURIComponent(file.filename)}`;
  return {
    status: 200,
    headers: { "Content-Type": image ? file.contentType : "application/octet-stream" },
    ownHeaders: { ...COMMON, "Content-Disposition": disposition, "Content-Security-Policy": "default-src 'none'; sandbox" },
    body: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
  };
}

/**
 * The hosted data as a seed file (docs/emulator.md, "Snapshots"), a download. To loopback clients only, as container
 * bytes are (it holds them), and without accounts: no password is ever served over HTTP.
 */
function exported(source: InspectorSource, req: IncomingMessage): AnswerBytes {
  if (!isLoopback(req.socket?.remoteAddress)) return text(403, "the export is served to this machine only");
  const names = [...source.server.databases.keys()];
  const stem = names.length === 1 ? names[0]!.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+/, "") : "";
  return {
    status: 200,
    headers: { "Content-Type": "application/json; charset=utf-8" },
    ownHeaders: { ...COMMON, "Content-Disposition": `attachment; filename="${stem === "" ? "fmgen" : stem}.seed.json"` },
    body: Buffer.from(seedText(exportSeed(source.server))),
  };
}

function isLoopback(address: string | undefined): boolean {
  return address !== undefined && (address === "::1" || /^(?:::ffff:)?127\./.test(address));
}

class BadQuery extends Error {}

function which(q: URLSearchParams): { file: string; layout?: string; table?: string } {
  const file = q.get("file");
  if (file === null) throw new BadQuery("name the hosted file: ?file=<name>");
  const layout = q.get("layout");
  const table = q.get("table");
  return { file, ...(layout !== null ? { layout } : {}), ...(table !== null ? { table } : {}) };
}

function whole(q: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = q.get(name);
  if (raw === null || raw === "") return fallback;
  if (!/^\d{1,15}$/.test(raw)) throw new BadQuery(`${name} must be a whole number, got ${JSON.stringify(raw.slice(0, 40))}`);
  return Math.min(Number(raw), max);
}

function asset(type: string, body: string, own: Record<string, string> = {}): AnswerBytes {
  return { status: 200, headers: { "Content-Type": type }, ownHeaders: { ...COMMON, ...own }, body: Buffer.from(body) };
}

function json(value: unknown, status = 200): AnswerBytes {
  return { status, headers: { "Content-Type": "application/json; charset=utf-8" }, ownHeaders: COMMON, body: Buffer.from(stringifyJson(value)) };
}

function text(status: number, message: string, own: Record<string, string> = {}): AnswerBytes {
  return { status, headers: { "Content-Type": "text/plain; charset=utf-8" }, ownHeaders: { ...COMMON, ...own }, body: Buffer.from(`${message}\n`) };
}
