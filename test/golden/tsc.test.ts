import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { goldenPath } from "./golden-sets.js";

const tsc = goldenPath("../../node_modules/.bin/tsc");

describe("the TypeScript compiler", () => {
  it(
    "accepts every golden file, the examples' generated code, the templates and src/runtime under strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess and noUnusedLocals",
    async () => {
      // tsc -b: after `npm run typecheck` (which builds this project too) an unchanged set is not checked again; the
      // errors of a set that has any are reported on every run.
      const result = await promisify(execFile)(tsc, ["-b", goldenPath("./tsconfig.json"), "--pretty", "false"]).then(
        () => ({ code: 0, output: "" }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: `${error.stdout}${error.stderr}` }),
      );
      expect(result.output).toBe("");
      expect(result.code).toBe(0);
    },
    60_000,
  );
});
