/**
 * Compile-time guarantee of issue 34 item 5, checked by `npm run typecheck` (tsconfig.json includes test/): the contacts
 * example's generated modules, unchanged, type the same on the three transports. Each entry's client is the same
 * `FileMakerClient`, `fm.layout(Contact)` the same typed layout client, the records the same types; every
 * `@ts-expect-error` below must be an error on each. This file is never run (test/runtime/three-transports.test.ts runs
 * the same calls).
 */
import { expectTypeOf } from "vitest";
import { createClient, type FileMakerClient, type LayoutClient } from "@fmgen/runtime";
import { createClient as createFetchClient, type FileMakerClient as FetchFileMakerClient } from "@fmgen/runtime/fetch";
import { createWebViewerClient, type FileMakerClient as WebViewerFileMakerClient } from "@fmgen/runtime/webviewer";
import { Contact, Contacts, type ContactFields, type ContactRecord } from "../../examples/contacts/generated/index.js";

const auth = { username: "u", password: "p" };
const node = createClient({ server: "http://127.0.0.1:1", database: Contacts, auth });
const fetch = createFetchClient({ server: "http://127.0.0.1:1", database: Contacts, auth });
const webViewer = createWebViewerClient({ database: Contacts, script: "fmgen webviewer", webViewer: "web" });

// One client type: the entries re-export the same FileMakerClient, and each createClient gives it.
expectTypeOf<FetchFileMakerClient<typeof Contacts>>().toEqualTypeOf<FileMakerClient<typeof Contacts>>();
expectTypeOf<WebViewerFileMakerClient<typeof Contacts>>().toEqualTypeOf<FileMakerClient<typeof Contacts>>();
expectTypeOf(node).toEqualTypeOf<FileMakerClient<typeof Contacts>>();
expectTypeOf(fetch).toEqualTypeOf<FileMakerClient<typeof Contacts>>();
expectTypeOf(webViewer).toEqualTypeOf<FileMakerClient<typeof Contacts>>();

/** What a page or a server does with the generated `Contact`, whichever transport it was given. */
export async function onEvery(fm: FileMakerClient<typeof Contacts>): Promise<void> {
  const contacts = fm.layout(Contact);
  expectTypeOf(contacts).toEqualTypeOf<LayoutClient<typeof Contact, typeof Contacts>>();
  const ada = await contacts.get(1);
  expectTypeOf(ada).toEqualTypeOf<ContactRecord>();
  expectTypeOf(ada.fieldData.Birthday).toEqualTypeOf<ContactFields["Birthday"]>();
  expectTypeOf(ada.fieldData.Phone).toEqualTypeOf<[string, string, string]>();
  const page = await contacts.find({ query: [{ Status: "Active" }, { "First Name": "Ada", omit: true }], portals: { Invoices: { limit: 1 } } });
  expectTypeOf(page.data[0]!.portalData.Invoices[0]!["Invoices::Amount"]).toEqualTypeOf<number | null>();
  await contacts.create({ fieldData: { "First Name": "Mary" }, portalData: { Invoices: [{ "Invoices::Amount": 1 }] } });
  // @ts-expect-error: a field the layout lacks
  await contacts.create({ fieldData: { Nickname: "M" } });
  // @ts-expect-error: a value outside the field's value list
  await contacts.find({ query: [{ Status: "Retired" }] });
  // @ts-expect-error: a portal the layout lacks
  await contacts.get(1, { portals: { Notes: true } });
}

export async function all(): Promise<void> {
  await onEvery(node);
  await onEvery(fetch);
  await onEvery(webViewer);
  // The same `fm.layout(Contact)` from each entry's own client, not only through the shared signature.
  expectTypeOf(node.layout(Contact)).toEqualTypeOf(webViewer.layout(Contact));
  expectTypeOf(fetch.layout(Contact)).toEqualTypeOf(webViewer.layout(Contact));
}
