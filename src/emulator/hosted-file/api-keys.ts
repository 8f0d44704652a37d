import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { SessionGlobals } from "./globals.js";

/**
 * A static API key, as a proxy in front of the Data API and OData takes it (OttoFMS, for example; docs/emulator.md,
 * "Other sign-ins"): requests under `pathPrefix` (default none: the emulator's own
 * `/fmi/data/...` and `/fmi/odata/v4/...` paths) that send `Authorization: Bearer <key>` are served with no login,
 * as if the key were a live session token of every hosted database (Data API) or an account with `fmodata` (OData).
 * Both APIs check keys here, in the hosted file, which neither API owns.
 */
export interface ApiKey {
  /** The key a client sends as `Authorization: Bearer <key>`. */
  key: string;
  /** Where the proxy serves the Data API: `/otto` serves it at `/otto/fmi/data/{version}/...`. */
  pathPrefix?: string;
}

/** Visible ASCII with no spaces: what a Bearer credential can carry. */
const KEY = /^[\x21-\x7e]+$/;
/** `/a` or `/a/b`: segments of URL path characters, no empty segment, no trailing slash, no dot segments. */
const PREFIX = /^(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@]+)+$/;

/** Checks the keys given to `startEmulator({ apiKeys })` or `fmgen serve --api-key`; throws on a bad one. */
export function checkApiKeys(keys: readonly ApiKey[]): ApiKey[] {
  return keys.map((entry, i) => {
    const where = `apiKeys[${i}]`;
    if (typeof entry?.key !== "string" || !KEY.test(entry.key)) throw new Error(`${where}.key must be a non-empty string of visible ASCII characters without spaces`);
    const prefix = entry.pathPrefix;
    if (prefix === undefined || prefix === "" || prefix === "/") return { key: entry.key };
    if (typeof prefix !== "string" || !PREFIX.test(prefix) || prefix.split("/").some((s) => s === "." || s === "..")) {
      throw new Error(`${where}.pathPrefix must be a path like "/otto" (segments after "/", no trailing "/"), got ${JSON.stringify(prefix)}`);
    }
    return { key: entry.key, pathPrefix: prefix };
  });
}

/**
 * The keys of a running emulator, the proxy path prefix each request came in under, and each key's global field
 * values: a key stands for a proxy holding its own server session, so what requests with a key set in globals only
 * requests with that key see (globals.ts), never a session's or another key's; a restart forgets them.
 */
export class ApiKeyRing {
  private readonly keys: { digest: Buffer; prefix: string }[];
  /** Per key (by its digest), made on first use. */
  private readonly globals = new Map<string, SessionGlobals>();
  /** The same values as a set: asked for every container file a key's global holds. */
  private readonly ownGlobals = new Set<SessionGlobals>();
  /** Prefixes as decoded path segments, longest first so a nested prefix wins over its parent. */
  private readonly prefixes: string[][];
  private readonly prefixOfRequest = new WeakMap<IncomingMessage, string>();

  constructor(keys: readonly ApiKey[]) {
    this.keys = checkApiKeys(keys).map((k) => ({ digest: digest(k.key), prefix: k.pathPrefix ?? "" }));
    this.prefixes = [...new Set(this.keys.map((k) => k.prefix).filter((p) => p !== ""))]
      .map((p) => p.split("/").slice(1))
      .sort((a, b) => b.length - a.length);
  }

  /**
   * The request's path segments with a key's path prefix taken off when they start with one followed by `fmi`;
   * the prefix is remembered for {@link accepts}. Other paths are returned as they are.
   */
  route(req: IncomingMessage, segments: string[]): string[] {
    for (const prefix of this.prefixes) {
      if (segments.length > prefix.length && prefix.every((s, i) => segments[i] === s) && segments[prefix.length] === "fmi") {
        this.prefixOfRequest.set(req, `/${prefix.join("/")}`);
        return segments.slice(prefix.length);
      }
    }
    return segments;
  }

  /** True when the Bearer credential is a key served under the path prefix this request came in under. */
  accepts(req: IncomingMessage, bearer: string): boolean {
    return this.match(req, bearer) !== undefined;
  }

  /**
   * True when the Bearer credential is a key served under `prefix` (`""`: no prefix): for callers that know the
   * prefix a request came in under themselves (the OData API, whose router picks it by path).
   */
  acceptsUnder(prefix: string, bearer: string): boolean {
    return this.matchUnder(prefix, bearer) !== undefined;
  }

  /** The distinct non-empty path prefixes of the keys (`/otto`), longest first. */
  pathPrefixes(): string[] {
    return this.prefixes.map((segments) => `/${segments.join("/")}`);
  }

  /** The global values of the key this request's Bearer credential is, or undefined when it is no key served here. */
  globalsOf(req: IncomingMessage, bearer: string): SessionGlobals | undefined {
    const id = this.match(req, bearer);
    if (id === undefined) return undefined;
    let globals = this.globals.get(id);
    if (!globals) {
      this.globals.set(id, (globals = new SessionGlobals()));
      this.ownGlobals.add(globals);
    }
    return globals;
  }

  /** Whether these are a key's global values (the container files they hold are kept meanwhile, as a session's). */
  ownsGlobals(globals: SessionGlobals): boolean {
    return this.ownGlobals.has(globals);
  }

  /** Forgets every key's global values, as a server restart forgets every session's. */
  forgetGlobals(): void {
    this.globals.clear();
    this.ownGlobals.clear();
  }

  /** The key's digest (hex) when the Bearer credential is a key served under this request's path prefix. */
  private match(req: IncomingMessage, bearer: string): string | undefined {
    return this.matchUnder(this.prefixOfRequest.get(req) ?? "", bearer);
  }

  private matchUnder(prefix: string, bearer: string): string | undefined {
    if (this.keys.length === 0) return undefined;
    const given = digest(bearer);
    let match: string | undefined;
    // Every key is compared, in constant time, whatever matched before.
    for (const key of this.keys) if (timingSafeEqual(key.digest, given) && key.prefix === prefix) match = given.toString("hex");
    return match;
  }
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
