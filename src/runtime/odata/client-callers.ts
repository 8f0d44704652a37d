import type { ODataCaller } from "./caller.js";

/**
 * Each OData client's caller, for the calls that live outside the client: `@fmgen/runtime/metadata` (the `$metadata`
 * document, which only tools such as fmgen pull read) reaches a client's caller through here, so that an app that never
 * imports it never loads it.
 */
const callers = new WeakMap<object, ODataCaller>();

export function registerCaller(client: object, caller: ODataCaller): void {
  callers.set(client, caller);
}

export function callerOf(client: object): ODataCaller {
  const found = callers.get(client);
  if (!found) throw new TypeError("expected a client made by createODataClient of @fmgen/runtime/odata");
  return found;
}
