/**
 * The client of one database (`ODataClient`), over a caller: `table()` and `count()` here; batches, scripts, schema
 * changes, webhooks and containers are given by the modules that implement them (ClientParts), so that this module
 * stays the core every app loads.
 */
import type { CommonODataClientOptions, ODataClient, TableClient } from "./api.js";
import type { ODataCaller } from "./caller.js";
import type { Carrier } from "../core/carrier.js";
import { makeCaller } from "./client-caller.js";
import { registerCaller } from "./client-callers.js";
import type { AnyTable } from "./definition.js";
import { tableClient, type TableClientParts } from "./table-client.js";

/** The calls other modules implement (batch, scripts, schema, webhooks, containers), each made from the caller. */
export interface ClientParts<Db extends string> {
  batch: (caller: ODataCaller) => ODataClient<Db>["batch"];
  runScript: (caller: ODataCaller) => ODataClient<Db>["runScript"];
  schema: (caller: ODataCaller) => ODataClient<Db>["schema"];
  webhooks: (caller: ODataCaller) => ODataClient<Db>["webhooks"];
  tables: (caller: ODataCaller) => TableClientParts;
}

export function clientOver<Db extends string>(options: CommonODataClientOptions<Db>, carrier: Carrier, parts: ClientParts<Db>): ODataClient<Db> {
  const caller = makeCaller(options, carrier);
  const tableParts = parts.tables(caller);
  const tables = new WeakMap<AnyTable, TableClient<AnyTable>>();
  const table = (definition: AnyTable): TableClient<AnyTable> => {
    let found = tables.get(definition);
    if (!found) tables.set(definition, (found = tableClient(caller, definition, tableParts) as never));
    return found;
  };
  const client: ODataClient<Db> = {
    database: options.database,
    // The parameters' types add a compile-time check (TableOfClient) that nothing here needs: the caller checks the
    // table's database again when it builds the request.
    table: table as ODataClient<Db>["table"],
    count: ((definition: AnyTable, countOptions?: object) => table(definition).count(countOptions)) as ODataClient<Db>["count"],
    batch: parts.batch(caller),
    runScript: parts.runScript(caller),
    schema: parts.schema(caller),
    webhooks: parts.webhooks(caller),
    close: () => carrier.close(),
  };
  registerCaller(client, caller);
  return client;
}
