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

export function callerOf(client: unknown, where: string): ODataCaller {
  const found = callers.get(client as object);
  if (!found) throw new TypeError(`${where} must be a client made by createODataClient of @fmgen/runtime/odata`);
  return found;
}
