import { pbkdf2Sync } from "node:crypto";
import type { TokenStore } from "../../src/runtime/index.js";
import { connect, counting, type Emulator } from "./runtime-emulator.js";
import { Contact, DATABASE, PASSWORD, USERNAME } from "./runtime-layouts.js";

// Token stores that hold a value no server could have issued (written by a bug, an attacker, another tool): before
// issue 31 every call of every process sharing the store failed with it for good, since only a 952 replaced a
// token. The same test runs on each store (memory, file, Redis): the value is seeded under the client's own key,
// one call is made, and it must succeed with one login and leave a fresh token in the store.

/** Values that cannot be sent as a token: a header injection (refused by fetch before sending), 20 KB (a 431). */
export const POISONED_TOKENS = [
  ["a header injection", "tok\r\nX-Injected: 1"],
  ["a token of 20 KB", "t".repeat(20_000)],
  ["a token of control characters and non-ASCII", "tok\u0000\u00e9"],
] as const;

/** The store key of the test account (`connect`'s) on `server`: its Data API's URL, database, username, verifier. */
export function storeKey(server: string): string {
  const prefix = `${server}/fmi/data/vLatest ${DATABASE} ${USERNAME}`;
  return `${prefix} ${pbkdf2Sync(PASSWORD, prefix, 100_000, 32, "sha256").toString("base64")}`;
}

/** One call by a client of `store` after `poison` is stored under its key: its record, the logins and what the store holds after. */
export async function callAfterPoison(emu: Emulator, store: TokenStore, poison: string): Promise<{ recordId: string; logins: number; requests: number; stored: string | undefined }> {
  const key = storeKey(emu.url);
  await store.set(key, poison);
  const fm = connect(emu.url, { tokenStore: store });
  try {
    const { result, logins, requests } = await counting(emu, () => fm.layout(Contact).get(1));
    return { recordId: result.recordId, logins, requests, stored: await store.get(key) };
  } finally {
    await fm.close();
  }
}

/** What the emulator's tokens look like (48 hex digits): a token it issued. */
export const EMULATOR_TOKEN = /^[0-9a-f]{48}$/;
