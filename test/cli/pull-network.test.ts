import { createServer } from "node:net";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { copyExample, memoryIo } from "../pull/helpers.js";
import { tableProject } from "../pull/odata-support.js";

// Both pulls tell a server they cannot reach in one vocabulary: "cannot reach <server>: <why>", the why being the
// connection's own code and words (ECONNREFUSED, ENOTFOUND...) or the time waited, never the wording of one HTTP stack
// ("bad port") in one pull and of another in the other.

/** A port nothing listens on: one the system gave out and took back. */
let closed: number;
beforeAll(async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closed = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let layoutRoot: string;
let tableRoot: string;
beforeAll(async () => {
  layoutRoot = await copyExample("contacts");
  tableRoot = await tableProject();
});

async function pull(odata: boolean, server: string): Promise<{ code: number; err: string }> {
  const io = memoryIo();
  const root = odata ? tableRoot : layoutRoot;
  const code = await run(["pull", ...(odata ? ["--odata"] : []), "--config", join(root, "fmgen.config.json"), "--server", server], io);
  return { code, err: io.err.join("\n") };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe.each([
  ["the layout pull", false],
  ["the OData pull", true],
])("%s", (_what, odata) => {
  it.each([
    ["a port nothing listens on", () => `http://127.0.0.1:${closed}`, "ECONNREFUSED"],
    ["port 9, which fetch's bad-port list holds", () => "http://127.0.0.1:9", "ECONNREFUSED"],
  ])("%s: cannot reach it, ECONNREFUSED", async (_name, server, code) => {
    const { code: exit, err } = await pull(odata, server());
    expect(exit).toBe(1);
    expect(err).toMatch(new RegExp(`^fmgen: cannot reach ${escape(server())}(/\\S*)?: connection refused \\(${code}\\)$`));
    expect(err).not.toMatch(/bad port/);
  });
});

