import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator, ScriptHandlers } from "../../../src/emulator/index.js";
import { ScriptMissingError, type ODataClient } from "../../../src/runtime/odata/index.js";
import { startOffice } from "../../emulator/odata/serve-support.js";
import { officeClient } from "./support.js";

// od.runScript against the emulator's JavaScript handlers: parameters of each kind, a failing script as data, a missing
// script as an error, and names FileMaker Server cannot route refused before sending.

const calls: string[] = [];
const scripts: ScriptHandlers = {
  Echo: ({ param }) => {
    calls.push(param);
    return `got ${param}`;
  },
  Nothing: () => undefined,
  Fails: () => ({ error: 3 }),
};
let emu: RunningEmulator;
let od: ODataClient<"Office">;
beforeAll(async () => {
  emu = await startOffice(1, { scripts });
  od = officeClient(emu.url);
});
afterAll(async () => {
  await od?.close();
  await emu?.close();
});
const run: ODataClient["runScript"] = (name, options) => od.runScript(name, options);

describe("od.runScript", () => {
  it("passes a string, a number or an object, and resolves to { code, result }", async () => {
    expect(await run("Echo", { param: "hello world" })).toEqual({ code: 0, result: "got hello world" });
    expect(await run("Echo", { param: 42 })).toEqual({ code: 0, result: "got 42" });
    expect(await run("Echo", { param: { id: 7, tags: ["a"] } })).toEqual({ code: 0, result: 'got {"id":7,"tags":["a"]}' });
    expect(await run("Echo")).toEqual({ code: 0, result: "got " });
    expect(await run("Nothing")).toEqual({ code: 0 });
    expect(calls).toEqual(["hello world", "42", '{"id":7,"tags":["a"]}', ""]);
  });

  it("a failing script is data: its FileMaker error code", async () => {
    expect(await run("Fails")).toEqual({ code: 3 });
  });

  it("a missing script is an error with code 104", async () => {
    const error = await run("Nope").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScriptMissingError);
    expect(error).toMatchObject({ code: "104", httpStatus: 404, call: { method: "POST", path: "/Script.Nope" } });
  });

  it("refuses names FileMaker Server cannot route, and bad params, before sending", async () => {
    const before = calls.length;
    await expect(run("1st")).rejects.toThrow(/cannot run the script "1st" over OData: it starts with a digit/);
    for (const name of ["a@b", "a&b", "a/b", "a?b", "a#b"]) await expect(run(name)).rejects.toThrow(TypeError);
    await expect(run("")).rejects.toThrow(/non-empty string/);
    await expect(run("Echo", { param: Number.NaN })).rejects.toThrow(/param must be a string, a finite number or an object, not NaN/);
    await expect(run("Echo", { param: [1] as never })).rejects.toThrow(/not an array/);
    expect(calls.length).toBe(before);
  });
});
