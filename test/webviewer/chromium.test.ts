import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium, type Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../src/emulator/index.js";
import { chromiumSkipReason, findChromium } from "../support/chromium.js";
import { STEPS, WEB_VIEWER, type PageReport, type StepResult } from "./page/steps.js";

// @fmgen/runtime/webviewer in a real headless Chromium (Debian's package, driven by playwright-core, which downloads
// no browser): the emulator runs here on 127.0.0.1 and serves its Web Viewer shim; a second loopback server, on
// another port as a dev server would be, serves a page that loads the shim cross-origin, then page/app.ts bundled by
// esbuild for the browser (the built runtime, packages/runtime/dist, and the contacts example's generated modules).
// The page runs the scenario and reports each step; the test expects each step, by name, to be ok. Needs
// `npm run build`. Without chromium it is skipped with a message, unless FMGEN_REQUIRE_CHROMIUM=1 (.ci/run sets it).

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const RUNTIME_ENTRY = fileURLToPath(new URL("../../packages/runtime/dist/webviewer.js", import.meta.url));
const ACCOUNT = "web";
const SKIP = chromiumSkipReason();
if (SKIP) console.warn(SKIP);

/** Every bound of the test, so that it stops by itself: launching, loading the page, the page's whole scenario. */
const LAUNCH_MS = 10_000;
const PAGE_MS = 5_000;
const SCENARIO_MS = 10_000;

/** page/app.ts for the browser: `@fmgen/runtime` and `@fmgen/runtime/webviewer` (the generated modules' and the page's) are the built webviewer entry. */
async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL("./page/app.ts", import.meta.url))],
    bundle: true,
    write: false,
    platform: "browser",
    format: "esm",
    conditions: ["browser"],
    target: "es2022",
    logLevel: "silent",
    absWorkingDir: ROOT,
    plugins: [
      {
        name: "fmgen-runtime",
        setup(b) {
          b.onResolve({ filter: /^@fmgen\/runtime(\/webviewer)?$/ }, () => ({ path: RUNTIME_ENTRY }));
        },
      },
    ],
  });
  return result.outputFiles[0]!.text;
}

/** The page's server, on 127.0.0.1 and a port of its own: the HTML (the shim first, then the app) and the bundle. */
async function servePage(emulatorUrl: string, app: string): Promise<{ server: Server; url: string }> {
  const shim = `${emulatorUrl}/fmgen/webviewer.js?account=${encodeURIComponent(ACCOUNT)}&webViewer=${encodeURIComponent(WEB_VIEWER)}`;
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>fmgen web viewer test</title><link rel="icon" href="data:,">
<script src="${shim}"></script>
<script type="module" src="/app.js"></script></head><body></body></html>`;
  const server = createServer((req, res) => {
    const [type, body] = req.url === "/" ? ["text/html; charset=utf-8", html] : req.url === "/app.js" ? ["text/javascript; charset=utf-8", app] : [undefined, "not found"];
    res.writeHead(type ? 200 : 404, { "Content-Type": type ?? "text/plain", "Cache-Control": "no-store" }).end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}/` };
}

/** Runs the page in Chromium: its steps as reported, and what the browser said besides (console errors, page errors, failed requests). */
async function runPage(executablePath: string, pageUrl: string): Promise<{ steps: StepResult[]; done: boolean; log: string[] }> {
  const log: string[] = [];
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath, headless: true, timeout: LAUNCH_MS, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
    const page = await browser.newPage();
    page.setDefaultTimeout(PAGE_MS);
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") log.push(`console.${message.type()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => log.push(`page error: ${error.message}`));
    page.on("requestfailed", (request) => log.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText})`));
    await page.goto(pageUrl, { waitUntil: "load", timeout: PAGE_MS });
    const done = await page
      .waitForFunction(() => (globalThis as PageReport).__done === true, undefined, { timeout: SCENARIO_MS })
      .then(() => true)
      .catch((error: Error) => {
        log.push(`the scenario did not finish: ${error.message.split("\n")[0]}`);
        return false;
      });
    const steps = await page.evaluate(() => (globalThis as PageReport).__steps ?? []);
    return { steps, done, log };
  } finally {
    await browser?.close().catch(() => undefined);
  }
}

describe.skipIf(SKIP !== undefined)("the Web Viewer client in headless Chromium", () => {
  it("runs the contacts scenario through the emulator's shim, each step reported by the page", { timeout: 40_000 }, async () => {
    const executablePath = findChromium();
    if (executablePath === undefined) throw new Error("chromium is not on the PATH, and FMGEN_REQUIRE_CHROMIUM=1 requires it (apt-get install chromium)");
    let emulator: RunningEmulator | undefined;
    let pageServer: Server | undefined;
    try {
      emulator = await startEmulator({
        host: "127.0.0.1",
        port: 0,
        layouts: [fileURLToPath(new URL("../../examples/contacts/layouts", import.meta.url))],
        data: fileURLToPath(new URL("../../examples/contacts/seed.json", import.meta.url)),
        scripts: { Greet: ({ param }) => `Hello, ${param}` },
        log: () => undefined,
      });
      const served = await servePage(emulator.url, await bundlePage());
      pageServer = served.server;
      const started = performance.now();
      const { steps, done, log } = await runPage(executablePath, served.url);
      const took = Math.round(performance.now() - started);
      console.log(`Chromium ran the page in ${took} ms:\n${steps.map((s) => `  ${s.ok ? "ok" : "FAILED"} ${s.name}: ${s.detail}`).join("\n")}${log.length ? `\n${log.join("\n")}` : ""}`);
      const seen = new Map(steps.map((s) => [s.name, s]));
      for (const name of STEPS) {
        const step = seen.get(name);
        expect(step?.ok, `step "${name}": ${step ? step.detail : `not reported (the page finished: ${done}; ${log.join("; ") || "the browser said nothing"})`}`).toBe(true);
      }
      expect(done, log.join("\n")).toBe(true);
    } finally {
      if (pageServer) {
        pageServer.closeAllConnections();
        await new Promise((resolve) => pageServer!.close(resolve));
      }
      await emulator?.close();
    }
  });
});
