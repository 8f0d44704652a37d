import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { FaultPlan, seededRandom, type FaultKind, type FaultOptions } from "../../src/emulator/http/faults.js";
import { CapacityError, FileMakerError, NetworkError, ProtocolError } from "../../src/runtime/index.js";
import { connect, counting, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { Contact, PASSWORD, USERNAME } from "../support/runtime-layouts.js";

// Fault injection in the emulator and the runtime's behaviour under it. Everything runs on 127.0.0.1 with
// bounded counts; fast retries (1-4 ms backoff) keep the runs to seconds.

const FAST_RETRY = { retries: 8, baseDelayMs: 1, maxDelayMs: 4 };
/**
 * 20 % of requests meet a fault. Revocations and restarts kill the one token every in-flight call shares, so with a
 * dozen calls in flight they get a small share: at 4 % a token rarely outlived a round of calls, and a call could
 * meet nine dead tokens in a row under CPU load (a real server revokes tokens far more rarely than it drops packets).
 */
const TWENTY_PERCENT = { drop: 0.05, html: 0.05, truncate: 0.048, revoke: 0.01, capacity812: 0.02, capacity956: 0.02, restart: 0.002 };
const running: Emulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((emu) => emu.close()));
});

const SEED_TIME = new Date("2026-03-02T09:30:00Z");

async function start(faults?: FaultOptions, seedContacts = 0): Promise<Emulator> {
  const { exampleSeed } = await import("../support/runtime-emulator.js");
  const data = exampleSeed();
  for (let i = 0; i < seedContacts; i++) {
    data.records.Contacts!.push({ "First Name": `P${i}`, "Last Name": `L${i % 7}`, Email: `p${i}@example.com`, Status: i % 3 === 0 ? "Inactive" : "Active" });
  }
  // One start time for every emulator: a clean and a faulty one started a second apart under load would
  // otherwise stamp different creation timestamps into the same seed, and compare unequal.
  const emu = await startRuntimeEmulator({ data, startTime: SEED_TIME, ...(faults ? { faults } : {}) });
  running.push(emu);
  return emu;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request; rejects when the connection fails or the body is cut short. */
function raw(url: string, method: string, headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { connection: "close", ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("aborted", () => reject(new Error("aborted")));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const declared = Number(res.headers["content-length"]);
        if (Number.isFinite(declared) && Buffer.byteLength(text) < declared) reject(new Error("truncated"));
        else resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

const basic = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString("base64")}`;

async function login(emu: Emulator): Promise<string> {
  const api = `${emu.url}/fmi/data/vLatest/databases/Contacts`;
  for (let i = 0; i < 50; i++) {
    const res = await raw(`${api}/sessions`, "POST", { authorization: basic, "content-type": "application/json" }, "{}").catch(() => undefined);
    if (res?.status === 200) return JSON.parse(res.body).response.token as string;
  }
  throw new Error("no login");
}

describe("the fault plan", () => {
  it("is deterministic for a seed and differs between seeds", () => {
    const draw = (seed: number) => {
      const plan = new FaultPlan({ seed, rate: 0.3, latencyMs: { min: 0, max: 2 } });
      return Array.from({ length: 200 }, () => [plan.next()?.kind ?? "-", plan.next()?.phase ?? "-", plan.nextLatency().toFixed(3)].join());
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    const r = seededRandom(1);
    const values = Array.from({ length: 1000 }, r);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
  });

  it("plays each kind at about its rate", () => {
    const plan = new FaultPlan({ seed: 3, rate: 0.2 });
    let faults = 0;
    for (let i = 0; i < 20_000; i++) if (plan.next()) faults++;
    expect(faults / 20_000).toBeGreaterThan(0.18);
    expect(faults / 20_000).toBeLessThan(0.22);
    for (const n of Object.values(plan.counts)) expect(n).toBeGreaterThan(400);
  });

  it("refuses unknown kinds and rates outside [0, 1]", () => {
    expect(() => new FaultPlan({ kinds: ["nope" as FaultKind] })).toThrow(/unknown fault kind/);
    expect(() => new FaultPlan({ rates: { drop: 2 } })).toThrow(/\[0, 1\]/);
    expect(() => new FaultPlan({ rates: { drop: 0.6, html: 0.6 } })).toThrow(/more than 1/);
  });

  it("the same seed and request order give the same faults on a running emulator", async () => {
    const run = async () => {
      const emu = await start({ seed: 42, rate: 0.5, kinds: ["html", "capacity812", "capacity956"] });
      const token = await login(emu);
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const res = await raw(`${emu.url}/fmi/data/vLatest/databases/Contacts/layouts/Contacts%20Web/records/1`, "GET", { authorization: `Bearer ${token}` });
        statuses.push(res.status);
      }
      return statuses;
    };
    const a = await run();
    expect(await run()).toEqual(a);
    expect(new Set(a).size).toBeGreaterThan(1);
  });
});

describe("each fault kind", () => {
  const path = "/fmi/data/vLatest/databases/Contacts/layouts/Contacts%20Web/records";

  /** An emulator and a live token, then every request meets `kind`. */
  async function only(kind: FaultKind, afterRate = 0): Promise<{ emu: Emulator; token: string }> {
    const emu = await start();
    const token = await login(emu);
    emu.setFaults({ rates: { [kind]: 1 }, afterRate });
    return { emu, token };
  }

  it("drop: the connection closes without an answer", async () => {
    const { emu } = await only("drop");
    await expect(raw(`${emu.url}${path}/1`, "GET")).rejects.toThrow();
    expect(emu.stats().faults.drop).toBe(1);
  });

  it("html: a 502 with an HTML page", async () => {
    const { emu } = await only("html");
    const res = await raw(`${emu.url}${path}/1`, "GET");
    expect(res.status).toBe(502);
    expect(res.headers["content-type"]).toBe("text/html");
    expect(res.body).toMatch(/^<html>/);
  });

  it("truncate: a Content-Length larger than the bytes sent, then the connection ends", async () => {
    const { emu } = await only("truncate");
    await expect(raw(`${emu.url}${path}/1`, "GET")).rejects.toThrow();
  });

  it("capacity812 / capacity956: HTTP 503 / 500 with the code", async () => {
    for (const [kind, status, code] of [["capacity812", 503, "812"], ["capacity956", 500, "956"]] as const) {
      const { emu } = await only(kind);
      const res = await raw(`${emu.url}${path}/1`, "GET");
      expect(res.status).toBe(status);
      expect(JSON.parse(res.body).messages[0].code).toBe(code);
    }
  });

  it("revoke: 952 and the token is forgotten; restart: 952 and every session is gone", async () => {
    for (const kind of ["revoke", "restart"] as const) {
      const { emu, token } = await only(kind);
      expect(emu.stats().activeSessions).toBe(1);
      const res = await raw(`${emu.url}${path}/1`, "GET", { authorization: `Bearer ${token}` });
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body).messages[0].code).toBe("952");
      expect(emu.stats().activeSessions).toBe(0);
    }
  });

  it("a fault after a write: the record exists, the client saw no answer", async () => {
    for (const kind of ["drop", "html", "truncate"] as const) {
      const { emu, token } = await only(kind, 1);
      const body = JSON.stringify({ fieldData: { "First Name": "X" } });
      const answer = await raw(`${emu.url}${path}`, "POST", { authorization: `Bearer ${token}`, "content-type": "application/json" }, body).catch(() => undefined);
      if (answer) expect(answer.headers["content-type"]).toBe("text/html");
      expect(emu.stats().records.Contacts!.Contacts).toBe(5);
    }
  });

  it("a fault before a write: nothing changes", async () => {
    for (const kind of ["drop", "html", "truncate", "revoke", "restart", "capacity812", "capacity956"] as const) {
      const { emu, token } = await only(kind, 0);
      const body = JSON.stringify({ fieldData: { "First Name": "X" } });
      const answer = await raw(`${emu.url}${path}`, "POST", { authorization: `Bearer ${token}`, "content-type": "application/json" }, body).catch(() => undefined);
      if (answer && answer.headers["content-type"] !== "text/html") expect(JSON.parse(answer.body).messages[0].code).not.toBe("0");
      expect(emu.stats().records.Contacts!.Contacts).toBe(4);
    }
  });

  it("setFaults() without options stops the faults", async () => {
    const { emu, token } = await only("html");
    emu.setFaults();
    const res = await raw(`${emu.url}${path}/1`, "GET", { authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
  });
});

describe("the runtime under faults", () => {
  it("restart() costs one re-login", async () => {
    const emu = await start();
    const fm = connect(emu.url);
    const contacts = fm.layout(Contact);
    await contacts.get(1);
    emu.restart();
    expect(emu.stats().activeSessions).toBe(0);
    const { result, logins } = await counting(emu, () => Promise.all(Array.from({ length: 20 }, (_, i) => contacts.get((i % 4) + 1))));
    expect(result[0]!.fieldData["First Name"]).toBe("Ada");
    expect(logins).toBe(1);
    await fm.close();
  });

  it("capacity codes back off and retry, writes too, without duplicates", async () => {
    const emu = await start({ seed: 5, rates: { capacity812: 0.3, capacity956: 0.3 } });
    const fm = connect(emu.url, { retry: { retries: 30, baseDelayMs: 1, maxDelayMs: 4 } });
    const contacts = fm.layout(Contact);
    const created = await Promise.all(Array.from({ length: 40 }, (_, i) => contacts.create({ fieldData: { "First Name": `Cap${i}` } })));
    expect(new Set(created.map((c) => c.recordId)).size).toBe(40);
    expect(emu.stats().records.Contacts!.Contacts).toBe(44);
    expect(emu.stats().faults.capacity812 + emu.stats().faults.capacity956).toBeGreaterThan(10);
    await fm.close().catch(() => undefined);
  });

  it("a server that stays at capacity ends in CapacityError", async () => {
    const emu = await start({ rates: { capacity812: 1 } });
    const fm = connect(emu.url, { retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    const error = await fm.layout(Contact).get(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CapacityError);
    expect((error as CapacityError).code).toBe("812");
    expect(emu.stats().faults.capacity812).toBe(3); // the login's first attempt and its two retries
  });

  it("20 % faults, 10,000 mixed reads: every result correct", async () => {
    const clean = await start(undefined, 60);
    const faulty = await start({ seed: 2024, rates: TWENTY_PERCENT, latencyMs: { min: 0, max: 2 } }, 60);
    const reference = connect(clean.url).layout(Contact);
    const fm = connect(faulty.url, { retry: FAST_RETRY, timeoutMs: 5_000 });
    const contacts = fm.layout(Contact);

    type Op = () => Promise<unknown>;
    const ops: [Op, Op][] = [];
    for (let id = 1; id <= 64; id++) ops.push([() => contacts.get(id), () => reference.get(id)]);
    for (const [offset, limit] of [[1, 10], [5, 20], [30, 50], [60, 10]] as const) {
      ops.push([() => contacts.list({ offset, limit }), () => reference.list({ offset, limit })]);
      const sort = [{ fieldName: "Last Name" as const, sortOrder: "descend" as const }];
      ops.push([() => contacts.list({ offset, limit, sort }), () => reference.list({ offset, limit, sort })]);
    }
    const finds = [{ Status: "Inactive" as const }, { "Last Name": "L3" }, { "First Name": "Ada" }, { "First Name": "Nobody" }];
    for (const query of finds) ops.push([() => contacts.find({ query: [query] }), () => reference.find({ query: [query] })]);
    const expected = await Promise.all(ops.map(([, ref]) => ref()));

    const random = seededRandom(99);
    const total = 10_000;
    let next = 0;
    let correct = 0;
    const mismatches: number[] = [];
    const worker = async () => {
      while (next < total) {
        next++;
        const i = Math.floor(random() * ops.length);
        const got = await ops[i]![0]();
        if (JSON.stringify(got) === JSON.stringify(expected[i])) correct++;
        else mismatches.push(i);
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: 12 }, worker));
    const ms = performance.now() - started;
    const stats = faulty.stats();
    const played = Object.values(stats.faults).reduce((a, b) => a + b, 0);
    console.info(`[faults] 10,000 reads at 20 %: ${correct} correct, ${stats.requests} requests, ${played} faults ${JSON.stringify(stats.faults)}, ${stats.logins} logins, ${ms.toFixed(0)} ms`);
    expect(mismatches).toEqual([]);
    expect(correct).toBe(total);
    expect(played / stats.requests).toBeGreaterThan(0.15);
    await fm.close().catch(() => undefined);
  }, 60_000);

  it("20 % faults, creates: none duplicated, each failure a typed error", async () => {
    const faulty = await start({ seed: 7, rates: TWENTY_PERCENT, latencyMs: { min: 0, max: 2 } });
    const fm = connect(faulty.url, { retry: FAST_RETRY, timeoutMs: 5_000 });
    const contacts = fm.layout(Contact);
    const total = 600;
    const succeeded = new Map<string, string>(); // email -> recordId
    const failed: { email: string; error: unknown }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < total) {
        const email = `w${next++}@faults.test`;
        try {
          succeeded.set(email, (await contacts.create({ fieldData: { "First Name": "W", Email: email } })).recordId);
        } catch (error) {
          failed.push({ email, error });
        }
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));
    for (const { error } of failed) {
      expect(error instanceof NetworkError || error instanceof ProtocolError || error instanceof FileMakerError).toBe(true);
    }
    // Read everything back (reads retry through the same faults).
    const all = await contacts.list({ limit: 10_000 });
    const byEmail = new Map<string, string[]>();
    for (const r of all.data) byEmail.set(r.fieldData.Email, [...(byEmail.get(r.fieldData.Email) ?? []), r.recordId]);
    const duplicated = [...byEmail].filter(([, ids]) => ids.length > 1);
    expect(duplicated).toEqual([]);
    for (const [email, id] of succeeded) expect(byEmail.get(email)).toEqual([id]);
    const appliedDespiteFailure = failed.filter((f) => byEmail.has(f.email)).length;
    expect(all.data.length).toBe(4 + succeeded.size + appliedDespiteFailure);
    expect(faulty.stats().records.Contacts!.Contacts).toBe(all.data.length);
    console.info(`[faults] ${total} creates at 20 %: ${succeeded.size} ok, ${failed.length} failed (${appliedDespiteFailure} of them applied: answer lost after the write), 0 duplicated`);
    expect(failed.length).toBeGreaterThan(0);
    expect(appliedDespiteFailure).toBeGreaterThan(0);
    await fm.close().catch(() => undefined);
  }, 60_000);
});
