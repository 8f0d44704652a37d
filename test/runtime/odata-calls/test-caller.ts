// PROVISIONAL: a minimal ODataCaller over fetch until the core's createODataClient is merged.
import type { ODataAnswer, ODataCaller, ODataRequest } from "../../../src/runtime/odata/caller.js";
import { checkTableDatabase, type TableSpec } from "../../../src/runtime/odata/definition.js";
import { fieldRefs } from "../../../src/runtime/odata/field-refs.js";

export function testCaller(server: string, database: string, auth: string): ODataCaller {
  const base = `${server}/fmi/odata/v4/${encodeURIComponent(database)}`;
  const send = async (r: ODataRequest) => {
    const res = await fetch(`${base}${r.path}${r.query ? `?${r.query}` : ""}`, { method: r.method, headers: { Authorization: auth, ...r.headers }, ...(r.body !== undefined && { body: r.body as never }), signal: r.signal ?? AbortSignal.timeout(10_000) });
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => (headers[k] = v));
    return { res, headers };
  };
  return {
    database,
    entityIds: false,
    async call(r) {
      const { res, headers } = await send(r);
      const bytes = new Uint8Array(await res.arrayBuffer());
      const text = () => new TextDecoder().decode(bytes);
      if (res.status >= 400) {
        const e = JSON.parse(text()).error;
        throw Object.assign(new Error(`${r.method} ${r.path}: ${e.code} ${e.message}`), { code: e.code, httpStatus: res.status });
      }
      return { status: res.status, headers, bytes, text, json: () => JSON.parse(text()) } satisfies ODataAnswer;
    },
    async open(r) {
      const { res, headers } = await send(r);
      if (res.status >= 400) throw Object.assign(new Error(await res.text()), { httpStatus: res.status });
      return { status: res.status, headers, body: res.body! };
    },
    tablePath(table: TableSpec) {
      checkTableDatabase(table, database);
      return `/${encodeURIComponent(table.table)}`;
    },
    refs: (table) => fieldRefs(table, false),
    encodeRow: (_t, values) => JSON.stringify(values),
    decodeRow: (_t, row) => Object.fromEntries(Object.entries(row as object).filter(([k]) => !k.startsWith("@"))),
  };
}
