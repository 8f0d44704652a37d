// Who may read and write through OData (docs/emulator.md, "Sign-ins"): every request carries its own credential, as
// OData has no session. Three are served: HTTP Basic (FileMaker Server), a Claris ID token (`Authorization: FMID`,
// FileMaker Cloud) and a proxy's static API key (`Authorization: Bearer dk_…` under the key's path prefix, OttoFMS).

import type { HostedServer } from "../hosted-file/hosted-server.js";
import { API_KEY_ACCOUNT_NAME, enteredAccountName, signInOf } from "../hosted-file/sign-ins.js";
import { ODataError } from "./odata-error.js";

/** What authentication reads of the hosted server: its accounts, its API keys, its clock (an FMID token lasts an hour). */
export type ODataSignIns = Pick<HostedServer, "accounts" | "apiKeys" | "clock">;

/** Request headers as plain values (a `$batch` part's, or an IncomingMessage's). */
export type HeaderRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

const INVALID = "(212): Invalid account/password";

/**
 * Throws 401 / 212 (section 8's choice, with `WWW-Authenticate: Basic` added by the caller's error reply) unless the
 * request signs in: Basic for an account with `fmodata`; `FMID <token>` for a Claris ID account with `fmodata`
 * whose hour has not run out; `Bearer <key>` for an API key of the path prefix the request came in under
 * (`pathPrefix`, `""` when none). A Data API session token is no key: 401 (section 8). OAuth headers are a Data API
 * login, not an OData credential (choice): 401. Header names are lower-case, as Node gives them. Answers the account
 * name the request's writes auto-enter (sign-ins.ts, enteredAccountName; "API key" for a key).
 */
export function authenticateOData(signIns: ODataSignIns, headers: HeaderRecord, pathPrefix: string): string {
  const authorization = one(headers.authorization);
  const bearer = authorization === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (bearer) {
    if (signIns.apiKeys.acceptsUnder(pathPrefix, bearer[1]!)) return API_KEY_ACCOUNT_NAME;
    throw new ODataError(401, "212", INVALID);
  }
  const signIn = signInOf(headers as Record<string, string | string[] | undefined>);
  if (signIn === undefined || typeof signIn === "string" || signIn.kind === "oauth") throw new ODataError(401, "212", INVALID);
  const check = signIns.accounts.check(signIn, signIns.clock.now(), "fmodata");
  if (check === "expired") throw new ODataError(401, "212", `${INVALID}: the FMID id token has expired (it lasts an hour); sign in with a new one`);
  if (check !== "ok") throw new ODataError(401, "212", INVALID);
  return enteredAccountName(signIns.accounts, signIn);
}

function one(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === "string" ? value : value?.[0];
}
