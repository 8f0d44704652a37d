import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { EmulatedWebViewer, ScriptHandlers } from "../../src/emulator/index.js";
import {
  createWebViewerClient,
  DatabaseMissingError,
  LayoutMissingError,
  ModIdMismatchError,
  NetworkError,
  q,
  RecordMissingError,
  ScriptError,
  StepUnsupportedError,
  type FileMakerClient,
} from "@fmgen/runtime/webviewer";
import { Contact, Contacts, Invoice } from "../../examples/contacts/generated/index.js";
import { collect, connect, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { createClient } from "../../src/runtime/index.js";
import { ContactSummary, contactSummaryDescription, EXAMPLE_LAYOUTS, PASSWORD, typesDescription, USERNAME } from "../support/runtime-layouts.js";

// The runtime's Web Viewer client joined to the emulator's in-process bridge (issue 34): a page's
// createWebViewerClient over `emu.webViewer().install(window)`, with the contacts example's generated modules, layouts
// and seed. Each scenario runs twice, once over the bridge and once over HTTP (createClient) against an emulator in
// the same state, and the two must give the same records, pages and errors: the bridge is a transport, nothing more.

const SCRIPT = "fmgen webviewer";
const WEB_VIEWER = "web";

const HANDLERS: ScriptHandlers = {
  Echo: ({ param }) => `echo:${param}`,
  Fails: () => ({ error: 3, result: "why" }),
  "Count Contacts": ({ records }) => String(records.list("Contacts Web").length),
};

type Win = Record<string, unknown> & { FileMaker?: unknown };
const g = globalThis as { window?: Win };

function start(): Promise<Emulator> {
  return startRuntimeEmulator({ layouts: [EXAMPLE_LAYOUTS, contactSummaryDescription, typesDescription], scripts: HANDLERS, log: () => {} });
}

/** A page's client over a fresh in-process Web Viewer of `emu`, installed on a fresh `globalThis.window`. */
function page(emu: Emulator, timeoutMs = 5_000): { fm: FileMakerClient<typeof Contacts>; viewer: EmulatedWebViewer } {
  g.window = {};
  const viewer = emu.webViewer({ account: "web", webViewer: WEB_VIEWER });
  viewer.install(g.window);
  return { fm: createWebViewerClient({ database: Contacts, script: SCRIPT, webViewer: WEB_VIEWER, timeoutMs }), viewer };
}

/** Both transports of the same emulator. */
function both(emu: Emulator): { http: FileMakerClient<typeof Contacts>; wv: FileMakerClient<typeof Contacts>; viewer: EmulatedWebViewer } {
  const { fm, viewer } = page(emu);
  return { http: createClient({ server: emu.url, database: Contacts, auth: { username: USERNAME, password: PASSWORD } }), wv: fm, viewer };
}

/**
 * An error's class name, code and message, for comparing the two transports' errors. The message's closing
 * "(HTTP 404)" is the exchange's: the step's answers come with none (their errors name no status).
 */
async function failure(run: () => Promise<unknown>): Promise<{ name: string; code?: unknown; message: string }> {
  try {
    await run();
  } catch (error) {
    const e = error as Error & { code?: unknown };
    return { name: e.constructor.name, code: e.code, message: e.message.replace(/ \(HTTP \d+\)$/, "") };
  }
  throw new Error("expected a failure");
}

afterEach(() => {
  delete g.window;
});

describe("reads: the same answers as over HTTP", () => {
  let emu: Emulator;
  let http: FileMakerClient<typeof Contacts>;
  let wv: FileMakerClient<typeof Contacts>;

  beforeAll(async () => {
    emu = await start();
    // A container to read as a URL: uploaded over HTTP (the step cannot upload).
    const setup = connect(emu.url);
    await setup.layout(Contact).upload(1, "Photo", new Blob([new TextEncoder().encode("photo bytes")]), { filename: "ada.txt" });
    await setup.close();
  });
  beforeEach(() => {
    ({ http, wv } = both(emu));
  });
  afterEach(async () => {
    await wv.close();
    await http.close();
  });
  afterAll(async () => {
    await emu.close();
  });

  /** Runs `call` on both transports and expects equal results; returns the Web Viewer's. */
  async function same<T>(call: (fm: FileMakerClient<typeof Contacts>) => Promise<T>): Promise<T> {
    const over = await call(http);
    const through = await call(wv);
    expect(through).toEqual(over);
    return through;
  }

  it("list with sort, offset and limit; get; dataInfo", async () => {
    const listed = await same((fm) => fm.layout(Contact).list({ sort: [{ fieldName: "First Name", sortOrder: "descend" }], offset: 2, limit: 2 }));
    expect(listed.data.map((r) => r.fieldData["First Name"])).toEqual(["Grace", "Alan"]);
    expect(listed.dataInfo).toMatchObject({ layout: "Contacts Web", foundCount: 4, returnedCount: 2 });
    const ada = await same((fm) => fm.layout(Contact).get(1));
    expect(ada.fieldData["First Name"]).toBe("Ada");
  });

  it("decodes every field kind of the example: numbers, dates, times, timestamps, repetitions, a container's URL, portal rows", async () => {
    const ada = await same((fm) => fm.layout(Contact).get(1));
    expect(ada.fieldData.id).toBe(1);
    expect(ada.fieldData.Birthday).toBe("1815-12-10");
    expect(ada.fieldData["Wake Up"]).toBe("07:30:00");
    expect(ada.fieldData.Created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(ada.fieldData.Phone).toEqual(["555-0100", "", "555-0199"]);
    expect(ada.fieldData.Photo).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(ada.fieldData["Company::Name"]).toBe("Analytical Engines");
    expect(ada.portalData.Invoices.map((row) => [row["Invoices::Amount"], row["Invoices::Issued"]])).toEqual([
      [120.5, "2024-01-15"],
      [80, "2024-02-29"],
    ]);
    // The container's URL is the emulator's own, port and all (the same as over HTTP): it serves the bytes.
    const download = await http.download(ada.fieldData.Photo!);
    expect(Buffer.from(await download.bytes()).toString("utf8")).toBe("photo bytes");
    const invoice = await same((fm) => fm.layout(Invoice).get(1));
    expect(invoice.fieldData).toMatchObject({ ContactID: 1, Amount: 120.5, Issued: "2024-01-15", Paid: "Yes" });
  });

  it("find: an exact value, q helpers with operators escaped, omit requests, sort; no match is an empty page", async () => {
    const found = await same((fm) => fm.layout(Contact).find({ query: [{ Status: "Active" }, { "First Name": "Grace", omit: true }], sort: [{ fieldName: "Birthday", sortOrder: "descend" }] }));
    expect(found.data.map((r) => r.fieldData["First Name"])).toEqual(["Katherine", "Ada"]);
    const prefixed = await same((fm) => fm.layout(Contact).find({ query: [{ Email: q.endsWith("@example.com"), Birthday: q.gte("1900-01-01") }] }));
    expect(prefixed.data.map((r) => r.fieldData["First Name"])).toEqual(["Grace", "Alan", "Katherine"]);
    // Characters that are find operators in FileMaker are escaped by the runtime, so they match themselves only.
    const literal = await same((fm) => fm.layout(Contact).find({ query: [{ "First Name": "A*" }] }));
    expect(literal.data).toEqual([]);
    const none = await same((fm) => fm.layout(Contact).find({ query: [{ "Last Name": "Nobody" }] }));
    expect(none.dataInfo.foundCount).toBe(0);
    expect(await same((fm) => fm.layout(Contact).findFirst({ query: [{ Status: "Inactive" }] }))).toMatchObject({ fieldData: { "First Name": "Alan" } });
  });

  it("the query builder", async () => {
    const page = await same((fm) => fm.layout(Contact).query().where({ Status: "Active" }).or({ Email: q.beginsWith("alan@") }).sort("Birthday", "descend").limit(3).run());
    expect(page.data.map((r) => r.fieldData["First Name"])).toEqual(["Katherine", "Alan", "Grace"]);
  });

  it("listAll and findAll page across several calls, every record once", async () => {
    const sort = [{ fieldName: "First Name", sortOrder: "ascend" }] as const;
    const all = await same((fm) => collect(fm.layout(Contact).listAll({ pageSize: 3, sort })));
    expect(all.map((r) => r.fieldData["First Name"])).toEqual(["Ada", "Alan", "Grace", "Katherine"]);
    const matched = await same((fm) => collect(fm.layout(Contact).findAll({ query: [{ Status: "Active" }], pageSize: 2, sort })));
    expect(matched.map((r) => r.fieldData["First Name"])).toEqual(["Ada", "Grace", "Katherine"]);
  });

  it("portal ranges and a response layout", async () => {
    const ranged = await same((fm) => fm.layout(Contact).get(1, { portals: { Invoices: { offset: 2, limit: 1 } } }));
    expect(ranged.portalData.Invoices.map((row) => row["Invoices::Amount"])).toEqual([80]);
    const summary = await same((fm) => fm.layout(Contact).get(1, { response: ContactSummary }));
    expect(summary.fieldData).toEqual({ "First Name": "Ada", Email: "ada@example.com" });
    const listed = await same((fm) => fm.layout(Contact).list({ response: ContactSummary, limit: 2 }));
    expect(listed.dataInfo.layout).toBe("Contact Summary");
  });

  it("fm.layouts()", async () => {
    const layouts = await same((fm) => fm.layouts());
    expect(JSON.stringify(layouts)).toContain("Contacts Web");
  });

  it("runScript: a result, and a script's error code", async () => {
    const echoed = await same((fm) => fm.runScript(Contact, "Echo" as never, { param: "7 & ünïcode" }));
    expect(echoed).toEqual({ result: "echo:7 & ünïcode", error: "0" });
    expect(await same((fm) => fm.runScript(Contact, "Count Contacts" as never))).toEqual({ result: "4", error: "0" });
    expect(await same((fm) => fm.runScript(Contact, "Fails" as never))).toEqual({ result: "why", error: "3" });
  });

  it("a layout call's scripts: the results and error codes of each phase", async () => {
    const got = await same((fm) => fm.layout(Contact).get(1, { prerequest: { name: "Echo" as never, param: "p" }, script: { name: "Fails" as never } }));
    expect(got.scripts).toEqual({ prerequest: { result: "echo:p", error: "0" }, after: { result: "why", error: "3" } });
  });

  it("a missing record, layout or database: the same error classes and codes as over HTTP", async () => {
    const missing = await failure(() => wv.layout(Contact).get(999));
    expect(missing).toEqual(await failure(() => http.layout(Contact).get(999)));
    await expect(wv.layout(Contact).get(999)).rejects.toThrow(RecordMissingError);

    const nowhere = { ...Contact, layout: "No Such Layout" };
    const layoutOver = await failure(() => http.layout(nowhere).list());
    const layoutThrough = await failure(() => wv.layout(nowhere).list());
    expect(layoutThrough.name).toBe("LayoutMissingError");
    expect(layoutThrough).toEqual(layoutOver);
    await expect(wv.layout(nowhere).get(1)).rejects.toThrow(LayoutMissingError);
  });

  it("an unknown database: DatabaseMissingError over HTTP; the step has no database to name, so the page's own file answers", async () => {
    // docs/webviewer.md: the step "works on the current file only". The parameter carries no file name (the protocol's
    // v1), so a page whose client names another file reads the file it is shown in. Over HTTP the name is checked.
    const elsewhere = { ...Contact, database: "Elsewhere" };
    const httpOther = connect(emu.url, { database: "Elsewhere" });
    const wvOther = createWebViewerClient({ database: "Elsewhere", script: SCRIPT, webViewer: WEB_VIEWER, timeoutMs: 5_000 });
    try {
      await expect(httpOther.layout(elsewhere).list()).rejects.toThrow(DatabaseMissingError);
      const page = await wvOther.layout(elsewhere).list();
      expect(page.dataInfo.database).toBe("Contacts");
    } finally {
      await wvOther.close();
      await httpOther.close();
    }
    // A Web Viewer of a file the emulator does not host is refused where it is made.
    expect(() => emu.webViewer({ account: "web", database: "Elsewhere" })).toThrow('webViewer: no hosted file named "Elsewhere"');
  });

  it("what the step cannot do fails before anything is sent", async () => {
    await expect(wv.layout(Contact).upload(1, "Photo", new Uint8Array([1]))).rejects.toThrow(StepUnsupportedError);
    await expect(wv.productInfo()).rejects.toThrow(StepUnsupportedError);
  });
});

describe("writes: the same outcome as over HTTP, each on a fresh emulator", () => {
  /** Created and Modified are the emulator's clock: equal in shape, not in value. */
  const clockless = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === "Created" || key === "Modified" ? typeof v : v)));

  async function scenario(fm: FileMakerClient<typeof Contacts>) {
    const contacts = fm.layout(Contact);
    const created = await contacts.create({
      fieldData: { "First Name": "Mary", "Last Name": "Somerville", Email: "mary@example.com", Status: "Active", Birthday: "1780-12-26", "Wake Up": "05:45:00", Phone: ["555-0142"] },
      portalData: { Invoices: [{ "Invoices::Amount": 42.25, "Invoices::Issued": "2024-04-01" }] },
    });
    const mary = await contacts.get(created.recordId);
    const edited = await contacts.edit(created.recordId, { fieldData: { Status: "Inactive" }, modId: mary.modId });
    const stale = await failure(() => contacts.edit(created.recordId, { fieldData: { Status: "Active" }, modId: mary.modId }));
    const copy = await contacts.duplicate(created.recordId);
    await contacts.delete(created.recordId);
    const gone = await failure(() => contacts.get(created.recordId));
    const after = await contacts.list({ sort: [{ fieldName: "id", sortOrder: "ascend" }] });
    return clockless({ created, mary, edited, stale, copy, gone, after });
  }

  it("create with portal rows, edit, a stale modId, duplicate, delete then get", async () => {
    const overEmu = await start();
    const throughEmu = await start();
    const http = createClient({ server: overEmu.url, database: Contacts, auth: { username: USERNAME, password: PASSWORD } });
    const { fm } = page(throughEmu);
    try {
      const over = (await scenario(http)) as Record<string, { name?: string }>;
      const through = (await scenario(fm)) as Record<string, { name?: string }>;
      expect(through).toEqual(over);
      expect(through.stale!.name).toBe(ModIdMismatchError.name);
      expect(through.gone!.name).toBe(RecordMissingError.name);
      expect(through).toMatchObject({ mary: { fieldData: { Birthday: "1780-12-26", "Wake Up": "05:45:00", Phone: ["555-0142", "", ""] }, portalData: { Invoices: [{ "Invoices::Amount": 42.25, "Invoices::Issued": "2024-04-01" }] } } });
    } finally {
      await fm.close();
      await http.close();
      await overEmu.close();
      await throughEmu.close();
    }
  });
});

describe("the bridge's timing", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await start();
  });
  afterAll(async () => {
    await emu.close();
  });

  it("a call the bridge never answers fails with a NetworkError naming the script and the action; later calls are answered", async () => {
    const { fm, viewer } = page(emu, 300);
    viewer.neverAnswer((call) => call.request?.recordId === "2");
    try {
      const error = await failure(() => fm.layout(Contact).get(2));
      expect(error.name).toBe(NetworkError.name);
      expect(error.message).toContain(`FileMaker script "${SCRIPT}" did not answer read on layout "Contacts Web" within 300 ms`);
      const timedOut = await fm.layout(Contact).get(2).catch((e: unknown) => e);
      expect((timedOut as NetworkError).reason).toBe("timeout");
      expect((await fm.layout(Contact).get(1)).fieldData["First Name"]).toBe("Ada");
      const script = await failure(() => fm.runScript(Contact, "fmgen: never answer" as never));
      expect(script.message).toContain('did not answer script "fmgen: never answer"');
    } finally {
      await fm.close();
    }
  });

  it("calls made together are answered in the order made", async () => {
    const { fm, viewer } = page(emu);
    const order: string[] = [];
    try {
      const contacts = fm.layout(Contact);
      await Promise.all(
        [1, 2, 3, 4].map((id) =>
          contacts.get(id).then((r) => {
            order.push(r.fieldData["First Name"]);
          }),
        ),
      );
      expect(order).toEqual(["Ada", "Grace", "Alan", "Katherine"]);
      await viewer.settled();
    } finally {
      await fm.close();
    }
  });
});

describe("the bridge answers in the next turn, with no timer", () => {
  it("a call is answered without any setTimeout firing (a timer's 1 ms floor would be most of a call's time)", async () => {
    const emu = await start();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { fm } = page(emu);
    try {
      // With setTimeout faked and never advanced, only a bridge that answers in a turn of its own without a timer answers.
      const ada = await fm.layout(Contact).get(1);
      expect(ada.fieldData["First Name"]).toBe("Ada");
    } finally {
      vi.useRealTimers();
      await fm.close();
      await emu.close();
    }
  });
});
