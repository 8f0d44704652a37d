import type { Dispatcher } from "undici";
import type { ClientOptions } from "../../src/runtime/index.js";

/**
 * Which entry of the runtime this test run goes through: "node" (index.ts, undici's dispatcher) or "fetch"
 * (fetch.ts, global fetch), as vitest.config.ts's project sets it. Tests of what only one transport has read it.
 */
export const RUNTIME_ENTRY: "node" | "fetch" = process.env.FMGEN_RUNTIME_ENTRY === "fetch" ? "fetch" : "node";

/**
 * The client option that replaces how requests travel, for the entry under test: an undici dispatcher (Node) or
 * a `fetch` function (fetch.ts's `ClientOptions`; typed here as the Node entry's, which the tests compile against).
 */
export function transportOption(choices: { dispatcher: () => Dispatcher; fetch: () => typeof fetch }): Partial<ClientOptions> {
  return RUNTIME_ENTRY === "node" ? { dispatcher: choices.dispatcher() } : ({ fetch: choices.fetch() } as Partial<ClientOptions>);
}
