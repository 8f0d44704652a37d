import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import { chromiumSkipReason, findChromium } from "../support/chromium.js";
import { listenLoopback, type LoopbackServer } from "../support/loopback-server.js";

// The inspector (docs/inspector.md) in a real headless Chromium (Debian's package, driven by playwright-core, which
// downloads no browser), as test/webviewer/chromium.test.ts runs it: the emulator runs here, in process, on
// 127.0.0.1; a record is created through the Data API and one through OData, then the page is opened. It must show
// both records and the requests that created them with their codes, show a request made after it loaded (it polls),
// show a webhook registered over OData and its delivery (to a receiver on 127.0.0.1) made after it loaded, and
// nowhere hold a secret (the webhook's header value and its URL's token included). Screenshots go to test/inspector/screenshots/ (ignored by git). Without chromium it is
// skipped with a message, unless FMGEN_REQUIRE_CHROMIUM=1 (.ci/run sets it).

const SKIP = chromiumSkipReason();
if (SKIP) console.warn(SKIP);

const SHOTS = fileURLToPath(new URL("./screenshots/", import.meta.url));
const LAYOUTS = fileURLToPath(new URL("../../examples/contacts/layouts", import.meta.url));
const SEED = fileURLToPath(new URL("../../examples/contacts/seed.json", import.meta.url));

/** Every bound of the test, so that it stops by itself: launching, loading the page, waiting for what it shows. */
const LAUNCH_MS = 10_000;
const PAGE_MS = 5_000;
const SHOWN_MS = 10_000;

const USER = "browser-user";
const PASSWORD = "Br0wser-Pa55-2727";
const DATA_SOURCE_PASSWORD = "ds-browser-pass-3838";
const BASIC = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`;
const V = "/fmi/data/vLatest";
const RECORDS = `${V}/databases/Contacts/layouts/Contacts%20Web/records`;
const HOOK_HEADER_SECRET = "hook-browser-header-5959";
const HOOK_URL_SECRET = "hook-browser-token-6060";

async function post(url: string, path: string, headers: Record<string, string>, body: unknown): Promise<any> {
  const res = await fetch(`${url}${path}`, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Waits (bounded) until the page's text holds every one of `texts` in one row of the table `tableId`. */
async function rowShown(page: Page, tableId: string, texts: string[]): Promise<void> {
  await page.waitForFunction(
    ([id, wanted]) => {
      const rows: any[] = [...((globalThis as any).document.getElementById(id)?.querySelectorAll("tbody tr") ?? [])];
      return rows.some((tr) => (wanted as string[]).every((t) => [...tr.querySelectorAll("td")].some((td: any) => td.textContent === t)));
    },
    [tableId, texts] as const,
    { timeout: SHOWN_MS },
  );
}

describe.skipIf(SKIP !== undefined)("the inspector in headless Chromium", () => {
  it("shows the records and the requests that made them, live, and no secret", { timeout: 60_000 }, async () => {
    const executablePath = findChromium();
    if (executablePath === undefined) throw new Error("chromium is not on the PATH, and FMGEN_REQUIRE_CHROMIUM=1 requires it (apt-get install chromium)");
    mkdirSync(SHOTS, { recursive: true });
    let emulator: RunningEmulator | undefined;
    let browser: Browser | undefined;
    let receiver: LoopbackServer | undefined;
    const log: string[] = [];
    try {
      let delivered = 0;
      receiver = await listenLoopback((req, res) => {
        req.resume();
        req.on("end", () => {
          delivered++;
          res.end("ok");
        });
      });
      emulator = await startEmulator({ host: "127.0.0.1", port: 0, layouts: [LAYOUTS], data: SEED, accounts: [{ username: USER, password: PASSWORD }], log: () => undefined });
      const url = emulator.url;
      const login = await post(url, `${V}/databases/Contacts/sessions`, { Authorization: BASIC }, { fmDataSource: [{ database: "Other", username: "x", password: DATA_SOURCE_PASSWORD }] });
      const token = login.response.token as string;
      const created = await post(url, RECORDS, { Authorization: `Bearer ${token}` }, { fieldData: { "First Name": "Dataapi", "Last Name": "Browserperson" } });
      expect(created.messages[0].code).toBe("0");
      const inserted = await post(url, "/fmi/odata/v4/Contacts/Contacts", { Authorization: BASIC }, { "First Name": "Odata", "Last Name": "Browserperson" });
      expect(inserted["First Name"]).toBe("Odata");
      const hook = await post(url, "/fmi/odata/v4/Contacts/Webhook.Add", { Authorization: BASIC }, { webhook: `${receiver.url}/hook?token=${HOOK_URL_SECRET}`, tableName: "Contacts", endpointHeaders: { "X-Hook-Secret": HOOK_HEADER_SECRET } });
      expect(hook.webhookResult.webhookID).toBe(1);

      browser = await chromium.launch({ executablePath, headless: true, timeout: LAUNCH_MS, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      page.setDefaultTimeout(PAGE_MS);
      page.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning") log.push(`console.${message.type()}: ${message.text()}`);
      });
      page.on("pageerror", (error) => log.push(`page error: ${error.message}`));
      page.on("requestfailed", (request) => log.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText})`));
      // Whatever the page asks for must be the emulator's own: nothing from another origin.
      const foreign: string[] = [];
      page.on("request", (request) => {
        if (!request.url().startsWith(`${url}/`) && !request.url().startsWith("data:")) foreign.push(request.url());
      });

      await page.goto(`${url}/fmgen/`, { waitUntil: "load", timeout: PAGE_MS });
      await page.waitForSelector("body[data-ready=true]", { timeout: SHOWN_MS });

      // Both records, in the records of the first layout.
      await rowShown(page, "record-table", ["Dataapi", "Browserperson"]);
      await rowShown(page, "record-table", ["Odata", "Browserperson"]);
      // The requests that made them, with their status and code.
      await rowShown(page, "log-table", ["Data API", "POST", RECORDS, USER, "200", "0"]);
      await rowShown(page, "log-table", ["OData", "POST", "/fmi/odata/v4/Contacts/Contacts", USER, "201", "0"]);
      await page.screenshot({ path: `${SHOTS}inspector.png`, fullPage: true });

      // A request made after the page loaded appears without reloading, with its code (101: no such record).
      const missing = await fetch(`${url}${RECORDS}/424242`, { headers: { Authorization: `Bearer ${token}` } });
      expect(((await missing.json()) as any).messages[0].code).toBe("101");
      await rowShown(page, "log-table", ["Data API", "GET", `${RECORDS}/424242`, USER, String(missing.status), "101"]);

      // The webhook, and its delivery of a record created after the page loaded: URL token and header value removed.
      await page.waitForSelector('#webhook-list [data-hook="Contacts/1"]', { timeout: SHOWN_MS });
      const registered = (await page.textContent('#webhook-list [data-hook="Contacts/1"]')) ?? "";
      expect(registered).toContain(`${receiver.url}/hook?token=[removed]`);
      expect(registered).toContain("X-Hook-Secret (values removed)");
      expect(await page.textContent("#delivery-empty")).toBe("no delivery yet");
      await post(url, "/fmi/odata/v4/Contacts/Contacts", { Authorization: BASIC }, { "First Name": "Hooked", "Last Name": "Browserperson" });
      await rowShown(page, "delivery-table", ["Contacts · 1", "Contacts", "ADD · 1", `${receiver.url}/hook?token=[removed]`, "delivered · HTTP 200", "1"]);
      expect(delivered).toBe(1);
      expect(await page.isVisible("#delivery-empty")).toBe(false);
      await page.screenshot({ path: `${SHOTS}inspector-webhooks.png`, fullPage: true });

      // A record's detail (its portal) and the login's detail (its bodies and headers, secrets removed).
      await page.click('#record-table tbody tr[data-record="1"]');
      await page.waitForSelector("#record-1", { timeout: SHOWN_MS });
      expect(await page.textContent("#record-1")).toMatch(/Portal Invoices \(Invoices\): 2 row/);
      await page.click('#log-table tbody tr[data-request="1"]');
      await page.waitForSelector("#request-1", { timeout: SHOWN_MS });
      const detail = (await page.textContent("#request-1")) ?? "";
      expect(detail).toContain("Basic [removed]");
      expect(detail).toContain('"password": "[removed]"');
      expect(detail).toContain('"token": "[removed]"');
      await page.screenshot({ path: `${SHOTS}inspector-details.png`, fullPage: true });

      // A search that finds one of the two.
      await page.fill("#search-text", "odata");
      await page.click("#search button[type=submit]");
      await page.waitForFunction(() => (globalThis as any).document.getElementById("page-info")?.textContent?.startsWith("1–1 of 1"), undefined, { timeout: SHOWN_MS });
      await rowShown(page, "record-table", ["Odata", "Browserperson"]);

      // No secret anywhere in the page: its text and its HTML.
      const text: string = await page.evaluate(() => (globalThis as any).document.body.innerText);
      const html = await page.content();
      const basicValue = BASIC.slice("Basic ".length);
      for (const [name, secret] of Object.entries({ PASSWORD, token, basicValue, DATA_SOURCE_PASSWORD, HOOK_HEADER_SECRET, HOOK_URL_SECRET })) {
        expect(text.includes(secret), `${name} in the page's text`).toBe(false);
        expect(html.includes(secret), `${name} in the page's HTML`).toBe(false);
      }
      expect(foreign).toEqual([]);
      expect(log, log.join("\n")).toEqual([]);
    } finally {
      await browser?.close().catch(() => undefined);
      await emulator?.close();
      await receiver?.close();
    }
  });
});
