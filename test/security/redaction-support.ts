import { inspect } from "node:util";
import { expect } from "vitest";

// What the redaction tests (echoed-secrets, short-secrets, long-secrets) share: the error a failing call rejects
// with, and every text that error shows.

/** The error `run` rejects with (it must reject, with an Error). */
export async function failure(run: () => Promise<unknown>): Promise<Error> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

/** Everything an error shows, through every door: its text, stack, inspect(), its own properties as JSON, each cause's. */
export function everythingIn(error: unknown): string {
  const parts: string[] = [inspect(error, { depth: 10 }), inspect(error, { depth: 10, showHidden: true })];
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 10; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof e !== "object" || e === null) {
      parts.push(String(e));
      continue;
    }
    parts.push(String(e), (e as Error).message, (e as Error).stack ?? "", JSON.stringify(Object.fromEntries(Reflect.ownKeys(e).map((k) => [String(k), (e as Record<PropertyKey, unknown>)[k]]))));
    for (const inner of (e as { errors?: unknown[] }).errors ?? []) parts.push(everythingIn(inner));
  }
  return parts.join("\n");
}
