import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SWEEP_EVERY_MS } from "../../src/emulator/data-api/sessions.js";
import { startConformanceEmulator, type Emulator } from "../support/conformance-emulator.js";
import { CONTACTS, type DataApi, expectError, expectOk } from "../support/data-api-http.js";

// Expired sessions are swept, not kept until their token is used again: memory is counted as the sessions the
// emulator holds (stats().heldSessions), on the emulator's own clock (advanceTime), never by waiting. A login sweeps
// when a minute of that clock has passed since the last sweep; an unref'd timer does the same for an idle emulator,
// and close() stops it.

const MINUTE = 60_000;
const LOGINS = 300;

let emu: Emulator;
let api: DataApi;

beforeEach(async () => {
  ({ emu, api } = await startConformanceEmulator());
});
afterEach(async () => {
  await emu.close();
});

async function loginMany(count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i += 25) tokens.push(...(await Promise.all(Array.from({ length: Math.min(25, count - i) }, () => api.login()))));
  return tokens;
}

describe("expired sessions are swept", () => {
  it(`${LOGINS} sessions left to expire are not held after the next login`, async () => {
    await loginMany(LOGINS);
    expect(emu.stats()).toMatchObject({ activeSessions: LOGINS, heldSessions: LOGINS });
    emu.advanceTime(16 * MINUTE);
    expect(emu.stats().activeSessions).toBe(0);
    const token = await api.login();
    expect(emu.stats()).toMatchObject({ activeSessions: 1, heldSessions: 1 });
    expectOk(await api.list(token, CONTACTS, { _limit: 1 }));
  });

  it("a sweep takes only expired sessions: one idle 14 minutes stays and still works, one idle 16 minutes is gone (952)", async () => {
    const old = await api.login();
    emu.advanceTime(2 * MINUTE);
    const recent = await api.login();
    emu.advanceTime(14 * MINUTE);
    await api.login();
    expect(emu.stats()).toMatchObject({ activeSessions: 2, heldSessions: 2 });
    expectOk(await api.list(recent, CONTACTS, { _limit: 1 }));
    expectError(await api.list(old, CONTACTS, { _limit: 1 }), 401, "952");
  });

  it("a login sweeps at most once a minute of the emulator's clock: expired sessions stay held a minute at most", async () => {
    await loginMany(50);
    emu.advanceTime(15 * MINUTE - 30_000);
    await loginMany(50); // sweeps (nothing has expired yet): the last sweep is now
    emu.advanceTime(45_000);
    // The first 50 expired 15 s ago; the last sweep was 45 s ago, so this login does not sweep.
    await api.login();
    expect(emu.stats()).toMatchObject({ activeSessions: 51, heldSessions: 101 });
    emu.advanceTime(15_000);
    await api.login();
    expect(emu.stats()).toMatchObject({ activeSessions: 52, heldSessions: 52 });
  });
});

describe("the sweep timer", () => {
  // process.getActiveResourcesInfo() does not list unref'd timers, so the timer is watched where it is made.
  it("does not keep the process alive (unref'd), and close() clears it", async () => {
    const set = vi.spyOn(globalThis, "setInterval");
    const clear = vi.spyOn(globalThis, "clearInterval");
    try {
      const another = await startConformanceEmulator();
      const made = set.mock.calls.findIndex(([, ms]) => ms === SWEEP_EVERY_MS);
      expect(made).toBeGreaterThanOrEqual(0);
      const sweeper = set.mock.results[made]!.value as NodeJS.Timeout;
      expect(sweeper.hasRef()).toBe(false);
      expect(clear).not.toHaveBeenCalledWith(sweeper);
      await another.emu.close();
      expect(clear).toHaveBeenCalledWith(sweeper);
    } finally {
      set.mockRestore();
      clear.mockRestore();
    }
  });
});
