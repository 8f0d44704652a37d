import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** The cookie real servers set on a container URL's first GET (docs/emulator.md, "11. Container URLs"). */
export const STREAMING_COOKIE = "X-FMS-Session-Key";

/** Past this many keys the oldest are forgotten, so cookie-less GETs cannot grow the emulator's memory without end. */
const MAX_KEYS = 10_000;

/**
 * Container downloads as real servers serve them: the first GET of a container URL answers 302 back to the same
 * URL with `Set-Cookie: X-FMS-Session-Key=...`, and only a GET carrying that cookie gets the file. A key is good for
 * every container URL of the database it was issued for, for the life of the emulator (or until MAX_KEYS newer
 * ones push it out). Keys are kept as SHA-256 digests.
 */
export class StreamingSessions {
  private readonly keys = new Map<string, string>();

  /** A new key for this database, for the `Set-Cookie` of a first GET. */
  issue(database: string): string {
    const key = randomBytes(16).toString("hex").toUpperCase();
    this.keys.set(digest(key), database);
    if (this.keys.size > MAX_KEYS) this.keys.delete(this.keys.keys().next().value!);
    return key;
  }

  /** True when the request's Cookie header carries a key issued for this database. */
  accepts(req: IncomingMessage, database: string): boolean {
    for (const part of (req.headers.cookie ?? "").split(";")) {
      const eq = part.indexOf("=");
      if (eq === -1 || part.slice(0, eq).trim() !== STREAMING_COOKIE) continue;
      if (this.keys.get(digest(part.slice(eq + 1).trim())) === database) return true;
    }
    return false;
  }
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
