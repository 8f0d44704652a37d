/**
 * The client's members that most apps never call, each loading its module on first use (a dynamic import, as the Data
 * API's deferred calls do; scripts/runtime-size.mjs budgets each): `od.batch`, `od.runScript`, `od.schema.*`,
 * `od.webhooks.*`, and a table's `upload` and `download`. Both entries hand these parts to clientOver (client.ts).
 */
import type { ODataClient } from "./api.js";
import type { ClientParts } from "./client.js";
import type { SchemaCalls } from "./schema-types.js";
import type { WebhookCalls } from "./webhook-types.js";

/** An object of async calls whose implementation is loaded (once) on the first call of any of them. */
function deferred<T extends object>(names: readonly (keyof T & string)[], load: () => Promise<T>): T {
  let loaded: Promise<T> | undefined;
  const calls: Record<string, unknown> = {};
  for (const name of names) {
    calls[name] = async (...args: unknown[]) => ((await (loaded ??= load())) as Record<string, (...a: unknown[]) => unknown>)[name]!(...args);
  }
  return Object.freeze(calls) as T;
}

// Typed for any database: the client types the members by its own; the calls check each table's database at run time.
export const deferredParts: ClientParts<any> = {
  // The module's promise kept: a batch is often called in a loop, and import() looks the module up again each time.
  batch: (caller) => {
    let loaded: Promise<typeof import("./batch.js")> | undefined;
    return (async (build: never, options?: never) => (await (loaded ??= import("./batch.js"))).runBatch(caller, build, options)) as ODataClient["batch"];
  },
  runScript: (caller) => async (name, options) => (await import("./scripts.js")).runScript(caller, name, options),
  schema: (caller) => deferred<SchemaCalls>(["createTable", "addFields", "deleteTable", "deleteField", "createIndex", "deleteIndex"], async () => (await import("./schema.js")).schemaCalls(caller)),
  webhooks: (caller) => deferred<WebhookCalls<string>>(["add", "list", "get", "remove", "invoke"], async () => (await import("./webhooks.js")).webhookCalls(caller)),
  tables: (caller) => ({
    upload: async (table, row, field, data, options) => (await import("./containers.js")).uploadContainer(caller, table, row, field, data, options),
    download: async (table, row, field, options) => (await import("./containers.js")).downloadContainer(caller, table, row, field, options),
  }),
};
