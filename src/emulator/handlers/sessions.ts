import { EmulatorError } from "../fm-error.js";
import { readRequestBody } from "../http/known-params.js";
import type { Answer, RequestContext } from "../http/routes.js";

/** POST /databases/{database}/sessions: HTTP Basic credentials for a token (body and header). */
export async function login(ctx: RequestContext): Promise<Answer> {
  const credentials = parseBasic(ctx.req.headers.authorization);
  // Many clients POST the login with no body at all: that means `{}` (data-api-server.md, section 1).
  const body = await readRequestBody(ctx, { emptyIsObject: true });
  if (body.fmDataSource !== undefined && !isDataSourceList(body.fmDataSource)) {
    throw new EmulatorError(400, "1708", "fmDataSource must be an array of { database, username, password } objects");
  }
  if (!credentials) throw new EmulatorError(401, "212", "send Authorization: Basic with base64 of account:password");
  const outcome = ctx.state.sessions.login(ctx.db.model.name, credentials.username, credentials.password);
  if (!outcome.ok) {
    throw outcome.reason === "privilege"
      ? new EmulatorError(401, "9", "the account's privilege set lacks the fmrest extended privilege")
      : new EmulatorError(401, "212");
  }
  return { response: { token: outcome.token }, headers: { "X-FM-Data-Access-Token": outcome.token } };
}

/** DELETE /databases/{database}/sessions/{token}: the token travels in the path, no Authorization. */
export function logout(ctx: RequestContext): Answer {
  if (!ctx.state.sessions.logout(ctx.params.token!, ctx.db.model.name)) throw new EmulatorError(401, "952");
  return {};
}

export function parseBasic(header: string | undefined): { username: string; password: string } | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header ?? "");
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** External data source credentials: accepted and ignored, since the emulator hosts no other files. */
function isDataSourceList(value: unknown): boolean {
  return Array.isArray(value) && value.every((s) => typeof s === "object" && s !== null && typeof s.database === "string");
}
