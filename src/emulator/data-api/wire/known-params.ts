import { EmulatorError } from "../../hosted-file/fm-error.js";
import { readJsonObject } from "./body.js";
import { shorten } from "../../hosted-file/input/input-text.js";
import type { RequestContext } from "../routes.js";
import { unknownParameters } from "../../hosted-file/input/unknown-parameters.js";

/**
 * No parameter is silently ignored (docs/emulator.md, "The wider Data API of real servers"): each route lists the query
 * parameters and body keys it implements (its `accepts`: AcceptedNames, routes.ts), and any other name answers HTTP
 * 400, code 960, naming it (unknown-parameters.ts). A test that passes against the emulator must not pass because the
 * emulator skipped what the client asked for.
 */

/**
 * Refuses the query parameters the route does not implement (960), then any name given more than once (1708):
 * every query parameter is taken once, so no value of a repeated one is silently dropped. This is the one place
 * that rule lives; handlers read `ctx.query.get(name)`.
 */
export function checkQueryNames(ctx: RequestContext): void {
  const accepted = ctx.route.accepts;
  const unknown = new Set<string>();
  for (const name of ctx.query.keys()) {
    if (accepted.query?.includes(name) || accepted.dynamicQuery?.(name, ctx)) continue;
    unknown.add(name);
  }
  if (unknown.size > 0) throw unknownParameters([...unknown]);
  // One rule for every name (rule one: nothing silently read once): a name given twice is 1708.
  const seen = new Set<string>();
  for (const name of ctx.query.keys()) {
    if (seen.has(name)) throw new EmulatorError(400, "1708", `${shorten(name)} is given ${ctx.query.getAll(name).length} times; give it once`);
    seen.add(name);
  }
}

/** The request's JSON object body, refusing the keys the route does not implement. */
export async function readRequestBody(ctx: RequestContext, options: { emptyIsObject?: boolean } = {}): Promise<Record<string, unknown>> {
  const body = await readJsonObject(ctx.req, ctx.state.maxJsonBytes, options);
  const accepted = ctx.route.accepts;
  const unknown = Object.keys(body).filter((name) => !(accepted.body?.includes(name) || accepted.dynamicBody?.(name, ctx)));
  if (unknown.length > 0) throw unknownParameters(unknown);
  return body;
}
