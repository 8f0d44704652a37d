// A recording proxy on 127.0.0.1: forwards every request unchanged to `target` (the emulator) and keeps, per
// request, what went over the wire both ways. Session tokens are replaced by `<token>` and credentials by
// `<credentials>` in what it keeps, so a record never holds a secret.
import { createServer, request as httpRequest } from "node:http";

const KEEP_REQUEST_HEADERS = ["content-type", "content-length", "authorization", "transfer-encoding", "x-fm-data-oauth-request-id", "x-fm-data-oauth-identifier"];
const BODY_CHARS = 600;

/**
 * Starts the proxy; resolves with `{ url, entries, mark(label), close() }`. With `emptyLoginAsObject`, a login
 * (`POST .../sessions`) sent with no body is forwarded twice: as sent (that answer is recorded as
 * `answerAsSent`) and then with the body `{}` (docs/emulator.md, "1. Requests every client sends"), whose answer the
 * client gets, so that the calls after a bodiless login can be surveyed before the emulator takes that login.
 */
export async function startRecordingProxy(target, { emptyLoginAsObject = false } = {}) {
  const upstream = new URL(target);
  const tokens = new Set();
  const entries = [];
  let label = "";

  const redact = (text) => {
    let out = text;
    for (const token of tokens) out = out.split(token).join("<token>");
    return out;
  };

  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const entry = { label, method: req.method, url: req.url, headers: {}, body: describeBody(req.headers["content-type"], body), status: 0, answer: undefined };
      for (const name of KEEP_REQUEST_HEADERS) {
        const value = req.headers[name];
        if (value === undefined) continue;
        entry.headers[name] = name === "authorization" ? String(value).replace(/^(\S+)\s+.*$/, (_, scheme) => `${scheme} ${/^basic$/i.test(scheme) ? "<credentials>" : "<token>"}`) : String(value);
      }
      entries.push(entry);
      const bodilessLogin = emptyLoginAsObject && req.method === "POST" && /\/sessions\/?$/.test(req.url.split("?")[0]) && body.length === 0;
      const send = (payload, headers, onAnswer) => {
        const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (up) => {
          const answer = [];
          up.on("data", (chunk) => answer.push(chunk));
          up.on("end", () => onAnswer(up, Buffer.concat(answer)));
        });
        forward.on("error", (error) => {
          entry.status = 502;
          entry.answer = { error: error.message };
          res.writeHead(502, { "content-type": "text/plain" });
          res.end(error.message);
        });
        forward.end(payload);
      };
      const relay = (up, answer) => {
        const text = answer.toString("utf8");
        const token = up.headers["x-fm-data-access-token"];
        if (typeof token === "string" && token) tokens.add(token);
        entry.status = up.statusCode;
        entry.answer = describeAnswer(text);
        entry.url = redact(entry.url);
        res.writeHead(up.statusCode ?? 502, up.headers);
        res.end(answer);
      };
      if (bodilessLogin) {
        send(body, req.headers, (up, answer) => {
          entry.answerAsSent = { status: up.statusCode, ...describeAnswer(answer.toString("utf8")) };
          if (up.statusCode === 200) return relay(up, answer);
          entry.forwardedAs = "{}";
          send(Buffer.from("{}"), { ...req.headers, "content-length": "2" }, relay);
        });
      } else {
        send(body, req.headers, relay);
      }
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    entries,
    /** Labels the requests that follow (the call being driven). */
    mark(next) {
      label = next;
    },
    redact,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

function describeBody(contentType, body) {
  if (body.length === 0) return "";
  const type = String(contentType ?? "");
  if (type.startsWith("multipart/form-data")) {
    // Part headers only: name, filename, content type and size of each part.
    const text = body.toString("latin1");
    const parts = [...text.matchAll(/Content-Disposition:[^\r\n]*?\bname="([^"]*)"(?:; filename="([^"]*)")?(?:\r\nContent-Type: ([^\r\n]*))?/gi)];
    return `multipart: ${parts.map(([, name, filename, partType]) => `part "${name}"${filename !== undefined ? ` filename "${filename}"` : ""}${partType ? ` (${partType})` : ""}`).join(", ")}; ${body.length} bytes`;
  }
  const text = body.toString("utf8");
  return text.length > BODY_CHARS ? `${text.slice(0, BODY_CHARS)}…` : text;
}

/** HTTP answer in short: code and message, and the shape of `response`. */
function describeAnswer(text) {
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { notJson: text.slice(0, 200) };
  }
  const message = parsed?.messages?.[0] ?? {};
  const response = parsed?.response ?? {};
  const out = { code: message.code, message: message.message, keys: Object.keys(response) };
  const first = Array.isArray(response.data) ? response.data[0] : undefined;
  if (first) {
    out.record = Object.keys(first);
    if (first.portalData) out.portals = Object.fromEntries(Object.entries(first.portalData).map(([name, rows]) => [name, Array.isArray(rows) ? rows.length : typeof rows]));
    if (first.portalData) out.portalRowKeys = Object.fromEntries(Object.entries(first.portalData).map(([name, rows]) => [name, Array.isArray(rows) && rows[0] ? Object.keys(rows[0]) : []]));
  }
  for (const key of Object.keys(response)) if (/^script(Result|Error)/.test(key)) out[key] = response[key];
  return out;
}
