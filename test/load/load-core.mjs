// The load run shared by test/load/load.test.ts (scaled down, in the suite) and test/load/load.mjs (full
// size, by hand): `clients` concurrent clients, each doing `opsPerClient` creates, edits with modId and
// deletes against one emulator on 127.0.0.1. It checks that no update is lost (every 306 and 101 is a real
// conflict), that no record is lost or duplicated, and measures memory before and after.

const mib = (n) => Math.round((n / 1024 / 1024) * 10) / 10;
function memory() {
  globalThis.gc?.();
  const m = process.memoryUsage();
  return { rssMiB: mib(m.rss), heapUsedMiB: mib(m.heapUsed) };
}

/**
 * @param {{ runtime: any, startEmulator: any, seededRandom: (seed: number) => () => number, layoutsDir: string, clients: number, opsPerClient: number, seed?: number, faults?: object }} options
 */
export async function runLoad({ runtime, startEmulator, seededRandom, layoutsDir, clients, opsPerClient, seed = 1, faults }) {
  const { createClient, defineLayout, ModIdMismatchError, RecordMissingError } = runtime;
  const Contact = defineLayout({
    layout: "Contacts Web",
    database: "Contacts",
    fields: {
      id: { type: "number", readOnly: true },
      "First Name": { type: "text" },
      "Last Name": { type: "text" },
      Email: { type: "text" },
      Status: { type: "text", valueList: ["Active", "Inactive"] },
      Birthday: { type: "date" },
      "Wake Up": { type: "time" },
      Created: { type: "timestamp", readOnly: true },
      Modified: { type: "timestamp", readOnly: true },
      Photo: { type: "container" },
      Phone: { type: "text", repetitions: 3 },
      "Company::Name": { type: "text" },
    },
    portals: { Invoices: { fields: { "Invoices::Amount": { type: "number" }, "Invoices::Issued": { type: "date" } } } },
  });
  const before = memory();
  const emu = await startEmulator({ layouts: [layoutsDir], accounts: [{ username: "load", password: "load-pw" }], host: "127.0.0.1", port: 0, ...(faults ? { faults } : {}) });
  const afterStart = memory();

  /** recordId -> the highest modId a successful call has returned, and the value that edit wrote. */
  const live = new Map();
  const created = new Set();
  const deleted = new Set();
  /** recordId -> modIds returned by successful edits: a repeat would be a lost update. */
  const returned = new Map();
  const conflicts = [];
  const missing = [];
  const counts = { create: 0, edit: 0, delete: 0, conflict306: 0, missing101: 0, lostUpdates: 0, otherErrors: 0 };
  const errors = [];

  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const random = seededRandom(seed * 1000 + c);
      const fm = createClient({ server: emu.url, database: "Contacts", auth: { username: "load", password: "load-pw" }, retry: { retries: 8, baseDelayMs: 1, maxDelayMs: 8 } });
      const contacts = fm.layout(Contact);
      for (let op = 0; op < opsPerClient; op++) {
        const r = random();
        const ids = [...live.keys()];
        const pick = ids[Math.floor(random() * ids.length)];
        try {
          if (ids.length < 20 || r < 0.3) {
            const { recordId, modId } = await contacts.create({ fieldData: { "First Name": `C${c}`, Email: `c${c}-${op}@load.test` } });
            if (created.has(recordId)) throw new Error(`record id ${recordId} handed out twice`);
            created.add(recordId);
            live.set(recordId, { modId: Number(modId), value: "" });
            returned.set(recordId, new Set());
            counts.create++;
          } else if (r < 0.85) {
            const sent = live.get(pick).modId;
            const value = `c${c}-op${op}`;
            try {
              const { modId } = await contacts.edit(pick, { fieldData: { "Last Name": value }, modId: String(sent) });
              const got = Number(modId);
              if (got !== sent + 1) throw new Error(`edit of ${pick} from modId ${sent} returned ${got}`);
              const seen = returned.get(pick);
              if (seen.has(got)) counts.lostUpdates++;
              seen.add(got);
              const entry = live.get(pick);
              if (entry && got > entry.modId) live.set(pick, { modId: got, value });
              counts.edit++;
            } catch (error) {
              if (error instanceof ModIdMismatchError) {
                counts.conflict306++;
                conflicts.push({ id: pick, sent });
              } else throw error;
            }
          } else {
            await contacts.delete(pick);
            if (deleted.has(pick)) throw new Error(`record ${pick} deleted twice`);
            deleted.add(pick);
            live.delete(pick);
            counts.delete++;
          }
        } catch (error) {
          if (error instanceof RecordMissingError) {
            counts.missing101++;
            missing.push(pick);
          } else {
            counts.otherErrors++;
            if (errors.length < 5) errors.push(String(error));
          }
        }
      }
      await fm.close().catch(() => undefined);
    }),
  );
  const ms = performance.now() - started;
  const afterRun = memory();

  // Every 306 was real: some successful edit moved that record past the modId the edit carried.
  const fake306 = conflicts.filter(({ id, sent }) => !([...(returned.get(id) ?? [])].some((m) => m > sent) || deleted.has(id))).length;
  // Every 101 was real: the record had been deleted.
  const fake101 = missing.filter((id) => !deleted.has(id)).length;

  // What the emulator holds is exactly what was created and not deleted, each with its last edit.
  const reader = createClient({ server: emu.url, database: "Contacts", auth: { username: "load", password: "load-pw" } });
  const stored = new Map();
  for await (const record of reader.layout(Contact).listAll({ pageSize: 1000 })) stored.set(record.recordId, record);
  await reader.close();
  const expectedIds = [...created].filter((id) => !deleted.has(id));
  const lostRecords = expectedIds.filter((id) => !stored.has(id)).length;
  const extraRecords = [...stored.keys()].filter((id) => !live.has(id)).length;
  const emails = new Set([...stored.values()].map((r) => r.fieldData.Email));
  const duplicatedRecords = stored.size - emails.size;
  let wrongValues = 0;
  for (const id of expectedIds) {
    const want = live.get(id);
    const got = stored.get(id);
    if (got && (Number(got.modId) !== want.modId || got.fieldData["Last Name"] !== want.value)) wrongValues++;
  }
  const stats = emu.stats();
  await emu.close();
  return {
    clients,
    opsPerClient,
    operations: clients * opsPerClient,
    ms: Math.round(ms),
    opsPerSecond: Math.round((clients * opsPerClient) / (ms / 1000)),
    counts,
    fake306,
    fake101,
    lostRecords,
    extraRecords,
    duplicatedRecords,
    wrongValues,
    storedRecords: stored.size,
    emulator: { requests: stats.requests, logins: stats.logins, activeSessionsAtEnd: stats.activeSessions },
    memory: { before, afterStart, afterRun },
    errors,
  };
}
