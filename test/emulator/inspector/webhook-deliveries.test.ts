import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { DeliveryHistory, MAX_DELIVERIES } from "../../../src/emulator/odata/webhook-history.js";
import { redactBody, redactUrl } from "../../../src/emulator/inspector/redact.js";
import { BODY_BYTES } from "../../../src/emulator/http/request-log.js";
import { Receiver, sleep } from "../odata/webhook-receiver.js";
import { BASIC, call, inspector, ODATA, startInspected, wholeLog } from "./support.js";

// The inspector's webhooks (docs/inspector.md, "OData webhooks"): each registration next to its deliveries, every
// attempt kept in a bounded history (the last 200), with the webhook's header values and its URL's secrets removed
// from every /fmgen/ answer.

const HEADER_SECRET = "hook-header-secret-6262";
const API_KEY_SECRET = "hook-api-key-secret-7373";
const URL_SECRET = "hook-url-token-secret-8484";

let emu: RunningEmulator;
let ok: Receiver;
let failing: Receiver;
beforeAll(async () => {
  ok = await Receiver.start([200]);
  failing = await Receiver.start([500]);
  emu = await startInspected({ webhooks: { retryDelayMs: 10_000 } });
});
afterAll(async () => {
  await emu.close();
  await ok.close();
  await failing.close();
});

const addHook = async (body: object): Promise<number> => {
  const added = await call(emu.url, "POST", `${ODATA}/Webhook.Add`, { Authorization: BASIC }, body);
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  return added.body.webhookResult.webhookID;
};

describe("webhooks and their deliveries in the inspector", () => {
  it("lists each attempt, delivered or failed, and shows no planted secret in any /fmgen/ answer", async () => {
    const good = await addHook({ webhook: `${ok.url}/hook?token=${URL_SECRET}&plain=visible`, tableName: "Contacts", endpointHeaders: { Authorization: `Bearer ${HEADER_SECRET}`, "X-Api-Key": API_KEY_SECRET } });
    const bad = await addHook({ webhook: `${failing.url}/down?sig=${URL_SECRET}`, tableName: "Contacts", headers: { "X-Hook": HEADER_SECRET } });
    const created = await call(emu.url, "POST", `${ODATA}/Contacts`, { Authorization: BASIC }, { "First Name": "Hooked" });
    expect(created.status).toBe(201);
    await ok.wait(1);
    await failing.wait(1);
    // The receivers got the secrets: they are the webhook's to send.
    expect(ok.got[0]!.headers.authorization).toBe(`Bearer ${HEADER_SECRET}`);
    expect(ok.got[0]!.path).toContain(URL_SECRET);

    // An attempt is listed once it has ended (the receiver's answer came back).
    let history: any;
    const end = Date.now() + 5_000;
    for (;;) {
      history = await inspector(emu.url, "deliveries");
      if (history.entries.length >= 2 || Date.now() > end) break;
      await sleep(20);
    }
    expect(history.size).toBe(MAX_DELIVERIES);
    const byHook = (id: number) => history.entries.find((d: any) => d.webhookID === id);
    expect(byHook(good)).toMatchObject({ file: "Contacts", table: "Contacts", operation: "ADD", records: 1, delivered: true, status: 200, error: null, attempt: 1, url: `${ok.url}/hook?token=[removed]&plain=visible` });
    expect(byHook(bad)).toMatchObject({ delivered: false, status: 500, attempt: 1, url: `${failing.url}/down?sig=[removed]` });
    expect(byHook(bad).error).toMatch(/^HTTP 500/);
    expect(typeof byHook(good).ms).toBe("number");
    expect(Date.parse(byHook(good).at)).not.toBeNaN();
    // `after` gives only what is newer.
    const newest = Math.max(...history.entries.map((d: any) => d.id));
    expect((await inspector(emu.url, `deliveries?after=${newest}`)).entries).toEqual([]);

    const overview = await inspector(emu.url, "overview");
    const hooks = overview.files.find((f: any) => f.name === "Contacts").webhooks;
    expect(hooks.map((h: any) => [h.webhookID, h.webhook])).toEqual([
      [good, `${ok.url}/hook?token=[removed]&plain=visible`],
      [bad, `${failing.url}/down?sig=[removed]`],
    ]);
    expect(hooks[0].headers).toEqual({ Authorization: "[removed]", "X-Api-Key": "[removed]" });
    expect(hooks[1].pendingOperations[0]).toMatchObject({ operation: "ADD", sendAttempts: 1 });
    expect(overview.deliveries.total).toBeGreaterThanOrEqual(2);

    // Every /fmgen/ answer: the JSON endpoints, each logged request whole (Webhook.Add's body had the secrets), the page.
    const { text: log } = await wholeLog(emu.url);
    const texts = [JSON.stringify(overview), JSON.stringify(history), log];
    for (const path of ["/fmgen/", "/fmgen/inspector.js", "/fmgen/api/deliveries?after=0", "/fmgen/api/log"]) texts.push(await (await fetch(`${emu.url}${path}`)).text());
    const all = texts.join("\n");
    expect(all).toContain(`${ok.url}/hook`);
    for (const secret of [HEADER_SECRET, API_KEY_SECRET, URL_SECRET]) expect(all, secret).not.toContain(secret);
  });

  it("redacts a URL's secret parameters, user name, password and fragment, keeping the rest", () => {
    expect(redactUrl("http://127.0.0.1:9/a/b?x=1&api_key=s3&Signature=s4")).toBe("http://127.0.0.1:9/a/b?x=1&api_key=[removed]&Signature=[removed]");
    expect(redactUrl("https://user:pw@example.com/p#frag")).toBe("https://[removed]@example.com/p#[removed]");
    expect(redactUrl("not a url?token=t")).toBe("not a url?token=[removed]");
    // A Webhook.Add body cut at 4 KiB: its URL's secret parameters go by pattern.
    const cut = Buffer.from(`{"webhook":"http://127.0.0.1:9/h?token=${URL_SECRET}&a=1","select":"${"x".repeat(100)}`);
    const shown = redactBody({ type: "application/json", size: BODY_BYTES + 10, bytes: cut })!;
    expect(shown.text).toContain('"webhook":"http://127.0.0.1:9/h?token=[removed]&a=1"');
    expect(shown.text).not.toContain(URL_SECRET);
  });
});

describe("the delivery history", () => {
  it("keeps the last MAX_DELIVERIES attempts, the oldest dropped first", () => {
    const history = new DeliveryHistory();
    const attempt = (n: number) => ({ at: n, database: "F", webhookId: n, tableName: "T", operation: "ADD" as const, records: 1, url: "http://127.0.0.1:9/", delivered: true, status: 200, error: undefined, attempt: 1, ms: 1 });
    for (let n = 1; n <= MAX_DELIVERIES + 50; n++) history.add(attempt(n));
    const kept = history.since(0);
    expect(history.total).toBe(MAX_DELIVERIES + 50);
    expect(kept).toHaveLength(MAX_DELIVERIES);
    expect(kept[0]!.webhookId).toBe(51);
    expect(kept.at(-1)!.id).toBe(MAX_DELIVERIES + 50);
    expect(history.since(MAX_DELIVERIES + 48).map((d) => d.id)).toEqual([MAX_DELIVERIES + 49, MAX_DELIVERIES + 50]);
  });
});
