import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { createODataClient, InvalidCredentialsError } from "../../../src/runtime/odata/index.js";
import { createODataClient as createFetchClient } from "../../../src/runtime/odata/fetch.js";
import { API_KEY, Contacts, FMID_TOKEN, PASSWORD, startOffice, USER } from "./support.js";

// Each sign-in of the OData client against the emulator (wire contract section 8): Basic on every request, a Claris
// ID token (FMID) asked for again once when refused, a proxy's API key as Bearer under its path prefix; credentials in
// the server URL refused; a refusal never shows the secret.

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startOffice({ apiKeys: [{ key: API_KEY, pathPrefix: "/otto" }] });
});
afterAll(() => emu.close());

describe("sign-ins", () => {
  it("Basic: every request carries the account; a wrong password is InvalidCredentialsError (212, 401) without the password", async () => {
    for (const create of [createODataClient, createFetchClient]) {
      const od = create({ server: emu.url, database: "Office", auth: { username: USER, password: PASSWORD } });
      expect(await od.table(Contacts).count()).toBe(3);
      const wrong = create({ server: emu.url, database: "Office", auth: { username: USER, password: "wrong-password-42" } });
      const error = await wrong.table(Contacts).count().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidCredentialsError);
      expect(error).toMatchObject({ name: "InvalidCredentialsError", code: "212", httpStatus: 401, call: { method: "GET", path: "/Contacts/$count" } });
      expect(JSON.stringify({ ...(error as object), message: (error as Error).message, stack: (error as Error).stack })).not.toContain("wrong-password-42");
      await od.close();
      await wrong.close();
    }
  });

  it("Claris ID: the token as FMID, asked for again once when the server refuses it (an expired token), not more", async () => {
    const tokens = ["expired-token-0000000000", FMID_TOKEN];
    let asked = 0;
    const od = createODataClient({ server: emu.url, database: "Office", auth: { claris: async () => tokens[Math.min(asked++, 1)]! } });
    expect(await od.table(Contacts).count()).toBe(3);
    expect(asked).toBe(2);
    // The good token is kept.
    expect((await od.table(Contacts).get("A1", { select: ["Name"] })).Name).toBe("Ada");
    expect(asked).toBe(2);
    // A token the server never takes: one more ask, then the refusal.
    let bad = 0;
    const never = createODataClient({ server: emu.url, database: "Office", auth: { claris: async () => `bad-token-${++bad}-abcdefgh` } });
    const error = await never.table(Contacts).count().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidCredentialsError);
    expect(bad).toBe(2);
    expect((error as Error).message).not.toMatch(/bad-token/);
    await od.close();
    await never.close();
  });

  it.each([
    ["20 KB", "t".repeat(20_000)],
    ["a control character", "tok\u0000en"],
    ["non-ASCII", "tok\u00e9n"],
  ])("Claris ID: a token that cannot be sent (%s) is refused by name and not kept: the next call asks again", async (_what, unsendable) => {
    const tokens = [unsendable, FMID_TOKEN];
    let asked = 0;
    const od = createODataClient({ server: emu.url, database: "Office", auth: { claris: async () => tokens[Math.min(asked++, 1)]! } });
    const requests = emu.stats().requests;
    await expect(od.table(Contacts).count()).rejects.toThrow(new TypeError("createODataClient: auth.claris() must resolve to a Claris ID token (1 to 4,096 visible ASCII characters)"));
    expect(emu.stats().requests).toBe(requests);
    expect(await od.table(Contacts).count()).toBe(3);
    expect(asked).toBe(2);
    await od.close();
  });

  it("API key: Bearer under the proxy's path prefix; without the prefix the server refuses it", async () => {
    const od = createODataClient({ server: emu.url, database: "Office", auth: { apiKey: API_KEY, pathPrefix: "/otto" } });
    expect(await od.table(Contacts).count()).toBe(3);
    const bare = createFetchClient({ server: emu.url, database: "Office", auth: { apiKey: API_KEY } });
    const error = await bare.table(Contacts).count().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidCredentialsError);
    expect((error as Error).message).not.toContain(API_KEY);
    await od.close();
  });

  it("refuses credentials in the server URL, a bad auth and a bad server, naming the option, never the secret", () => {
    const at = `http://web:${PASSWORD}@127.0.0.1:1`;
    expect(() => createODataClient({ server: at, database: "Office", auth: { username: USER, password: PASSWORD } })).toThrow(/server must not hold credentials/);
    try {
      createODataClient({ server: at, database: "Office", auth: { username: USER, password: PASSWORD } });
    } catch (error) {
      expect((error as Error).message).not.toContain(PASSWORD);
    }
    expect(() => createODataClient({ server: "ftp://x", database: "Office", auth: { username: USER, password: PASSWORD } })).toThrow(/http:\/\/ or https:\/\//);
    expect(() => createODataClient({ server: emu.url, database: "Office", auth: {} as never })).toThrow(/auth must be/);
    expect(() => createODataClient({ server: emu.url, database: "Office", auth: { apiKey: "a b" } })).toThrow(/apiKey/);
    expect(() => createODataClient({ server: emu.url, database: "Office", auth: { apiKey: "k", pathPrefix: "/../x" } })).toThrow(/pathPrefix/);
    expect(() => createODataClient({ server: emu.url, database: "..", auth: { apiKey: "k" } })).toThrow(/database/);
    // Plain http:// to another host: refused when asked, else warned about (the loopback emulator is neither).
    expect(() => createODataClient({ server: "http://fms.example.com", database: "Office", auth: { username: USER, password: PASSWORD }, insecure: "refuse" })).toThrow(
      'refusing to connect: credentials would travel unencrypted over http:// to fms.example.com; use https://, or pass insecure: "allow" to accept this',
    );
    const warnings: string[] = [];
    const listen = (warning: Error) => warnings.push(warning.message);
    process.on("warning", listen);
    createODataClient({ server: "http://fms.example.com", database: "Office", auth: { username: USER, password: PASSWORD } });
    createODataClient({ server: "http://fms.example.com", database: "Office", auth: { username: USER, password: PASSWORD }, insecure: "allow" });
    createODataClient({ server: "https://fms.example.com", database: "Office", auth: { username: USER, password: PASSWORD } });
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        process.off("warning", listen);
        expect(warnings).toEqual([expect.stringContaining("credentials would travel unencrypted over http:// to fms.example.com")]);
        resolve();
      }),
    );
  });
});
