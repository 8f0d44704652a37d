import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import {
  CONTACTS,
  DataApi,
  expectError,
  expectOk,
  NO_FMREST_USER,
  p,
  PASSWORD,
  USER,
} from "../../support/data-api-http.js";

// The session lifecycle, login and logout (docs/emulator.md, "Sessions").
// Tests here move the emulator clock, so every test logs in for itself and keeps no token across tests.

const MINUTE = 60_000;

let emu: Emulator;
let api: DataApi;

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator());
});
afterAll(async () => {
  await emu.close();
});

describe("session lifecycle table", () => {
  it("Session row: none -> login (valid credentials, fmrest) -> active; token returned in body and header", async () => {
    const res = await api.loginRaw(USER, PASSWORD);
    const response = expectOk(res);
    expect(typeof response.token).toBe("string");
    expect(response.token.length).toBeGreaterThan(0);
    expect(res.headers.get("X-FM-Data-Access-Token")).toBe(response.token);
    expect(res.body.messages[0]?.code).toBe("0");
    // active: the token is accepted
    expectOk(await api.list(response.token, CONTACTS));
  });

  it("Session row: none -> login with invalid credentials -> none; HTTP 401, code 212", async () => {
    for (const [user, password] of [
      [USER, "wrong"],
      [USER, ""],
      ["nobody", PASSWORD],
      [USER, PASSWORD.toUpperCase()],
    ] as const) {
      const res = await api.loginRaw(user, password);
      expectError(res, 401, "212");
      expect(res.headers.get("X-FM-Data-Access-Token")).toBeNull();
      expect(res.body.response?.token).toBeUndefined();
    }
  });

  it("Session row: none -> login with the fmrest privilege missing -> none; HTTP 401 (code 9)", async () => {
    const res = await api.loginRaw(NO_FMREST_USER, PASSWORD);
    expectError(res, 401, "9");
    expect(res.headers.get("X-FM-Data-Access-Token")).toBeNull();
    expect(res.body.response?.token).toBeUndefined();
  });

  it("Session row: active -> successful call within 15 minutes -> active; the inactivity timer is reset", async () => {
    const token = await api.login();
    emu.advanceTime(14 * MINUTE);
    expectOk(await api.list(token, CONTACTS));
    emu.advanceTime(14 * MINUTE); // 28 minutes after login, 14 after the last successful call
    expectOk(await api.list(token, CONTACTS));
    emu.advanceTime(14 * MINUTE);
    expectOk(await api.get(token, CONTACTS, "1"));
  });

  it("Session row: active -> only a successful call resets the timer (a 404 / 101 answer does not)", async () => {
    const token = await api.login();
    emu.advanceTime(14 * MINUTE);
    expectError(await api.get(token, CONTACTS, "999999"), 404, "101");
    emu.advanceTime(2 * MINUTE); // 16 minutes after the last successful call
    expectError(await api.list(token, CONTACTS), 401, "952");
  });

  it("Session row: active -> a find matching nothing (404 / 401) is an empty result, not a failure; it resets the timer", async () => {
    const token = await api.login();
    emu.advanceTime(14 * MINUTE);
    expectError(await api.find(token, CONTACTS, { query: [{ "First Name": "Nobody" }] }), 404, "401");
    emu.advanceTime(14 * MINUTE);
    expectOk(await api.list(token, CONTACTS));
  });

  it("Session row: active -> 15 minutes of inactivity -> expired; the token is rejected with 952", async () => {
    const token = await api.login();
    emu.advanceTime(16 * MINUTE);
    expectError(await api.list(token, CONTACTS), 401, "952");
    // the failed call does not revive it
    expectError(await api.list(token, CONTACTS), 401, "952");
    emu.advanceTime(1 * MINUTE);
    expectError(await api.get(token, CONTACTS, "1"), 401, "952");
  });

  it("Session row: active -> logout with the token in the path -> deleted; the token is invalidated", async () => {
    const token = await api.login();
    const res = await api.logout(token);
    expectOk(res);
    expect(res.body.response).toEqual({});
    expectError(await api.list(token, CONTACTS), 401, "952");
  });

  it("Session row: deleted -> logout -> unchanged; HTTP 401, code 952", async () => {
    const token = await api.login();
    expectOk(await api.logout(token));
    expectError(await api.logout(token), 401, "952");
  });

  it("Session row: expired -> logout -> unchanged; HTTP 401, code 952", async () => {
    const token = await api.login();
    emu.advanceTime(16 * MINUTE);
    expectError(await api.logout(token), 401, "952");
    expectError(await api.list(token, CONTACTS), 401, "952");
  });

  it("Session row: never-issued token -> logout -> HTTP 401, code 952", async () => {
    expectError(await api.logout("0123456789abcdef0123456789abcdef"), 401, "952");
  });
});

describe("login", () => {
  it("Login: the request body {} is accepted", async () => {
    expectOk(await api.loginRaw(USER, PASSWORD, "Contacts", {}));
  });

  it("Login: optional fmDataSource is accepted", async () => {
    const res = await api.loginRaw(USER, PASSWORD, "Contacts", {
      fmDataSource: [{ database: "Other", username: "someone", password: "pw" }],
    });
    const response = expectOk(res);
    expect(res.headers.get("X-FM-Data-Access-Token")).toBe(response.token);
    expectOk(await api.list(response.token, CONTACTS));
  });

  it("Login: every login gets its own token; logging one out leaves the other active", async () => {
    const a = await api.login();
    const b = await api.login();
    expect(a).not.toBe(b);
    expectOk(await api.logout(a));
    expectError(await api.list(a, CONTACTS), 401, "952");
    expectOk(await api.list(b, CONTACTS));
  });
});

describe("logout", () => {
  it("Logout: needs no Authorization header; 200 with an empty response", async () => {
    const token = await api.login();
    // api.call sends no Authorization unless asked
    const res = await api.call("DELETE", p`/databases/${"Contacts"}/sessions/${token}`);
    expectOk(res);
    expect(res.body.response).toEqual({});
  });

  it("Logout: one session's logout does not end another", async () => {
    const a = await api.login();
    const b = await api.login();
    expectOk(await api.logout(b));
    expectOk(await api.list(a, CONTACTS));
  });
});

describe("stats()", () => {
  it("stats() counts logins, active sessions and requests", async () => {
    const { emu: own, api: ownApi } = await startConformanceEmulator();
    try {
      expect(own.stats()).toMatchObject({ logins: 0, activeSessions: 0, requests: 0 });
      const a = await ownApi.login();
      const b = await ownApi.login();
      expect(own.stats()).toMatchObject({ logins: 2, activeSessions: 2, requests: 2 });
      expectOk(await ownApi.list(a, CONTACTS));
      expectError(await ownApi.loginRaw(USER, "wrong"), 401, "212");
      expect(own.stats()).toMatchObject({ logins: 2, activeSessions: 2, requests: 4 });
      expectOk(await ownApi.logout(a));
      expect(own.stats()).toMatchObject({ logins: 2, activeSessions: 1, requests: 5 });
      own.advanceTime(16 * MINUTE);
      expect(own.stats()).toMatchObject({ logins: 2, activeSessions: 0, requests: 5 });
      expectError(await ownApi.list(b, CONTACTS), 401, "952");
      expect(own.stats()).toMatchObject({ logins: 2, activeSessions: 0, requests: 6 });
    } finally {
      await own.close();
    }
  });
});
