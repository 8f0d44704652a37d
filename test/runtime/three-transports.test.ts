import { afterEach, describe, expect, it } from "vitest";
import { createClient as createNodeClient, ModIdMismatchError, q, RecordMissingError, type FileMakerClient } from "@fmgen/runtime";
import { createClient as createFetchClient } from "@fmgen/runtime/fetch";
import { createWebViewerClient } from "@fmgen/runtime/webviewer";
import { Contact, Contacts } from "../../examples/contacts/generated/index.js";
import { PASSWORD, USERNAME } from "../support/runtime-layouts.js";
import { startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";

// Issue 34 item 5: the generated layout modules need no change to run on any of the three transports. The contacts
// example's generated `Contact` and `Contacts` (examples/contacts/generated, as the generator wrote them) go to
// createClient of the Node entry, of the fetch entry, and to createWebViewerClient over the emulator's in-process Web
// Viewer; one scenario typed against FileMakerClient runs on each, against a fresh emulator, and all three outcomes
// are the same. (test/types/transports.test-d.ts is the type side.)

/** Every layout call of the example, typed once against the one client type. */
async function scenario(fm: FileMakerClient<typeof Contacts>) {
  const contacts = fm.layout(Contact);
  const listed = await contacts.list({ sort: [{ fieldName: "Birthday", sortOrder: "ascend" }], limit: 3 });
  const found = await contacts.find({ query: [{ Email: q.endsWith("@example.com"), Status: "Active" }, { "First Name": "Ada", omit: true }] });
  const built = await contacts.query().where({ Status: "Inactive" }).run();
  const created = await contacts.create({ fieldData: { "First Name": "Mary", Birthday: "1780-12-26", Phone: [undefined, "555-0102"] }, portalData: { Invoices: [{ "Invoices::Amount": 9.5 }] } });
  const mary = await contacts.get(created.recordId, { portals: { Invoices: { limit: 1 } } });
  const edited = await contacts.edit(created.recordId, { fieldData: { Status: "Active" }, modId: mary.modId });
  const stale = await contacts.edit(created.recordId, { fieldData: { Status: "Inactive" }, modId: mary.modId }).catch((e: unknown) => e);
  const copy = await contacts.duplicate(created.recordId);
  await contacts.delete(created.recordId);
  const gone = await contacts.get(created.recordId).catch((e: unknown) => e);
  const all: string[] = [];
  for await (const record of contacts.listAll({ pageSize: 2, sort: [{ fieldName: "id" }] })) all.push(record.fieldData["First Name"]);
  const names = (page: { data: { fieldData: { "First Name": string } }[] }) => page.data.map((r) => r.fieldData["First Name"]);
  return {
    listed: names(listed),
    found: names(found),
    built: names(built),
    created,
    mary: { fieldData: { ...mary.fieldData, Created: typeof mary.fieldData.Created, Modified: typeof mary.fieldData.Modified }, portalData: mary.portalData },
    edited,
    stale: stale instanceof ModIdMismatchError ? stale.code : String(stale),
    copy,
    gone: gone instanceof RecordMissingError ? gone.code : String(gone),
    all,
  };
}

const auth = { username: USERNAME, password: PASSWORD };
const g = globalThis as { window?: Record<string, unknown> };
const open: { fm: FileMakerClient<typeof Contacts>; emu: Emulator }[] = [];

afterEach(async () => {
  for (const { fm, emu } of open.splice(0)) {
    await fm.close();
    await emu.close();
  }
  delete g.window;
});

const transports: [string, (emu: Emulator) => FileMakerClient<typeof Contacts>][] = [
  ["@fmgen/runtime (Node)", (emu) => createNodeClient({ server: emu.url, database: Contacts, auth })],
  ["@fmgen/runtime/fetch", (emu) => createFetchClient({ server: emu.url, database: Contacts, auth })],
  [
    "@fmgen/runtime/webviewer",
    (emu) => {
      g.window = {};
      emu.webViewer({ account: USERNAME, database: "Contacts" }).install(g.window);
      return createWebViewerClient({ database: Contacts, script: "fmgen webviewer", timeoutMs: 5_000 });
    },
  ],
];

describe("the same generated modules on every transport", () => {
  it("one scenario typed against FileMakerClient gives the same outcome on the Node, fetch and Web Viewer clients", async () => {
    const outcomes: Record<string, unknown> = {};
    for (const [name, make] of transports) {
      const emu = await startRuntimeEmulator();
      const fm = make(emu);
      open.push({ fm, emu });
      outcomes[name] = await scenario(fm);
    }
    const [node, fetch, webViewer] = Object.values(outcomes);
    expect(fetch).toEqual(node);
    expect(webViewer).toEqual(node);
    expect(node).toMatchObject({
      listed: ["Ada", "Grace", "Alan"],
      found: ["Grace", "Katherine"],
      built: ["Alan"],
      mary: { fieldData: { "First Name": "Mary", Birthday: "1780-12-26", Phone: ["", "555-0102", ""] }, portalData: { Invoices: [{ "Invoices::Amount": 9.5 }] } },
      stale: "306",
      gone: "101",
      all: ["Ada", "Grace", "Alan", "Katherine", "Mary"],
    });
  });
});
