import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { createODataClient, type ODataClient } from "../../../src/runtime/odata/index.js";
import { listenLoopback, type LoopbackServer } from "../../support/loopback-server.js";
import { Audit, Contacts, PASSWORD, startOffice, USER } from "./support.js";

// What the client asks the server for: `Accept: application/json;odata.metadata=none`, so that answers come without
// `@context` and the per-row `@id` + `@editLink` the client never reads (a third of a list page's bytes), while
// `@odata.count` and `@odata.nextLink` still come and are read. A recording proxy between the client and the emulator.

let emu: RunningEmulator;
let proxy: LoopbackServer;
let od: ODataClient<"Office">;
const seen: { accept: string | undefined; body: string }[] = [];

beforeAll(async () => {
  emu = await startOffice({}, 7);
  const target = new URL(emu.url);
  proxy = await listenLoopback((req, res) => {
    const out = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, timeout: 10_000 }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (c: Buffer) => chunks.push(c));
      answer.on("end", () => {
        const body = Buffer.concat(chunks);
        seen.push({ accept: req.headers.accept, body: body.toString("utf8") });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(body);
      });
    });
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  od = createODataClient({ server: proxy.url, database: "Office", auth: { username: USER, password: PASSWORD }, timeoutMs: 10_000 });
});
afterAll(async () => {
  await od?.close();
  await proxy?.close();
  await emu?.close();
});

it("asks for no metadata annotations, and still reads the count and every page", async () => {
  seen.length = 0;
  const listed = await od.table(Audit).list({ select: ["N"], count: true });
  expect(listed.count).toBe(7);
  expect(listed.value).toHaveLength(7);
  const paged: unknown[] = [];
  for await (const row of od.table(Audit).all({ pageSize: 3, select: ["N"] })) paged.push(row);
  expect(paged).toHaveLength(7);
  const [first] = (await od.table(Contacts).list({ top: 1 })).value;
  expect(first).toBeDefined();
  expect(seen.length).toBeGreaterThanOrEqual(5);
  for (const { accept, body } of seen) {
    expect(accept).toBe("application/json;odata.metadata=none");
    expect(body).not.toMatch(/"@(odata\.)?(context|id|editLink)"/);
  }
  expect(seen[0]!.body).toMatch(/"@odata\.count":7/);
});
