import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidTokenError, type FileMakerClient } from "../../src/runtime/index.js";
import { collect, connect, counting, exampleSeed, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { Contact, DATABASE, Invoice, PASSWORD, USERNAME } from "../support/runtime-layouts.js";

// docs/sessions.md: one login per client shared by every layout and every concurrent call, a
// transparent re-login on 952, a fresh login before the idle limit, logout with the token in the path.

const MINUTE = 60_000;
const EXTRA_ACTIVE = 20;

let emu: Emulator;
const clients: FileMakerClient[] = [];

/** A new client, closed in afterAll. */
function newClient(overrides: Parameters<typeof connect>[1] = {}): FileMakerClient {
  const fm = connect(emu.url, overrides);
  clients.push(fm);
  return fm;
}

beforeAll(async () => {
  const seed = exampleSeed();
  for (let i = 0; i < EXTRA_ACTIVE; i++) {
    seed.records["Contacts"]!.push({ "First Name": `Extra ${i}`, Email: `extra${i}@example.com`, Status: "Active" });
  }
  emu = await startRuntimeEmulator({ data: seed });
});

afterAll(async () => {
  for (const fm of clients) await fm.close();
  await emu.close();
});

/** A token straight from the emulator, logged in without the runtime. */
async function rawLogin(): Promise<string> {
  const res = await fetch(`${emu.url}/fmi/data/vLatest/databases/${DATABASE}/sessions`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString("base64")}`, "content-type": "application/json" },
    body: "{}",
  });
  const body = (await res.json()) as { response: { token: string } };
  return body.response.token;
}

describe("one login per client", () => {
  it("100 concurrent first calls on a new client log in exactly once", async () => {
    const contacts = newClient().layout(Contact);
    const { result, requests, logins } = await counting(emu, () => Promise.all(Array.from({ length: 100 }, () => contacts.list({ limit: 1 }))));
    expect(logins).toBe(1);
    expect(requests).toBe(101);
    expect(result.every((page) => page.data.length === 1)).toBe(true);
  });

  it("concurrent first calls through two layouts of one client share the one login", async () => {
    const fm = newClient();
    const contacts = fm.layout(Contact);
    const invoices = fm.layout(Invoice);
    const { logins, requests } = await counting(emu, () =>
      Promise.all([...Array.from({ length: 25 }, () => contacts.get(1)), ...Array.from({ length: 25 }, () => invoices.get(1))]),
    );
    expect(logins).toBe(1);
    expect(requests).toBe(51);
  });

  it("later calls reuse the token: no login, one request each", async () => {
    const contacts = newClient().layout(Contact);
    await contacts.get(1);
    const { logins, requests } = await counting(emu, async () => {
      for (let i = 0; i < 5; i++) await contacts.get(1);
    });
    expect(logins).toBe(0);
    expect(requests).toBe(5);
  });
});

describe("token expiry on the server (code 952)", () => {
  it("after 16 minutes of emulator time a call succeeds after one transparent re-login", async () => {
    const contacts = newClient().layout(Contact);
    await contacts.get(1);
    emu.advanceTime(16 * MINUTE);
    const { result, logins, requests } = await counting(emu, () => contacts.get(1));
    expect(result.fieldData["First Name"]).toBe("Ada");
    expect(logins).toBe(1);
    // The 952 answer, the login, the call sent again.
    expect(requests).toBe(3);
    // And the fresh token keeps working.
    const next = await counting(emu, () => contacts.get(2));
    expect(next.logins).toBe(0);
    expect(next.requests).toBe(1);
  });

  it("50 concurrent calls that all meet an expired token share one re-login", async () => {
    const contacts = newClient().layout(Contact);
    await contacts.get(1);
    emu.advanceTime(16 * MINUTE);
    const { result, logins, requests } = await counting(emu, () => Promise.all(Array.from({ length: 50 }, () => contacts.get(2))));
    expect(result.every((r) => r.fieldData["First Name"] === "Grace")).toBe(true);
    expect(logins).toBe(1);
    expect(requests).toBe(50 + 1 + 50);
  });

  it("a write meeting an expired token is sent again after the re-login and applies once", async () => {
    const contacts = newClient().layout(Contact);
    await contacts.get(1);
    emu.advanceTime(16 * MINUTE);
    const before = emu.stats().records[DATABASE]!["Contacts"]!;
    const { result, logins } = await counting(emu, () => contacts.create({ fieldData: { "First Name": "Expired", Email: "expired-write@example.com" } }));
    expect(logins).toBe(1);
    expect(emu.stats().records[DATABASE]!["Contacts"]).toBe(before + 1);
    expect((await contacts.get(result.recordId)).fieldData.Email).toBe("expired-write@example.com");
    await contacts.delete(result.recordId);
  });

  it("a client holding only a token uses it, and cannot log in again once it has expired", async () => {
    const token = await rawLogin();
    const contacts = newClient({ auth: { token } }).layout(Contact);
    const first = await counting(emu, () => contacts.get(1));
    expect(first.logins).toBe(0);
    expect(first.requests).toBe(1);
    emu.advanceTime(16 * MINUTE);
    const { logins } = await counting(emu, async () => {
      await expect(contacts.get(1)).rejects.toBeInstanceOf(InvalidTokenError);
    });
    expect(logins).toBe(0);
  });

  it("a client holding only a token, once logged out, says it cannot log in again and sends nothing", async () => {
    const fm = newClient({ auth: { token: await rawLogin() } });
    await fm.logout();
    const { logins, requests } = await counting(emu, async () => {
      await expect(fm.layout(Contact).get(1)).rejects.toThrow(new Error("this client's token was logged out, and the client has no credentials to log in again"));
    });
    expect(logins).toBe(0);
    expect(requests).toBe(0);
  });
});

describe("client-side idle refresh", () => {
  it("past idleRefreshMs of the client's clock the next call logs in first, with no failed round trip", async () => {
    let fakeNow = 1_000_000;
    const contacts = newClient({ now: () => fakeNow, idleRefreshMs: 5 * MINUTE }).layout(Contact);
    await contacts.get(1);

    fakeNow += 4 * MINUTE;
    const within = await counting(emu, () => contacts.get(1));
    expect(within.logins).toBe(0);
    expect(within.requests).toBe(1);

    // Each successful call resets the idle clock: 4 more minutes are still within the limit.
    fakeNow += 4 * MINUTE;
    const reset = await counting(emu, () => contacts.get(1));
    expect(reset.logins).toBe(0);
    expect(reset.requests).toBe(1);

    fakeNow += 5 * MINUTE + 1;
    const past = await counting(emu, () => contacts.get(1));
    expect(past.logins).toBe(1);
    // The login and the call: no 952 answer in between (the emulator's token was still valid).
    expect(past.requests).toBe(2);
  });

  it("100 concurrent calls past the idle limit share one fresh login", async () => {
    let fakeNow = 0;
    const contacts = newClient({ now: () => fakeNow, idleRefreshMs: MINUTE }).layout(Contact);
    await contacts.get(1);
    fakeNow += MINUTE + 1;
    const { logins, requests } = await counting(emu, () => Promise.all(Array.from({ length: 100 }, () => contacts.get(1))));
    expect(logins).toBe(1);
    expect(requests).toBe(101);
  });
});

describe("streams across a lost token", () => {
  async function expectedActive(): Promise<string[]> {
    const fm = newClient();
    const page = await fm.layout(Contact).find({ query: [{ Status: "Active" }], limit: 1000 });
    return page.data.map((r) => r.recordId);
  }

  it("findAll completes with no record duplicated or missing when the token expires mid-iteration", async () => {
    const expected = await expectedActive();
    expect(expected).toHaveLength(3 + EXTRA_ACTIVE);
    const contacts = newClient().layout(Contact);
    const seen: string[] = [];
    const { logins } = await counting(emu, async () => {
      for await (const record of contacts.findAll({ query: [{ Status: "Active" }], sort: [{ fieldName: "id", sortOrder: "ascend" }], pageSize: 4 })) {
        seen.push(record.recordId);
        if (seen.length === 5) emu.advanceTime(16 * MINUTE);
      }
    });
    expect(seen).toEqual(expected);
    // The first login and exactly one re-login.
    expect(logins).toBe(2);
  });

  it("findAll completes with no record duplicated or missing when the client logs out mid-iteration", async () => {
    const expected = await expectedActive();
    const fm = newClient();
    const contacts = fm.layout(Contact);
    const seen: string[] = [];
    const activeBefore = emu.stats().activeSessions;
    for await (const record of contacts.findAll({ query: [{ Status: "Active" }], sort: [{ fieldName: "id", sortOrder: "ascend" }], pageSize: 3 })) {
      seen.push(record.recordId);
      if (seen.length === 4) {
        await fm.logout();
        expect(emu.stats().activeSessions).toBe(activeBefore);
      }
    }
    expect(seen).toEqual(expected);
  });

  it("listAll completes with every record once when the token expires mid-iteration", async () => {
    const all = (await newClient().layout(Contact).list({ limit: 1000 })).data.map((r) => r.recordId);
    const contacts = newClient().layout(Contact);
    const seen: string[] = [];
    for await (const record of contacts.listAll({ pageSize: 5 })) {
      seen.push(record.recordId);
      if (seen.length === 7 || seen.length === 17) emu.advanceTime(16 * MINUTE);
    }
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("collect helper sanity: findAll with no match yields nothing", async () => {
    const contacts = newClient().layout(Contact);
    expect(await collect(contacts.findAll({ query: [{ "First Name": "Nobody At All" }] }))).toEqual([]);
  });
});

describe("logout", () => {
  it("ends the server session; the next call logs in again", async () => {
    const fm = newClient();
    const contacts = fm.layout(Contact);
    await contacts.get(1);
    const active = emu.stats().activeSessions;
    await fm.logout();
    expect(emu.stats().activeSessions).toBe(active - 1);
    const { logins, requests } = await counting(emu, () => contacts.get(1));
    expect(logins).toBe(1);
    expect(requests).toBe(2);
  });

  it("is a no-op before any login and after a logout", async () => {
    const fm = newClient();
    const { requests } = await counting(emu, async () => {
      await fm.logout();
      await fm.logout();
    });
    expect(requests).toBe(0);
  });

  it("of an already expired token is not an error", async () => {
    const fm = newClient();
    await fm.layout(Contact).get(1);
    emu.advanceTime(16 * MINUTE);
    await expect(fm.logout()).resolves.toBeUndefined();
  });

  it("close() logs out", async () => {
    const fm = connect(emu.url);
    await fm.layout(Contact).get(1);
    const active = emu.stats().activeSessions;
    await fm.close();
    expect(emu.stats().activeSessions).toBe(active - 1);
  });
});
