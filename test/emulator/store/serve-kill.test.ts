import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { startBuiltServe, stopAllServes, type BuiltServe } from "../../support/built-serve.js";

// docs/emulator.md, "Hosted files that persist", durability: `fmgen serve --data-dir` (the built CLI) killed with
// SIGKILL at seeded random moments while 8 clients create records; after each kill it starts again from the folder and
// holds every record whose create was answered, with its values. Bounded: KILLS rounds, each at most 900 ms of writing
// and every wait with a timeout.

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const LAYOUTS = join(ROOT, "examples/contacts/layouts");
const SEED = join(ROOT, "examples/contacts/seed.json");
const KILLS = 6;
const CLIENTS = 8;
const BASIC = `Basic ${Buffer.from("web:secret").toString("base64")}`;
const RECORDS = "/fmi/data/vLatest/databases/Contacts/layouts/Contacts%20Web/records";

const dirs: string[] = [];
afterAll(async () => {
  stopAllServes();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function serve(dataDir: string, seed = SEED): Promise<BuiltServe> {
  return startBuiltServe(["--layouts", LAYOUTS, "--data", seed, "--data-dir", dataDir, "--no-inspector"]);
}

async function token(url: string): Promise<string> {
  const res = await fetch(`${url}/fmi/data/vLatest/databases/Contacts/sessions`, { method: "POST", headers: { Authorization: BASIC, "Content-Type": "application/json" }, body: "{}" });
  return ((await res.json()) as { response: { token: string } }).response.token;
}

describe("fmgen serve --data-dir, killed while clients write", () => {
  it("holds every answered create after each restart, and opens the folder every time", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fmgen-serve-kill-"));
    dirs.push(dir);
    const answered = new Map<string, string>();
    let seed = 36;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let n = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      const served = await serve(dir);
      const { url } = served;
      const bearer = { Authorization: `Bearer ${await token(url)}`, "Content-Type": "application/json" };
      // Every record answered so far is there, with its values.
      const res = await fetch(`${url}${RECORDS}?_limit=100000`, { headers: bearer });
      const held = new Map(((await res.json()) as { response: { data: { recordId: string; fieldData: Record<string, unknown> }[] } }).response.data.map((r) => [r.recordId, r.fieldData["First Name"]]));
      const lost = [...answered].filter(([recordId, name]) => held.get(recordId) !== name);
      expect(lost, `kill ${kill}: answered but lost`).toEqual([]);
      let stopped = false;
      const client = async () => {
        while (!stopped) {
          const name = `Writer ${++n}`;
          try {
            const res = await fetch(`${url}${RECORDS}`, { method: "POST", headers: bearer, body: JSON.stringify({ fieldData: { "First Name": name, Status: "Active" } }) });
            const body = (await res.json()) as { response: { recordId?: string } };
            if (res.status === 200 && body.response.recordId) answered.set(body.response.recordId, name);
          } catch {
            // The connection died with the process: this create was not answered.
            return;
          }
        }
      };
      const writers = Array.from({ length: CLIENTS }, client);
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.floor(random() * 800)));
      const exited = served.stop("SIGKILL");
      stopped = true;
      await exited;
      await Promise.all(writers);
    }
    expect(answered.size).toBeGreaterThan(KILLS * CLIENTS);
    // A last start: everything is still there.
    const last = await serve(dir);
    const { url } = last;
    const bearer = { Authorization: `Bearer ${await token(url)}` };
    const res = await fetch(`${url}${RECORDS}?_limit=1`, { headers: bearer });
    const total = ((await res.json()) as { response: { dataInfo: { totalRecordCount: number } } }).response.dataInfo.totalRecordCount;
    expect(total).toBeGreaterThanOrEqual(answered.size);
    await last.stop("SIGKILL");
  });

  it("holds an answered Webhook.Add and Webhook.Delete after a SIGKILL", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fmgen-serve-kill-hooks-"));
    dirs.push(dir);
    const hooks = "/fmi/odata/v4/Contacts";
    // An account OData signs in (the example's has the Data API's privilege only).
    const seed = `${dir}-seed.json`;
    await writeFile(seed, JSON.stringify({ accounts: [{ username: "web", password: "secret", privileges: ["fmrest", "fmodata"] }] }));
    dirs.push(seed);
    const post = (url: string, path: string, body?: unknown) =>
      fetch(`${url}${hooks}/${path}`, { method: "POST", headers: { Authorization: BASIC, ...(body === undefined ? {} : { "Content-Type": "application/json" }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    let served = await serve(dir, seed);
    let { url } = served;
    const ids: number[] = [];
    for (const path of ["/one", "/two"]) {
      const res = await post(url, "Webhook.Add", { webhook: `http://127.0.0.1:9${path}`, tableName: "Contacts", endpointHeaders: { "X-Secret": "kept-on-disk" } });
      expect(res.status).toBe(200);
      ids.push(((await res.json()) as { webhookResult: { webhookID: number } }).webhookResult.webhookID);
    }
    // Killed right after the answers: nothing was closed or flushed.
    await served.stop("SIGKILL");
    served = await serve(dir, seed);
    ({ url } = served);
    const all = async () => ((await (await fetch(`${url}${hooks}/Webhook.GetAll`, { headers: { Authorization: BASIC } })).json()) as { webhooks: { webhookID: number; headers: object }[] }).webhooks;
    expect((await all()).map((h) => [h.webhookID, h.headers])).toEqual(ids.map((id) => [id, { "X-Secret": "kept-on-disk" }]));
    expect((await post(url, `Webhook.Delete(${ids[0]})`)).status).toBe(200);
    await served.stop("SIGKILL");
    served = await serve(dir, seed);
    ({ url } = served);
    expect((await all()).map((h) => h.webhookID)).toEqual([ids[1]]);
    await served.stop("SIGKILL");
  });
});
