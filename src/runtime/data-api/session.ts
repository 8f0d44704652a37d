import { broken } from "./answer-shape.js";
import { base64, basicAuth } from "../core/basic-auth.js";
import { fileMakerError } from "./errors.js";
import { ProtocolError } from "../core/protocol-errors.js";
import { redact, scrub, secretForms } from "./redact.js";
import type { SecretForms } from "../core/secrets.js";
import { withCapacityRetry, withRetry, type RetryPolicy } from "../core/retry.js";
import { sendableToken } from "../core/sendable-token.js";
import type { TokenStore } from "./token-store.js";
import { optionError, textOption } from "../core/options-check.js";
import { callOf, segment, type Envelope, type Scrub, type Transport, type WireRequest } from "./transport.js";

/**
 * How the client signs in: an account's name and password; an existing session token (no re-login); OAuth (the
 * identity provider's request id and identifier); a FileMaker Cloud Claris ID (`claris` gives a fresh FMID id token
 * at each login); or a proxy's static API key (no login at all; `pathPrefix` is where the proxy serves the Data API).
 */
export type Auth =
  | { username: string; password: string }
  | { token: string }
  | { oauth: { requestId: string; identifier: string } }
  | { claris: () => Promise<string> }
  | { apiKey: string; pathPrefix?: string };

const filled = (value: unknown): boolean => typeof value === "string" && value !== "";

const AUTH = "createClient: options.auth";

/**
 * Checks `auth` (a TypeError naming the member that is missing or of the wrong type and what it was given, never a
 * value); returns the API key's path prefix.
 */
export function checkAuth(auth: Auth): string {
  const a = auth as Record<string, unknown> & { oauth?: Record<string, unknown>; pathPrefix?: unknown };
  const shapes = "{ username, password }, { token }, { oauth: { requestId, identifier } }, { claris } or { apiKey, pathPrefix? }";
  if (typeof a != "object" || !a) throw optionError(AUTH, shapes, a);
  const prefix = a.pathPrefix ?? "";
  if ("username" in a) {
    textOption(`${AUTH}.username`, a.username);
    if (typeof a.password != "string") throw optionError(`${AUTH}.password`, "a string", a.password, 1);
  } else if ("token" in a) textOption(`${AUTH}.token`, a.token);
  else if ("oauth" in a) {
    textOption(`${AUTH}.oauth.requestId`, a.oauth?.requestId);
    textOption(`${AUTH}.oauth.identifier`, a.oauth?.identifier);
  } else if ("claris" in a) {
    if (typeof a.claris != "function") throw optionError(`${AUTH}.claris`, "a function", a.claris);
  } else if ("apiKey" in a) {
    textOption(`${AUTH}.apiKey`, a.apiKey);
    if (prefix !== "" && !/^(\/[^/?#\s]+)+$/.test(prefix as string)) throw optionError(`${AUTH}.pathPrefix`, 'a path such as "/otto"', prefix);
  } else throw new TypeError(`${AUTH} must be ${shapes}, got an object with keys ${Object.keys(a)}`);
  return prefix as string;
}

/**
 * The credentials of an external FileMaker data source the file's layouts read through, sent with the login
 * (`fmDataSource`).
 */
export interface ExternalDataSource {
  /** The external file's name. */
  database: string;
  /** An account of that file. */
  username: string;
  /** Its password. */
  password: string;
}

export interface SessionOptions {
  transport: Transport;
  database: string;
  auth: Auth;
  fmDataSource?: readonly ExternalDataSource[] | undefined;
  retry: RetryPolicy;
  /** Log in again once the token has been idle this long (default 14 minutes: the server's limit is 15). */
  idleRefreshMs: number;
  now: () => number;
  /** The Data API's URL (origin and path), the first part of the token store's key. */
  server: string;
  /** Where the token is kept for other clients (default none: the token in hand is this session's alone). */
  tokenStore?: TokenStore | undefined;
}

export interface CallOptions {
  /** Safe to send again after a network fault (reads). */
  idempotent: boolean;
  signal?: AbortSignal | undefined;
}

/**
 * One Data API session shared by every call and every layout of a client: at most one login in flight,
 * a fresh login before the idle limit, and one re-login and retry when the server answers 952.
 */
export class Session {
  // Private names (#): a bundler's minifier shortens them, as it cannot a TypeScript `private` member's name.
  #token: string | undefined;
  #lastUsed = 0;
  #pendingLogin: Promise<string> | undefined;
  /**
   * The latest tokens and id tokens (or the API key): an echo of a request made with one shortly replaced must not
   * show it either.
   */
  #tokens: string[] = [];
  /** The token store's key of the session's credential, once known. */
  #key: string | undefined;
  /** Whether the token in hand is in the app's store (taken from it or written to it): close() leaves it open. */
  #shared = false;
  /** The last secret the key was derived from, and its verifier (derived once per secret: it is slow on purpose). */
  #proof: [string, Promise<string>] | undefined;
  /** Whether the session signs in (false: a given token or API key). */
  readonly #signsIn: boolean;
  readonly #options: SessionOptions;

  constructor(options: SessionOptions) {
    this.#options = options;
    const { token, apiKey } = options.auth as { token?: string; apiKey?: string };
    const fixed = token ?? apiKey;
    this.#signsIn = !fixed;
    // The store's key proves the credential through WebCrypto, which pages served over plain http do not have.
    if (options.tokenStore && !fixed && !globalThis.crypto?.subtle) throw new TypeError("createClient: a tokenStore needs WebCrypto (crypto.subtle), which this runtime lacks (a page served over plain http)");
    if (fixed) {
      this.#token = fixed;
      this.#tokens = [fixed];
      this.#lastUsed = options.now();
    }
  }

  /** `text` (what a server or proxy said) without this session's secrets: how an error quotes it. */
  readonly scrub: Scrub = (text) => scrub(text, this.#secrets());

  /** The transport the session's requests go through (a download fetches with it). */
  get transport(): Transport {
    return this.#options.transport;
  }

  /** Whether uploads may name a file path (the transport reads files: Node only). */
  get filePaths(): boolean {
    return this.#options.transport.filePaths;
  }

  /** Sends an authenticated request; resolves to the envelope of code 0, rejects with a typed error (never a secret in it). */
  async call(build: () => WireRequest, call: CallOptions): Promise<Envelope> {
    try {
      return await this.#authenticated(build, call);
    } catch (error) {
      throw this.redact(error);
    }
  }

  /** `error` without the session's token, credentials or data source passwords in anything others made of it (see redact.ts). */
  redact<E>(error: E): E {
    return redact(error, this.#secrets());
  }

  /** The secrets' forms, with the secrets they were made from (joined). */
  #forms: [string, SecretForms] | undefined;

  #secrets(): SecretForms {
    const { auth, fmDataSource = [] } = this.#options;
    const secrets = [...this.#tokens, ...fmDataSource.map((source) => source.password)];
    if ("username" in auth) {
      const pair = `${auth.username}:${auth.password}`;
      secrets.push(pair, base64(pair), auth.password);
    }
    if ("oauth" in auth) secrets.push(auth.oauth.identifier);
    // Built again only when the secrets change (a new token): a server's error is scrubbed, then redacted.
    const key = secrets.join("\0");
    if (this.#forms?.[0] !== key) this.#forms = [key, secretForms(secrets)];
    return this.#forms[1];
  }

  async #authenticated(build: () => WireRequest, call: CallOptions): Promise<Envelope> {
    // 952: the server no longer knows the token (expired, revoked, restarted) and refused the call before doing
    // anything, so any call, a write too, may be sent again after a fresh login. Concurrent calls share that
    // login; a token revoked again right after its login gets another one, up to `retries` times. HTTP 431 (an
    // envelope's, or a front end's bare answer): the token is longer than the server takes in a header, refused
    // before anything was done too; replaced once (a fresh token refused as well is the server's limit, not the token's).
    for (let relogins = 0, token: string | undefined; ; relogins++) {
      token = await this.#currentToken(token);
      const req = build();
      const oversized = (status: number) => status === 431 && this.#signsIn && relogins === 0;
      let answer: Envelope;
      try {
        answer = await this.#transmit({ ...req, headers: { ...req.headers, authorization: `Bearer ${token}` }, signal: call.signal }, call);
      } catch (error) {
        if (error instanceof ProtocolError && oversized(error.httpStatus)) continue;
        throw error;
      }
      if (oversized(answer.httpStatus)) continue;
      // A token is idle from its last use the server accepted.
      if (answer.code !== "952") this.#lastUsed = this.#options.now();
      else if (this.#signsIn && relogins < Math.max(1, this.#options.retry.retries)) continue;
      return this.#checked(answer, req);
    }
  }

  /**
   * Logs out (token in the path) if logged in, and takes the token out of the store; an already expired token is not
   * an error. With an API key there is no session: nothing to do. `close`: not a token the app's store holds for its
   * other users. The token is given up only once the server has ended its session: a failed logout may be repeated.
   */
  async logout(signal?: AbortSignal, close?: boolean): Promise<void> {
    // A login in flight (even one whose store write failed) has a token to end too.
    await this.#pendingLogin?.catch(() => undefined);
    const token = this.#token;
    if (!token || "apiKey" in this.#options.auth || (close && this.#shared)) return;
    const sessions = `/databases/${segment(this.#options.database)}/sessions`;
    try {
      // Out of the store first: another process must not pick up a token this one is ending (then close() ends it too).
      if (this.#shared) {
        await this.#stored("delete", this.#key!);
        this.#shared = false;
      }
    } finally {
      // Ended at the server even when the store failed: a session is scarcer than a store entry.
      await this.send({ method: "DELETE", path: `${sessions}/${segment(token, "logout: token")}`, shownPath: `${sessions}/{token}`, signal }, "952");
      if (this.#token === token) this.#token = undefined;
    }
  }

  /**
   * Sends one request without the session's token (a logout, or a call that needs none): the envelope of code 0 (or
   * `also`), else its typed error; every error redacted.
   */
  async send(req: WireRequest, also?: string): Promise<Envelope> {
    try {
      return this.#checked(await this.#options.transport.send(req, this.scrub), req, also);
    } catch (error) {
      throw this.redact(error);
    }
  }

  /** Sends `req` (which carries `call`'s signal) with the retry policy: network faults (reads only, unless never sent) and capacity codes. */
  #transmit(req: WireRequest, call: CallOptions): Promise<Envelope> {
    const policy = this.#options.retry;
    return withCapacityRetry(policy, call.signal, () => withRetry(policy, call.idempotent, call.signal, () => this.#options.transport.send(req, this.scrub)));
  }

  /** `envelope` when its code is 0 (or `also`); else its typed error, thrown. */
  #checked(envelope: Envelope, req: WireRequest, also?: string): Envelope {
    if (envelope.code !== "0" && envelope.code !== also) throw fileMakerError(envelope.code, this.scrub(envelope.message), envelope.httpStatus, callOf(req), envelope.response);
    return envelope;
  }

  /** The token to send: the one in hand unless it is `failed` (answered 952) or idle too long; else one login, shared. */
  async #currentToken(failed?: string): Promise<string> {
    const token = this.#token;
    if (token && token !== failed && (this.#options.now() - this.#lastUsed < this.#options.idleRefreshMs || !this.#signsIn)) return token;
    // A given token given up by logout(): there is nothing to sign in with.
    if (!this.#signsIn && !token) throw new Error("this client's token was logged out, and the client has no credentials to log in again");
    // Past the idle limit the old token is not used (a fresh login costs less than a failed call), but it stays in hand
    // until one replaces it: should that fail, logout() can still end its session.
    this.#pendingLogin ??= this.#acquire(token).finally(() => {
      this.#pendingLogin = undefined;
    });
    return this.#pendingLogin;
  }

  /**
   * The app's store's token for this credential unless it is `stale` or cannot be sent (then deleted); else one
   * login, whose token is stored. A Claris sign-in refused with 212 (its id token expired) asks for a new id token and tries once more.
   * The token of a login is kept before it is stored: a store that fails fails the call, never loses the session.
   */
  async #acquire(stale: string | undefined, again?: boolean): Promise<string> {
    const [headers, account, secret] = await this.#signIn();
    const { server, database, tokenStore, auth } = this.#options;
    let token: string | undefined;
    if (tokenStore) {
      // The key names the account and proves the credential: a stored token serves only a client with the same secret.
      const key = `${server} ${segment(database)} ${account}`;
      if (this.#proof?.[0] !== secret) this.#proof = [secret, verifier(key, secret)];
      token = await this.#stored("get", (this.#key = `${key} ${await this.#proof[1]}`));
    }
    // A value no server issued (a header injection, 20 KB: sendable-token.ts) would fail every call of every client
    // sharing the store, and no server would ever answer it 952: replaced here as a dead token is.
    this.#shared = sendableToken(token) && token !== stale;
    if (!this.#shared) {
      if (token) await this.#stored("delete", this.#key!);
      const path = `/databases/${segment(database)}/sessions`;
      // Without data sources, "{}" (JSON leaves an undefined member out).
      const body = JSON.stringify({ fmDataSource: this.#options.fmDataSource });
      const req: WireRequest = { method: "POST", path, headers: { ...headers, "content-type": "application/json" }, body };
      // A login is safe to repeat: it creates nothing the caller depends on.
      const envelope = await this.#transmit(req, { idempotent: true });
      if (envelope.code === "212" && !again && "claris" in auth) return this.#acquire(stale, true);
      this.#checked(envelope, req);
      const tokens = [envelope.response.token, envelope.headers["x-fm-data-access-token"]];
      if (!tokens.some(filled)) throw broken(envelope, req, "login succeeded but the answer carries no token in its body or X-FM-Data-Access-Token header");
      // Never kept nor stored: it would fail every call.
      token = tokens.find(sendableToken) as string | undefined;
      if (!token) throw broken(envelope, req, "login succeeded but its token cannot be sent back (not 1 to 4,096 visible ASCII characters)");
    }
    this.#token = token;
    this.#tokens = [token!, ...this.#tokens.slice(0, 5)];
    this.#lastUsed = this.#options.now();
    if (tokenStore && !this.#shared) {
      await this.#stored("set", this.#key!, token!);
      this.#shared = true;
    }
    return token!;
  }

  /** What the app's store answers to `op`; its failure an Error naming the operation, the store's error its cause. */
  async #stored(op: keyof TokenStore, key: string, token?: string): Promise<string | undefined> {
    try {
      return (await this.#options.tokenStore![op](key, token!)) as string | undefined;
    } catch (cause) {
      throw this.redact(new Error(`tokenStore.${op} failed: ${(cause as Error)?.message ?? cause}`, { cause }));
    }
  }

  /**
   * The login's headers, the account the store's key names (never a secret: the username, the OAuth request id, or
   * "claris": an id token's subject is not read, as nothing here verifies its signature) and the secret the key's
   * verifier is derived from (the password, the OAuth identifier, the id token). A Claris sign-in asks for an id
   * token each time.
   */
  async #signIn(): Promise<[Record<string, string>, string, string]> {
    const auth = this.#options.auth;
    if ("username" in auth) return [basicAuth(auth.username, auth.password), segment(auth.username), auth.password];
    if ("oauth" in auth) {
      const { requestId, identifier } = auth.oauth;
      return [{ "x-fm-data-oauth-request-id": requestId, "x-fm-data-oauth-identifier": identifier }, `oauth:${segment(requestId)}`, identifier];
    }
    const id: unknown = await (auth as { claris: () => Promise<string> }).claris();
    if (!sendableToken(id)) throw new TypeError("auth.claris must resolve to an id token (1 to 4,096 visible ASCII characters)");
    this.#tokens.unshift(id as string);
    return [{ authorization: `FMID ${id as string}` }, "claris", id as string];
  }
}

/**
 * The store key's proof of a credential: PBKDF2-SHA-256 of `secret` salted with the key's server, database and
 * account, 100,000 iterations (the most Cloudflare Workers allow; about 25 ms on Node), base64. Whoever reads the
 * store's keys must guess the secret at that cost per try, per account.
 */
async function verifier(salt: string, secret: string): Promise<string> {
  const { subtle } = crypto;
  const material = await subtle.importKey("raw", utf8(secret), "PBKDF2", false, ["deriveBits"]);
  return base64(await subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt: utf8(salt), iterations: 1e5 }, material, 256));
}


// Unannotated: the encoder's Uint8Array<ArrayBuffer> is what WebCrypto's BufferSource takes under lib "dom".
const utf8 = (text: string) => new TextEncoder().encode(text);
