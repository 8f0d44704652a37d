import { broken } from "./answer-shape.js";
import { fileMakerError, type FileMakerError } from "./errors.js";
import { redact, scrub, secretForms } from "./redact.js";
import { withCapacityRetry, withRetry, type RetryPolicy } from "./retry.js";
import { segment, type Envelope, type Scrub, type Transport, type WireRequest } from "./transport.js";

function withToken(req: WireRequest, token: string): WireRequest {
  return { ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } };
}

export type Auth = { username: string; password: string } | { token: string };

export interface ExternalDataSource {
  database: string;
  username: string;
  password: string;
}

export interface SessionOptions {
  transport: Transport;
  database: string;
  auth: Auth;
  fmDataSource?: readonly ExternalDataSource[];
  retry: RetryPolicy;
  /** Log in again once the token has been idle this long (default 14 minutes: the server's limit is 15). */
  idleRefreshMs: number;
  now: () => number;
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
  private token: string | undefined;
  private lastUsed = 0;
  private pendingLogin: Promise<string> | undefined;
  /** The latest tokens: an echo of a request made with one shortly replaced must not show it either. */
  private tokens: string[] = [];
  /** How the transport quotes a body in an error: without this session's secrets. */
  private readonly scrub: Scrub;

  constructor(private readonly options: SessionOptions) {
    if ("token" in options.auth) {
      this.token = options.auth.token;
      this.tokens = [this.token];
      this.lastUsed = options.now();
    }
    this.scrub = (text) => scrub(text, this.secrets());
  }

  /** Whether uploads may name a file path (the transport reads files: Node only). */
  get filePaths(): boolean {
    return this.options.transport.filePaths;
  }

  /** Sends an authenticated request; resolves to the envelope of code 0, rejects with a typed error (never a secret in it). */
  async call(build: () => WireRequest, call: CallOptions): Promise<Envelope> {
    try {
      return await this.authenticated(build, call);
    } catch (error) {
      throw this.redact(error);
    }
  }

  /** `error` without the session's token, credentials or data source passwords in anything it carries. */
  redact<E>(error: E): E {
    return redact(error, this.secrets());
  }

  private secrets(): string[] {
    const { auth, fmDataSource = [] } = this.options;
    const secrets = [...this.tokens, ...fmDataSource.map((source) => source.password)];
    if ("username" in auth) {
      const pair = `${auth.username}:${auth.password}`;
      secrets.push(pair, base64(pair), auth.password);
    }
    return secretForms(secrets);
  }

  private async authenticated(build: () => WireRequest, call: CallOptions): Promise<Envelope> {
    let token = await this.currentToken();
    let req = build();
    let answer = await this.sendOnce(withToken(req, token), call);
    // 952: the server no longer knows the token (expired, revoked, restarted) and refused the call before doing
    // anything, so any call, a write too, may be sent again after a fresh login. Concurrent calls share that
    // login; a token revoked again right after its login gets another one, up to `retries` times.
    for (let relogins = 0; answer.code === "952" && this.canLogIn() && relogins < Math.max(1, this.options.retry.retries); relogins++) {
      this.forget(token);
      token = await this.currentToken();
      req = build();
      answer = await this.sendOnce(withToken(req, token), call);
    }
    return this.settle(answer, req);
  }

  /** Logs out (token in the path) if logged in; an already expired token is not an error. */
  async logout(signal?: AbortSignal): Promise<void> {
    const token = this.pendingLogin ? await this.pendingLogin.catch(() => undefined) : this.token;
    if (!token) return;
    this.token = undefined;
    const sessions = `/databases/${segment(this.options.database)}/sessions`;
    const req: WireRequest = { method: "DELETE", path: `${sessions}/${segment(token)}`, shownPath: `${sessions}/{token}` };
    try {
      const envelope = await this.options.transport.send(signal ? { ...req, signal } : req, this.scrub);
      if (envelope.code !== "0" && envelope.code !== "952") throw this.errorFor(envelope, req);
    } catch (error) {
      throw this.redact(error);
    }
  }

  private canLogIn(): boolean {
    return "username" in this.options.auth;
  }

  private async sendOnce(req: WireRequest, call: CallOptions): Promise<Envelope> {
    const envelope = await this.transmit(req, call);
    if (envelope.code !== "952") this.lastUsed = this.options.now();
    return envelope;
  }

  /** Sends with the retry policy: network faults (reads only, unless never sent) and capacity codes. */
  private transmit(req: WireRequest, call: CallOptions): Promise<Envelope> {
    const signalled = call.signal ? { ...req, signal: call.signal } : req;
    const policy = this.options.retry;
    return withCapacityRetry(policy, call.signal, () => withRetry(policy, call.idempotent, call.signal, () => this.options.transport.send(signalled, this.scrub)));
  }

  private settle(envelope: Envelope, req: WireRequest): Envelope {
    if (envelope.code === "0") return envelope;
    throw this.errorFor(envelope, req);
  }

  errorFor(envelope: Envelope, req: WireRequest): FileMakerError {
    return fileMakerError(envelope.code, envelope.message, envelope.httpStatus, { method: req.method, path: req.shownPath ?? req.path });
  }

  private forget(token: string): void {
    if (this.token === token) this.token = undefined;
  }

  private currentToken(): Promise<string> {
    if (this.token && (this.options.now() - this.lastUsed < this.options.idleRefreshMs || !this.canLogIn())) return Promise.resolve(this.token);
    // Past the idle limit the old token is dropped, not used: a fresh login costs less than a failed call.
    this.token = undefined;
    this.pendingLogin ??= this.login().finally(() => {
      this.pendingLogin = undefined;
    });
    return this.pendingLogin;
  }

  private async login(): Promise<string> {
    const auth = this.options.auth;
    if (!("username" in auth)) throw new Error("the session's token is no longer valid and the client has no credentials to log in again");
    const path = `/databases/${segment(this.options.database)}/sessions`;
    const body = JSON.stringify(this.options.fmDataSource ? { fmDataSource: this.options.fmDataSource } : {});
    const req: WireRequest = {
      method: "POST",
      path,
      headers: {
        authorization: `Basic ${base64(`${auth.username}:${auth.password}`)}`,
        "content-type": "application/json",
      },
      body,
    };
    // A login is safe to repeat: it creates nothing the caller depends on.
    const envelope = await this.transmit(req, { idempotent: true });
    if (envelope.code !== "0") throw this.errorFor(envelope, req);
    const token = [envelope.response.token, envelope.headers["x-fm-data-access-token"]].find((t): t is string => typeof t === "string" && t !== "");
    if (!token) throw broken(envelope, req, "login succeeded but the answer carries no token in its body or X-FM-Data-Access-Token header");
    this.token = token;
    this.tokens = [token, ...this.tokens.slice(0, 3)];
    this.lastUsed = this.options.now();
    return token;
  }
}

/** Base64 of a text's UTF-8 bytes (Basic credentials), with web APIs only: `btoa` takes one byte per character. */
function base64(text: string): string {
  let bytes = "";
  for (const byte of new TextEncoder().encode(text)) bytes += String.fromCharCode(byte);
  return btoa(bytes);
}
