import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContactRecord } from "../../examples/contacts/generated/index.js";
import { ContactSchema } from "../../examples/contacts/generated/schemas.js";
import { defineLayout, type FileMakerClient } from "../../src/runtime/index.js";
import { recordSchema } from "../../src/runtime/schema.js";
import { connect, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { Contact } from "../support/runtime-layouts.js";

// `<Name>Schema` (recordSchema): the zod schema of a record as the runtime returns it, for records that come back
// from elsewhere (a cache, a queue). What the runtime decodes must pass; anything it could not have produced fails.

let emu: Emulator;
let fm: FileMakerClient;
let records: ContactRecord[];

beforeAll(async () => {
  emu = await startRuntimeEmulator();
  fm = connect(emu.url);
  records = (await fm.layout(Contact).list()).data;
});
afterAll(async () => {
  await fm.close();
  await emu.close();
});

describe("recordSchema", () => {
  it("accepts every record the runtime decoded, portal rows included", () => {
    expect(records.length).toBeGreaterThan(0);
    expect(records.some((r) => r.portalData.Invoices.length > 0)).toBe(true);
    for (const record of records) expect(ContactSchema.safeParse(record).success, record.recordId).toBe(true);
    // A record through JSON and back (as a cache would keep it) still passes.
    expect(ContactSchema.safeParse(JSON.parse(JSON.stringify(records[0]))).success).toBe(true);
  });

  const broken: [string, (r: ContactRecord) => unknown][] = [
    ["a wire date instead of an ISO date", (r) => ({ ...r, fieldData: { ...r.fieldData, Birthday: "12/10/1815" } })],
    ["a date that is not in the calendar", (r) => ({ ...r, fieldData: { ...r.fieldData, Birthday: "2023-02-29" } })],
    ["a time past midnight", (r) => ({ ...r, fieldData: { ...r.fieldData, "Wake Up": "24:00:00" } })],
    ["a timestamp with a zone", (r) => ({ ...r, fieldData: { ...r.fieldData, Created: "2024-01-02T03:04:05Z" } })],
    ["a value outside the value list", (r) => ({ ...r, fieldData: { ...r.fieldData, Status: "Gone" } })],
    ["a number as a string", (r) => ({ ...r, fieldData: { ...r.fieldData, id: "1" } })],
    ["two repetitions of three", (r) => ({ ...r, fieldData: { ...r.fieldData, Phone: ["a", "b"] } })],
    ["a missing field", (r) => ({ ...r, fieldData: Object.fromEntries(Object.entries(r.fieldData).filter(([k]) => k !== "Email")) })],
    ["a numeric recordId", (r) => ({ ...r, recordId: 1 })],
    ["a portal row without its ids", (r) => ({ ...r, portalData: { Invoices: [{ "Invoices::Amount": 1, "Invoices::Issued": null }] } })],
  ];
  it.each(broken)("refuses %s", (_, breakIt) => {
    expect(ContactSchema.safeParse(breakIt(records[0]!)).success).toBe(false);
  });

  it("keeps a field named __proto__ as a field", () => {
    const Odd = defineLayout({ layout: "Odd", fields: { ["__proto__"]: { type: "date" }, n: { type: "number" } } });
    const fieldData = JSON.parse('{"__proto__": "2024-02-29", "n": 1}') as Record<string, unknown>;
    expect(recordSchema(Odd).safeParse({ recordId: "1", modId: "0", fieldData, portalData: {} }).success).toBe(true);
    const bad = JSON.parse('{"__proto__": "2023-02-29", "n": 1}') as Record<string, unknown>;
    expect(recordSchema(Odd).safeParse({ recordId: "1", modId: "0", fieldData: bad, portalData: {} }).success).toBe(false);
  });
});
