// The streaming clients of test/bench/odata.bench.mjs (run in its --stream-worker child): each hands every row of
// the table to `onRow`, one after another, and keeps no row itself.
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { basic } from "./clients.mjs";
import { DATABASE, PASSWORD, tableSpec, USERNAME } from "./table.mjs";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/**
 * The floor: undici `request()` per page, `$orderby="id"&$top=page&$skip=k` (the pages fmgen's `all()` asks for),
 * until a short page; `accept` as rawClient's (clients.mjs).
 */
export function rawStream(url, table, page, accept = "application/json;odata.metadata=none") {
  const { Agent, request } = createRequire(join(ROOT, "package.json"))("undici");
  const agent = new Agent({ keepAliveTimeout: 60_000 });
  const headers = { authorization: basic, accept };
  return {
    async stream(onRow) {
      for (let skip = 0; ; skip += page) {
        const res = await request(`${url}/fmi/odata/v4/${DATABASE}/${table}?$orderby=%22id%22&$top=${page}&$skip=${skip}`, { dispatcher: agent, headers });
        if (res.statusCode !== 200) throw new Error(`raw page at ${skip}: HTTP ${res.statusCode}: ${(await res.body.text()).slice(0, 300)}`);
        const { value } = await res.body.json();
        for (const row of value) onRow(row);
        if (value.length < page) return;
      }
    },
    close: () => agent.close(),
  };
}

/** fmgen: `for await (const row of od.table(T).all({ pageSize }))`. */
export async function fmgenStream(url, table, page) {
  const { createODataClient, defineTable } = await import(pathToFileURL(join(ROOT, "packages/runtime/dist/odata/index.js")).href);
  if (typeof createODataClient !== "function") throw new Error("@fmgen/runtime/odata exports no createODataClient yet");
  const od = createODataClient({ server: url, database: DATABASE, auth: { username: USERNAME, password: PASSWORD } });
  const rows = od.table(defineTable()(tableSpec(table)));
  return {
    async stream(onRow) {
      for await (const row of rows.all({ pageSize: page })) onRow(row);
    },
    close: () => od.close(),
  };
}
