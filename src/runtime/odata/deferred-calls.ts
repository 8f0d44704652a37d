/**
 * The client's members that most apps never call, each loading its module on first use (a dynamic import, as the Data
 * API's deferred calls do; scripts/runtime-size.mjs budgets each): `od.batch`, `od.runScript`, `od.schema.*`,
 * `od.webhooks.*`, and a table's `upload` and `download`. The client (client.ts) spreads these into its objects.
 */
import type { ODataClient, TableClient } from "./api.js";
import type { ODataCaller } from "./caller.js";
import type { AnyTable } from "./definition.js";
import type { SchemaCalls } from "./schema-types.js";
import type { WebhookCalls } from "./webhook-types.js";

/** An object of async calls whose implementation is loaded (once) on the first call of any of them. */
function deferred<T extends object>(names: readonly (keyof T & string)[], load: () => Promise<T>): T {
  let loaded: Promise<T> | undefined;
  const calls = {} as Record<string, unknown>;
  for (const name of names) {
    calls[name] = async (...args: unknown[]) => {
      loaded ??= load();
      const impl = (await loaded) as Record<string, (...a: unknown[]) => unknown>;
      return impl[name]!(...args);
    };
  }
  return Object.freeze(calls) as T;
}

export function clientCalls(caller: ODataCaller): Pick<ODataClient, "batch" | "runScript" | "schema" | "webhooks"> {
  return {
    batch: (async (build: never, options?: never) => (await import("./batch.js")).runBatch(caller, build, options)) as ODataClient["batch"],
    runScript: async (name, options) => (await import("./scripts.js")).runScript(caller, name, options),
    schema: deferred<SchemaCalls>(["createTable", "addFields", "deleteTable", "deleteField", "createIndex", "deleteIndex"], async () => (await import("./schema.js")).schemaCalls(caller)),
    webhooks: deferred<WebhookCalls<string>>(["add", "list", "get", "remove", "invoke"], async () => (await import("./webhooks.js")).webhookCalls(caller)),
  };
}

export function containerCalls<D extends AnyTable>(caller: ODataCaller, definition: D): Pick<TableClient<D>, "upload" | "download"> {
  return {
    upload: async (row, field, data, options) => (await import("./containers.js")).uploadContainer(caller, definition, row, field, data, options),
    download: async (row, field, options) => (await import("./containers.js")).downloadContainer(caller, definition, row, field, options),
  };
}
