import { expect } from "vitest";
import { ODataError } from "../../../src/emulator/odata/odata-error.js";

/** Runs `fn` and checks it throws ODataError with exactly this status, code and message. */
export function expectODataError(fn: () => unknown, status: number, code: string, message: string | RegExp): ODataError {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, "expected an ODataError").toBeInstanceOf(ODataError);
  const err = thrown as ODataError;
  expect({ status: err.status, code: err.code }).toEqual({ status, code });
  if (typeof message === "string") expect(err.message).toBe(message);
  else expect(err.message).toMatch(message);
  return err;
}

/** Calls `fn`; anything thrown must be an ODataError (the property tests' invariant). */
export function onlyTypedErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof ODataError)) throw e;
    expect(["-1", "-1000", "-1002", "-1014", "-1015", "-1032"]).toContain(e.code);
    expect([400, 404, 413, 414, 500]).toContain(e.status);
  }
}

export const syntax = (at: string): string => `Error: syntax error in URL at: '${at}'`;
