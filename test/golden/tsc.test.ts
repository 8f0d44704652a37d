import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { goldenPath } from "./golden-sets.js";

const tsc = goldenPath("../../node_modules/.bin/tsc");

describe("the TypeScript compiler", () => {
  it(
    "accepts every golden file and the templates under strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess and noUnusedLocals",
    async () => {
      const result = await promisify(execFile)(tsc, ["-p", goldenPath("./tsconfig.json"), "--pretty", "false"]).then(
        () => ({ code: 0, output: "" }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: `${error.stdout}${error.stderr}` }),
      );
      expect(result.output).toBe("");
      expect(result.code).toBe(0);
    },
    60_000,
  );
});
