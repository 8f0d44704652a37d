import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { auth, DB, startOffice } from "./serve-support.js";

// A request that does not sign in is refused before its body is read (section 8): a stranger cannot make the emulator
// take in an upload (up to maxUploadBytes) or a 16 MiB `$batch` only to answer 401 after it.

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startOffice(1);
});
afterAll(() => emu.close());

/** Sends the headers and 1 KiB of a body declared as `declared` bytes, and resolves with the status of the answer. */
function startUpload(path: string, declared: number, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${emu.url}${path}`, { method: "POST", headers: { "Content-Type": "application/json", "Content-Length": String(declared), ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on("error", () => undefined);
    req.setTimeout(3_000, () => {
      req.destroy();
      reject(new Error("no answer within 3 s: the body was being waited for"));
    });
    req.write(Buffer.alloc(1024, 0x20));
  });
}

describe("OData signs in before it reads a body", () => {
  it.each([
    ["a write", `/fmi/odata/v4/${DB}/Contacts`],
    ["a $batch", `/fmi/odata/v4/${DB}/$batch`],
  ])("answers 401 to %s without a sign-in while its declared body has not arrived", async (_, path) => {
    expect(await startUpload(path, 8 * 1024 * 1024, {})).toBe(401);
    expect(await startUpload(path, 8 * 1024 * 1024, { Authorization: auth("web", "wrong") })).toBe(401);
  });

  it("still waits for the whole body of a request that signs in", async () => {
    await expect(startUpload(`/fmi/odata/v4/${DB}/Contacts`, 8 * 1024 * 1024, { Authorization: auth() })).rejects.toThrow(/no answer within 3 s/);
  });
});
