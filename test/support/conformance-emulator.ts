import { readFileSync } from "node:fs";
import { startEmulator } from "../../src/emulator/index.js";
import { CONFORMANCE_LAYOUTS, CONFORMANCE_SEED, DataApi } from "./data-api-http.js";

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;
export type EmulatorOptions = Parameters<typeof startEmulator>[0];

/** The conformance fixtures' seed object (a fresh copy each call, so callers may extend it). */
export function conformanceSeed(): {
  accounts: { username: string; password: string; privileges: string[] }[];
  records: Record<string, Record<string, string | number>[]>;
} {
  return JSON.parse(readFileSync(CONFORMANCE_SEED, "utf8"));
}

/**
 * An emulator on a free loopback port, fed by the conformance fixtures (layouts folder and seed file)
 * unless `overrides` replaces them, and a `DataApi` speaking to it under `vLatest`.
 */
export async function startConformanceEmulator(
  overrides: Partial<EmulatorOptions> = {},
): Promise<{ emu: Emulator; api: DataApi }> {
  const options = { layouts: [CONFORMANCE_LAYOUTS], data: CONFORMANCE_SEED, port: 0, ...overrides } as EmulatorOptions;
  const emu = await startEmulator(options);
  return { emu, api: new DataApi(emu.url) };
}
