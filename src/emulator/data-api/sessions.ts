import { createHash, randomBytes } from "node:crypto";
import type { EmulatorClock } from "../hosted-file/clock.js";
import { SessionGlobals } from "../hosted-file/globals.js";
import { enteredAccountName, signInName, type AccountBook, type Privilege, type SignIn, type SignInCheck } from "../hosted-file/sign-ins.js";

interface Session {
  database: string;
  lastUsedMs: number;
  /** Who signed in (signInName: a user name, "OAuth", "Claris ID") and when: what the inspector shows. */
  account: string;
  /** The account name its writes auto-enter (sign-ins.ts, enteredAccountName). */
  accountName: string;
  createdMs: number;
  /** The global field values this session has set (made on first use); they go with the session. */
  globals?: SessionGlobals;
}

/** FileMaker Data API tokens expire after 15 minutes without a successful call. */
export const TOKEN_IDLE_LIMIT_MS = 15 * 60_000;

/** How often expired sessions are swept: at a login a minute of the emulator's clock after the last sweep, and by a timer. */
export const SWEEP_EVERY_MS = 60_000;

export type LoginOutcome = { ok: true; token: string } | { ok: false; reason: Exclude<SignInCheck, "ok"> };

/** Session tokens of the hosted server's accounts, on the emulator's clock. */
export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();
  /** Whose global values these are: asked for every container file a global holds, so not by a scan of every session. */
  private readonly tokenOfGlobals = new WeakMap<SessionGlobals, string>();
  private lastSweepMs: number;
  logins = 0;

  constructor(
    private readonly clock: EmulatorClock,
    /** The hosted server's accounts, which sessions sign in. */
    private readonly accounts: AccountBook,
  ) {
    this.lastSweepMs = clock.now();
  }

  /** Whether a sign-in (Basic, OAuth, FMID: sign-ins.ts) names an account that may use the Data API; no session is made. */
  check(signIn: SignIn, privilege: Privilege = "fmrest"): SignInCheck {
    return this.accounts.check(signIn, this.clock.now(), privilege);
  }

  /** Whether an account has this password, and whether it may use the Data API; no session is made. */
  checkPassword(username: string, password: string): SignInCheck {
    return this.check({ kind: "basic", username, password });
  }

  login(database: string, username: string, password: string): LoginOutcome {
    return this.signIn(database, { kind: "basic", username, password });
  }

  /** A session of this database for the sign-in's account: the same token whichever way it signed in. */
  signIn(database: string, signIn: SignIn): LoginOutcome {
    const check = this.check(signIn);
    if (check !== "ok") return { ok: false, reason: check };
    // A login is what adds sessions: it sweeps the expired ones first, at most once a minute of the clock.
    if (this.clock.now() - this.lastSweepMs >= SWEEP_EVERY_MS) this.sweep();
    const token = randomBytes(24).toString("hex");
    this.sessions.set(token, { database, lastUsedMs: this.clock.now(), account: signInName(signIn), accountName: enteredAccountName(this.accounts, signIn), createdMs: this.clock.now() });
    this.logins++;
    return { ok: true, token };
  }

  /** True when the token is live for this database; expired tokens are forgotten. */
  isValid(token: string, database: string): boolean {
    const session = this.sessions.get(token);
    if (!session) return false;
    if (this.clock.now() - session.lastUsedMs >= TOKEN_IDLE_LIMIT_MS) {
      this.sessions.delete(token);
      return false;
    }
    return session.database === database;
  }

  /** The global field values of a live session (globals.ts): another session never sees them. */
  globalsOf(token: string): SessionGlobals | undefined {
    const session = this.sessions.get(token);
    if (!session) return undefined;
    if (!session.globals) this.tokenOfGlobals.set((session.globals = new SessionGlobals()), token);
    return session.globals;
  }

  /** Whether these are a live session's global values (the container files they hold are kept meanwhile). */
  ownsGlobals(globals: SessionGlobals): boolean {
    const token = this.tokenOfGlobals.get(globals);
    const session = token === undefined ? undefined : this.sessions.get(token);
    return session?.globals === globals && this.clock.now() - session.lastUsedMs < TOKEN_IDLE_LIMIT_MS;
  }


  /** A successful call resets the idle timer. */
  touch(token: string): void {
    const session = this.sessions.get(token);
    if (session) session.lastUsedMs = this.clock.now();
  }

  logout(token: string, database: string): boolean {
    if (!this.isValid(token, database)) return false;
    this.sessions.delete(token);
    return true;
  }

  /** Forgets one token (an injected revocation): its next use gets 952. */
  revoke(token: string): void {
    this.sessions.delete(token);
  }

  /** Forgets every token, as a server restart does. */
  dropAll(): void {
    this.sessions.clear();
  }

  /**
   * Forgets every expired session (with its global values), so that sessions nobody uses again do not stay in
   * memory until their token comes back; a session that has not expired is left as it is.
   */
  sweep(): void {
    const now = this.clock.now();
    this.lastSweepMs = now;
    for (const [token, session] of this.sessions) if (now - session.lastUsedMs >= TOKEN_IDLE_LIMIT_MS) this.sessions.delete(token);
  }

  /** The account a token's session signed in (undefined for no session): what the request log names. */
  accountOf(token: string): string | undefined {
    return this.sessions.get(token)?.account;
  }

  /** The account name a token's session's writes auto-enter (undefined for no session). */
  accountNameOf(token: string): string | undefined {
    return this.sessions.get(token)?.accountName;
  }

  /**
   * The sessions held, as the inspector shows them: never the token, only a short id (the first 12 hex digits of
   * its SHA-256), which cannot be turned back into it.
   */
  list(): { id: string; database: string; account: string; createdMs: number; lastUsedMs: number; expired: boolean }[] {
    const now = this.clock.now();
    return [...this.sessions].map(([token, s]) => ({
      id: createHash("sha256").update(token).digest("hex").slice(0, 12),
      database: s.database,
      account: s.account,
      createdMs: s.createdMs,
      lastUsedMs: s.lastUsedMs,
      expired: now - s.lastUsedMs >= TOKEN_IDLE_LIMIT_MS,
    }));
  }

  /** Sessions held in memory: the live ones and the expired ones not swept yet. */
  heldCount(): number {
    return this.sessions.size;
  }

  activeCount(): number {
    const now = this.clock.now();
    let count = 0;
    for (const session of this.sessions.values()) if (now - session.lastUsedMs < TOKEN_IDLE_LIMIT_MS) count++;
    return count;
  }
}
