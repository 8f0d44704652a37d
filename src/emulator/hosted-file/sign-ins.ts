import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/**
 * The ways an account signs in (docs/emulator.md, "9. Other sign-ins"): HTTP Basic with a name and password, OAuth (the
 * identity provider's request id and identifier in two headers), or a FileMaker Cloud Claris ID (an FMID id token
 * in `Authorization: FMID <token>`). Each kind of account signs in only its own way, and each answers the same
 * session token as a Basic login.
 */
export interface PasswordAccount {
  username: string;
  password: string;
  privileges?: readonly string[];
}

/** Signs in with `X-FM-Data-OAuth-Request-Id: <requestId>` and `X-FM-Data-OAuth-Identifier: <identifier>`. */
export interface OAuthAccount {
  oauth: { requestId: string; identifier: string };
  privileges?: readonly string[];
}

/** Signs in with `Authorization: FMID <fmid>`; the id token lasts an hour of the emulator's clock from its first use. */
export interface FmidAccount {
  fmid: string;
  privileges?: readonly string[];
}

/**
 * An account of the emulator: `{ username, password }`, `{ oauth: { requestId, identifier } }` or `{ fmid }`, each
 * with optional `privileges` (default `["fmrest", "fmodata"]`: both APIs).
 */
export type Account = PasswordAccount | OAuthAccount | FmidAccount;

/** What a login request carries. */
export type SignIn =
  | { kind: "basic"; username: string; password: string }
  | { kind: "oauth"; requestId: string; identifier: string }
  | { kind: "fmid"; token: string };

export type SignInCheck = "ok" | "credentials" | "privilege" | "expired";

/** The extended privileges the emulator checks: `fmrest` for the Data API, `fmodata` for OData. */
export type Privilege = "fmrest" | "fmodata";

/** What an account given no `privileges` has: both APIs (a seed or an option may withhold either). */
export const DEFAULT_PRIVILEGES: readonly Privilege[] = ["fmrest", "fmodata"];

/** A Claris ID id token lasts an hour (FileMaker Cloud). */
export const FMID_TOKEN_LIFETIME_MS = 60 * 60_000;

export const OAUTH_REQUEST_ID_HEADER = "x-fm-data-oauth-request-id";
export const OAUTH_IDENTIFIER_HEADER = "x-fm-data-oauth-identifier";

/**
 * The sign-in a request carries: `undefined` when it carries none (no Authorization header, or one of another
 * scheme such as Bearer), `"malformed"` for a Basic or FMID header that cannot be read or only one of the two OAuth
 * headers, and `"ambiguous"` for OAuth headers beside an Authorization header (which one a server would take is
 * not known, so the emulator takes neither).
 */
export function signInOf(headers: IncomingHttpHeaders): SignIn | "ambiguous" | "malformed" | undefined {
  const requestId = singleHeader(headers[OAUTH_REQUEST_ID_HEADER]);
  const identifier = singleHeader(headers[OAUTH_IDENTIFIER_HEADER]);
  const authorization = headers.authorization;
  if (requestId !== undefined || identifier !== undefined) {
    if (authorization !== undefined) return "ambiguous";
    return requestId && identifier ? { kind: "oauth", requestId, identifier } : "malformed";
  }
  if (authorization === undefined) return undefined;
  if (/^FMID(\s|$)/i.test(authorization)) {
    const fmid = /^FMID\s+(\S+)\s*$/i.exec(authorization);
    return fmid ? { kind: "fmid", token: fmid[1]! } : "malformed";
  }
  if (/^Basic(\s|$)/i.test(authorization)) {
    const basic = parseBasic(authorization);
    return basic ? { kind: "basic", ...basic } : "malformed";
  }
  return undefined;
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}

export function parseBasic(header: string | undefined): { username: string; password: string } | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header ?? "");
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export function isPasswordAccount(account: Account): account is PasswordAccount {
  return "username" in account;
}

/**
 * The accounts of a running emulator, by the way each signs in. Secrets are compared as SHA-256 digests: passwords
 * in constant time, OAuth pairs and FMID tokens by their digest as a map key, so no secret is kept as a key.
 */
export class AccountBook {
  private readonly byUsername = new Map<string, PasswordAccount>();
  private readonly byOAuth = new Map<string, OAuthAccount>();
  private readonly byFmid = new Map<string, { account: FmidAccount; firstUsedMs?: number }>();

  add(account: Account): void {
    if ("username" in account) this.byUsername.set(account.username.toLowerCase(), account);
    else if ("oauth" in account) this.byOAuth.set(oauthKey(account.oauth.requestId, account.oauth.identifier), account);
    else this.byFmid.set(digestHex(account.fmid), { account });
  }

  /** The password account of this name (case-insensitive), or with no name the first one added. */
  passwordAccount(username?: string): PasswordAccount | undefined {
    if (username === undefined) return this.byUsername.values().next().value;
    return this.byUsername.get(username.toLowerCase());
  }

  /**
   * Whether the sign-in names an account with `privilege` (`fmrest`: the Data API, `fmodata`: OData); an FMID
   * token's hour starts at its first use. An account given no `privileges` has both.
   */
  check(signIn: SignIn, nowMs: number, privilege: Privilege = "fmrest"): SignInCheck {
    let privileges: readonly string[] | undefined;
    switch (signIn.kind) {
      case "basic": {
        // FileMaker account names are case-insensitive; passwords are not.
        const account = this.byUsername.get(signIn.username.toLowerCase());
        // Compare digests in constant time so the answer's timing says nothing about the password.
        const same = timingSafeEqual(digest(signIn.password), digest(account?.password ?? ""));
        if (!account || !same) return "credentials";
        privileges = account.privileges;
        break;
      }
      case "oauth": {
        const account = this.byOAuth.get(oauthKey(signIn.requestId, signIn.identifier));
        if (!account) return "credentials";
        privileges = account.privileges;
        break;
      }
      case "fmid": {
        const entry = this.byFmid.get(digestHex(signIn.token));
        if (!entry) return "credentials";
        if (entry.firstUsedMs !== undefined && nowMs - entry.firstUsedMs >= FMID_TOKEN_LIFETIME_MS) return "expired";
        privileges = entry.account.privileges;
        if (!(privileges ?? DEFAULT_PRIVILEGES).includes(privilege)) return "privilege";
        entry.firstUsedMs ??= nowMs;
        return "ok";
      }
    }
    return (privileges ?? DEFAULT_PRIVILEGES).includes(privilege) ? "ok" : "privilege";
  }
}

/** What a write auto-enters as the account name of an OAuth or Claris ID sign-in, which names no account of its own. */
export const OAUTH_ACCOUNT_NAME = "OAuth";
export const FMID_ACCOUNT_NAME = "Claris ID";
/** What a write through an API key auto-enters as the account name (a key names no account: api-keys.ts). */
export const API_KEY_ACCOUNT_NAME = "API key";

/**
 * The account name a signed-in request's writes auto-enter (`creationAccount`, `modificationAccount`: FileMaker's
 * Get ( AccountName )): a Basic account's name as the account was defined (names are case-insensitive, so the
 * account's own spelling, not the sign-in's); an OAuth or Claris ID sign-in, which the emulator knows by no name,
 * "OAuth" or "Claris ID" (docs/emulator.md, "Schema changes": a choice).
 */
export function enteredAccountName(accounts: AccountBook, signIn: SignIn): string {
  if (signIn.kind === "basic") return accounts.passwordAccount(signIn.username)?.username ?? signIn.username;
  return signIn.kind === "oauth" ? OAUTH_ACCOUNT_NAME : FMID_ACCOUNT_NAME;
}

function oauthKey(requestId: string, identifier: string): string {
  return digestHex(`${requestId}\u0000${identifier}`);
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

function digestHex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * How the request log and the inspector name the account a sign-in is for, never with its secret: a Basic
 * sign-in's user name, else the kind of sign-in ("OAuth", "Claris ID"), since those accounts have no name.
 */
export function signInName(signIn: SignIn): string {
  return signIn.kind === "basic" ? signIn.username : signIn.kind === "oauth" ? "OAuth" : "Claris ID";
}
