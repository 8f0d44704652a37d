import { EmulatorError } from "../../hosted-file/fm-error.js";
import { readRequestBody } from "../wire/known-params.js";
import type { Answer, RequestContext } from "../routes.js";
import { signInOf, type SignInCheck } from "../../hosted-file/sign-ins.js";

/**
 * POST /databases/{database}/sessions: HTTP Basic credentials, OAuth headers or an FMID id token (sign-ins.ts,
 * docs/emulator.md, "9. Other sign-ins") for a token (body and header).
 */
export async function login(ctx: RequestContext): Promise<Answer> {
  const signIn = signInOf(ctx.req.headers);
  // Many clients POST the login with no body at all: that means `{}` (docs/emulator.md, "1. Requests every client
  // sends").
  const body = await readRequestBody(ctx, { emptyIsObject: true });
  if (body.fmDataSource !== undefined && !isDataSourceList(body.fmDataSource)) {
    throw new EmulatorError(400, "1708", "fmDataSource must be an array of { database, username, password } objects");
  }
  if (signIn === "ambiguous") throw new EmulatorError(401, "212", "send one sign-in: the OAuth headers or an Authorization header, not both");
  if (signIn === undefined || signIn === "malformed") throw new EmulatorError(401, "212", SIGN_IN_HELP);
  const outcome = ctx.state.sessions.signIn(ctx.db.model.name, signIn);
  if (!outcome.ok) throw signInRefused(outcome.reason);
  return { response: { token: outcome.token }, headers: { "X-FM-Data-Access-Token": outcome.token } };
}

/** DELETE /databases/{database}/sessions/{token}: the token travels in the path, no Authorization. */
export function logout(ctx: RequestContext): Answer {
  // Whose session it was, for the request log, asked before it is forgotten.
  const account = ctx.state.sessions.accountOf(ctx.params.token!);
  if (!ctx.state.sessions.logout(ctx.params.token!, ctx.db.model.name)) throw new EmulatorError(401, "952");
  return account === undefined ? {} : { account };
}

const SIGN_IN_HELP =
  "send Authorization: Basic with base64 of account:password, Authorization: FMID <id token>, or the headers X-FM-Data-OAuth-Request-Id and X-FM-Data-OAuth-Identifier";

/** 401 for a sign-in that names no account (212), an expired FMID id token (212), or an account without fmrest (9). */
export function signInRefused(reason: Exclude<SignInCheck, "ok">): EmulatorError {
  if (reason === "privilege") return new EmulatorError(401, "9", "the account's privilege set lacks the fmrest extended privilege");
  if (reason === "expired") return new EmulatorError(401, "212", "the FMID id token has expired (it lasts an hour); sign in with a new one");
  return new EmulatorError(401, "212");
}

/** External data source credentials: accepted and ignored, since the emulator hosts no other files. */
function isDataSourceList(value: unknown): boolean {
  return Array.isArray(value) && value.every((s) => typeof s === "object" && s !== null && typeof s.database === "string");
}
