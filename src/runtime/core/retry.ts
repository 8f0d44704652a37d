import { NetworkError, ProtocolError, ResponseTooLargeError } from "./protocol-errors.js";
import { neverReachedServer } from "./call-bounds.js";

/** How a client retries what is safe to retry; `retry` options take any part of it. */
export interface RetryPolicy {
  /** Extra attempts after the first (default 3). */
  retries: number;
  /** First backoff in ms, doubled each attempt, with full jitter (default 100). */
  baseDelayMs: number;
  /** Ceiling of one backoff (default 2000). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 100, maxDelayMs: 2_000 };

/**
 * Runs `attempt` again after faults that are safe to retry: for reads, network faults and 5xx answers that
 * are not envelopes (a proxy's error page); for writes, only faults that never reached the server. A FileMaker
 * error is an answer, never retried here; neither is a caller's abort.
 */
export async function withRetry<T>(policy: RetryPolicy, idempotent: boolean, signal: AbortSignal | undefined, attempt: () => Promise<T>): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= policy.retries || signal?.aborted || !isRetryable(error, idempotent)) throw error;
      await pause(policy, tries, signal);
    }
  }
}

/** FileMaker codes that mean "too busy, nothing done": 812 exceeds host's capacity, 956 too many sessions. */
export const CAPACITY_CODES: ReadonlySet<string> = new Set(["812", "956"]);

/**
 * Sends again, after a backoff with full jitter, while the answer is a capacity code (812, 956), at most
 * `policy.retries` times. This holds for writes too: a server that answers 812 or 956 refused the request
 * before doing anything with it (it never reached the point of creating or changing a record), so sending
 * it again cannot apply it twice. Any other answer is returned as it is.
 */
export async function withCapacityRetry<T extends { code: string }>(policy: RetryPolicy, signal: AbortSignal | undefined, attempt: () => Promise<T>): Promise<T> {
  for (let tries = 0; ; tries++) {
    const answer = await attempt();
    if (!CAPACITY_CODES.has(answer.code) || tries >= policy.retries || signal?.aborted) return answer;
    await pause(policy, tries, signal);
  }
}

function isRetryable(error: unknown, idempotent: boolean): boolean {
  if (error instanceof NetworkError) {
    if (error.reason === "aborted") return false;
    return idempotent || neverReachedServer(error);
  }
  // A proxy's error page may pass; an answer too large would be as large again.
  if (error instanceof ProtocolError) return idempotent && error.httpStatus >= 500 && !(error instanceof ResponseTooLargeError);
  return false;
}

/** Waits out the backoff after `tries` failed attempts (cut short by an abort). */
function pause(policy: RetryPolicy, tries: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    // Full jitter: uniform in [0, min(max, base * 2^tries)].
    const timer = setTimeout(resolve, Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** tries));
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
