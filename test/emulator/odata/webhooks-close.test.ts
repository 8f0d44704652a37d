import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { listenLoopback } from "../../support/loopback-server.js";
import { auth, DB, startOffice } from "./serve-support.js";
import { Receiver, sleep, until } from "./webhook-receiver.js";

// A closed emulator stops its webhooks' deliveries: no retry timer fires, an attempt under way is cut, and nothing
// keeps the process alive (docs/emulator.md "Webhooks").

const S = `/fmi/odata/v4/${DB}`;

async function post(url: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${url}${path}`, { method: "POST", headers: { Authorization: auth(), "Content-Type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return res.json();
}

describe("closing the emulator stops webhook deliveries", () => {
  it("no retry after close; an attempt under way is cut", async () => {
    const failing = await Receiver.start([500]);
    // A receiver that never answers: the attempt waits until cut.
    let arrived = 0;
    let cut = 0;
    const hanging = await listenLoopback((req) => {
      arrived++;
      req.socket.on("close", () => cut++);
    });
    const emu = await startOffice(2, { webhooks: { retryDelayMs: 40, maxRetryDelayMs: 40, timeoutMs: 60_000 } });
    try {
      await post(emu.url, `${S}/Webhook.Add`, { webhook: failing.url, tableName: "Notes" });
      await post(emu.url, `${S}/Webhook.Add`, { webhook: `${hanging.url}/`, tableName: "Notes" });
      await post(emu.url, `${S}/Notes`, { Text: "x" });
      await failing.wait(2, 3_000);
      await until(() => arrived > 0, 3_000, () => "the attempt to the hanging receiver");
    } finally {
      await emu.close();
    }
    // An attempt whose bytes were already out when close() cut it may still land: let it, then count.
    await sleep(30);
    const attempts = failing.got.length;
    await sleep(200);
    expect(failing.got.length).toBe(attempts);
    await until(() => cut > 0, 2_000, () => "the hanging attempt to be cut");
    await failing.close();
    await hanging.close();
  });

  it("a process whose emulator closed with deliveries waiting exits by itself", async () => {
    // The built emulator (npm run build), in a child process with a receiver that always fails and a 30 s retry.
    const emulator = new URL("../../../dist/emulator/index.js", import.meta.url).href;
    const script = `
      import { createServer, request } from "node:http";
      import { startEmulator } from ${JSON.stringify(emulator)};
      let hits = 0;
      const receiver = createServer((req, res) => { hits++; req.resume(); res.writeHead(500); res.end(); });
      await new Promise((r) => receiver.listen(0, "127.0.0.1", r));
      const emu = await startEmulator({
        layouts: [{ database: "D", layout: "T", table: "T", fields: [{ name: "A", type: "text" }] }],
        data: { accounts: [{ username: "u", password: "p" }] },
        webhooks: { retryDelayMs: 30000, maxRetryDelayMs: 30000 },
      });
      const call = (path, body) => new Promise((resolve, reject) => {
        const req = request(emu.url + "/fmi/odata/v4/D/" + path, { method: "POST", agent: false, headers: { Authorization: ${JSON.stringify(auth("u", "p"))}, "Content-Type": "application/json" } }, (res) => { res.resume(); res.on("end", () => resolve(res.statusCode)); });
        req.on("error", reject);
        req.end(JSON.stringify(body));
      });
      console.log(await call("Webhook.Add", { webhook: "http://127.0.0.1:" + receiver.address().port + "/", tableName: "T" }));
      console.log(await call("T", { A: "x" }));
      while (hits === 0) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 50));
      await emu.close();
      receiver.close();
      console.log("closed after " + hits + " attempt(s)");
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    // Exits by itself, long before the 30 s retry: the watchdog below only ends a child that hangs (how soon it
    // exits is a budget of test/bench/bounds.bench.mjs).
    const code = await new Promise<number | null | "hung">((resolve) => {
      const timer = setTimeout(() => {
        child.kill();
        resolve("hung");
      }, 10_000);
      child.once("exit", (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(out).toContain("closed after 1 attempt(s)");
    expect(code, out).toBe(0);
  });
});
