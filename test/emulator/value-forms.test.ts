import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator/index.js";
import type { LayoutDescriptionInput } from "../../src/layout/index.js";
import { DataApi, expectError } from "../support/data-api-http.js";

// Every rejection of a value names the form it wants (issue 22): seed data, a create or edit (in the call's
// dateformats), a global field, a find criterion. A new user who writes "2024-03-15" into a US date field learns
// from the message that the field wants "MM/DD/YYYY", as the app-side error tells them.

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

const DB = "Forms";
const LAYOUT = "Events";
const USER = { username: "web", password: "secret" };
const events: LayoutDescriptionInput = {
  database: DB,
  layout: LAYOUT,
  table: "Events",
  fields: [
    { name: "Day", type: "date" },
    { name: "At", type: "time" },
    { name: "Stamp", type: "timestamp" },
    { name: "Count", type: "number" },
    { name: "G", type: "date", global: true },
  ],
};

describe("seed data that does not decode names the form", () => {
  it.each([
    ["Day", "2024-03-15", '"2024-03-15" is not a valid date (expected "MM/DD/YYYY")'],
    ["At", "noon", '"noon" is not a valid time (expected "HH:MM:SS")'],
    ["Stamp", "03/15/2024", '"03/15/2024" is not a valid timestamp (expected "MM/DD/YYYY HH:MM:SS")'],
    ["Count", "five", '"five" is not a valid number (expected a number)'],
  ])("%s", async (field, value, message) => {
    const data = { records: { Events: [{ [field]: value }] } };
    await expect(startEmulator({ layouts: [events], data, accounts: [USER], port: 0 })).rejects.toThrowError(`records.Events[0]["${field}"]: ${message}`);
  });
});

describe("a request's value that does not decode names the form", () => {
  let emu: Emulator;
  let api: DataApi;
  let token: string;
  beforeAll(async () => {
    emu = await startEmulator({ layouts: [events], accounts: [USER], port: 0 });
    api = new DataApi(emu.url);
    token = await api.login(USER.username, USER.password, DB);
  });
  afterAll(() => emu.close());

  const message = (res: Awaited<ReturnType<DataApi["create"]>>) => (res.body.messages as { message: string }[])[0]!.message;

  it("a create, in US dates and in ISO dates", async () => {
    const us = await api.create(token, LAYOUT, { fieldData: { Day: "2024-03-15" } }, DB);
    expectError(us, 400, "500");
    expect(message(us)).toContain('"2024-03-15" is not a valid date for "Day" (expected "MM/DD/YYYY")');
    const iso = await api.create(token, LAYOUT, { fieldData: { Stamp: "03/15/2024 10:00:00" }, dateformats: 2 }, DB);
    expectError(iso, 400, "500");
    expect(message(iso)).toContain('(expected "YYYY-MM-DD HH:MM:SS")');
  });

  it("a global field", async () => {
    const res = await api.call("PATCH", `/databases/${DB}/globals`, { token, json: { globalFields: { "Events::G": "tomorrow" } } });
    expect(message(res)).toContain('"tomorrow" is not a valid date for "Events::G" (expected "MM/DD/YYYY")');
  });

  it("a find criterion", async () => {
    const res = await api.find(token, LAYOUT, { query: [{ Day: "15.03.2024" }] }, DB);
    expect(message(res)).toContain('find criterion "15.03.2024" is not a valid date (expected "MM/DD/YYYY"');
  });
});
