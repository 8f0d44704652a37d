/**
 * Compile-time guarantees of container downloads, checked by `npm run typecheck` (tsconfig.json includes test/):
 * every `@ts-expect-error` below must be an error, everything else must compile. This file is never run.
 */
import { expectTypeOf } from "vitest";
import { createClient, type ContainerFile } from "@fmgen/runtime";
import { createClient as createFetchClient } from "@fmgen/runtime/fetch";
import type { ContainerFile as ODataContainerFile } from "@fmgen/runtime/odata";
import { Contact, Invoice } from "../../examples/contacts/generated/index.js";

const fm = createClient({ server: "http://127.0.0.1:1", database: "Contacts", auth: { username: "u", password: "p" } });
const contacts = fm.layout(Contact);
const invoices = fm.layout(Invoice);

export async function download(signal: AbortSignal): Promise<void> {
  const file = await contacts.download(1, "Photo", { signal });
  // An empty container is null.
  expectTypeOf(file).toEqualTypeOf<ContainerFile | null>();
  if (file) {
    expectTypeOf(file.name).toEqualTypeOf<string>();
    expectTypeOf(file.type).toEqualTypeOf<string>();
    expectTypeOf(file.size).toEqualTypeOf<number | undefined>();
    expectTypeOf(file.body).toEqualTypeOf<ReadableStream<Uint8Array>>();
    expectTypeOf(await file.bytes()).toEqualTypeOf<Uint8Array>();
    expectTypeOf(await file.blob()).toEqualTypeOf<Blob>();
  }
  await contacts.download("7", "Photo", { repetition: 1 });
  // @ts-expect-error: download from a text field
  await contacts.download(1, "First Name");
  // @ts-expect-error: download from a field not on the layout
  await contacts.download(1, "Avatar");
  // @ts-expect-error: Invoice has no container field
  await invoices.download(1, "Paid");
  // @ts-expect-error: the repetition is a number
  await contacts.download(1, "Photo", { repetition: "2" });

  // A bare container URL: never null (a URL names a file).
  expectTypeOf(await fm.download("http://127.0.0.1:1/Streaming/x", { signal })).toEqualTypeOf<ContainerFile>();
  // @ts-expect-error: a URL is a string
  await fm.download(new URL("http://127.0.0.1:1/Streaming/x"));
  const web = createFetchClient({ server: "http://127.0.0.1:1", database: "Contacts", auth: { username: "u", password: "p" } });
  expectTypeOf(await web.layout(Contact).download(1, "Photo")).toEqualTypeOf<ContainerFile | null>();
  expectTypeOf(await web.download("http://127.0.0.1:1/Streaming/x")).toEqualTypeOf<ContainerFile>();
  // One type, whichever API downloaded the file: code that handles a file takes either's.
  expectTypeOf<ODataContainerFile>().toEqualTypeOf<ContainerFile>();
}
