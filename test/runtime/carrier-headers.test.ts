import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchCarrier } from "../../src/runtime/core/fetch-carrier.js";
import { undiciCarrier } from "../../src/runtime/core/undici-carrier.js";

// A server's header names become keys of the record a carrier answers with (both APIs' clients read it): a header named
// "__proto__" must stay a header, never change the record's prototype. A raw socket server sends one (Node's own
// http server would let it through too, but this way nothing between the test and the bytes has a say).

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((socket) => {
    socket.once("data", () => {
      socket.end("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n__proto__: from-server\r\nX-Other: 1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  url = `http://127.0.0.1:${address.port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const bounds = { timeoutMs: 5_000, maxResponseBytes: 1_000 };
const carriers = { undici: () => undiciCarrier(bounds), fetch: () => fetchCarrier(bounds) };

describe.each(Object.entries(carriers))("the %s carrier's answer headers", (_, make) => {
  it("keep a header named __proto__ as a header", async () => {
    const carrier = make();
    try {
      const answer = await carrier.send({ url, method: "GET", headers: {} }, { method: "GET", path: "/" }, (text) => text);
      expect(Object.hasOwn(answer.headers, "__proto__")).toBe(true);
      expect(answer.headers["__proto__"]).toBe("from-server");
      expect(Object.getPrototypeOf(answer.headers)).toBe(Object.prototype);
      expect(answer.headers["x-other"]).toBe("1");
    } finally {
      await carrier.close();
    }
  });
});
