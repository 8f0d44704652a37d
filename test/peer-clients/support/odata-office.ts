import type { EmulatorOptions, RunningEmulator } from "../../../src/emulator/index.js";
import { DataApi } from "../../support/data-api-http.js";
import { DB, PASSWORD, startOffice, USER } from "../../emulator/odata/serve-support.js";

/**
 * What the two OData peer-client tests share: the Office file of test/emulator/odata/serve-support.ts (Contacts
 * keyed on `id`, a calculation, a repeating field, a container; Notes, keyless, reached from Contacts by the `Notes`
 * navigation), started in this process with startEmulator on 127.0.0.1, with a script and a Claris ID account.
 */

export { DB, PASSWORD, USER };

/** The FMID id token of the Claris ID account (FileMaker Cloud's sign-in, section 8). */
export const FMID_TOKEN = "peer-fmid-id-token";

/** A whole 1×1 PNG: clients that sniff a file's type (file-type) need its signature and IHDR. */
export const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000000000500010d0a2db40000000049454e44ae426082",
  "hex",
);

export function startPeerOffice(extra: Partial<EmulatorOptions> = {}): Promise<RunningEmulator> {
  return startOffice(4, {
    ...extra,
    accounts: [{ fmid: FMID_TOKEN }],
    // Returns its parameter (OData sends it as `scriptParameterValue`: section 5).
    scripts: { Echo: ({ param }: { param?: string }) => param ?? "" },
  });
}

/** Puts PNG into Contacts(key)'s Photo through the Data API (the OData side of containers is another item). */
export async function uploadPhoto(emu: RunningEmulator, recordId: string): Promise<void> {
  const api = new DataApi(emu.url);
  const token = await api.login(USER, PASSWORD, DB);
  const up = await api.upload(token, "Contacts", recordId, "Photo", 1, { bytes: new Uint8Array(PNG), type: "image/png", filename: "pixel.png" }, DB);
  if (up.status !== 200) throw new Error(`Data API upload failed: ${up.status} ${up.text}`);
}

/**
 * A fetch that sends an `https://` URL of the emulator as `http://`: the emulator serves plain HTTP on loopback,
 * and some clients build `https://` URLs whatever they are given (proofkit's FMServerConnection always;
 * fm-odata-client's batch connection, which drops `disableSsl`). Any other URL is refused, so nothing leaves loopback.
 * `PEER_WIRE=1` prints each request (method, path and query, Accept, Prefer): how WIRE-ODATA.md's wire column was read.
 */
const realFetch = globalThis.fetch;

export function loopbackFetch(emuUrl: string): typeof fetch {
  const origin = new URL(emuUrl);
  return (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.host !== origin.host) return Promise.reject(new Error(`refusing a request off loopback: ${request.url}`));
    url.protocol = "http:";
    if (process.env.PEER_WIRE) console.log(request.method, decodeURI(url.pathname) + url.search, JSON.stringify([...request.headers].filter(([k]) => k === "prefer" || k === "accept")));
    return realFetch(new Request(url, request));
  };
}
