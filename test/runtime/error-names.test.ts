import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";

// An app's bundler minifies the runtime and renames its classes: every error the runtime throws must still say its
// own name (`error.name`, the first word of its stack), not the minified one. Checked on each entry, minified as an
// app's bundle would be, for every exported class that extends Error; a new error class must join ARGS.
const ARGS: Record<string, unknown[]> = {
  FileMakerError: ["1", "m", 500, { method: "GET", path: "/" }],
  DatabaseMissingError: ["100", "m", 500, { method: "GET", path: "/" }],
  RecordMissingError: ["101", "m", 500, { method: "GET", path: "/" }],
  FieldMissingError: ["102", "m", 500, { method: "GET", path: "/" }],
  ScriptMissingError: ["104", "m", 500, { method: "GET", path: "/" }],
  LayoutMissingError: ["105", "m", 500, { method: "GET", path: "/" }],
  InvalidCredentialsError: ["212", "m", 401, { method: "GET", path: "/" }],
  ModIdMismatchError: ["306", "m", 500, { method: "GET", path: "/" }],
  NoRecordsMatchError: ["401", "m", 500, { method: "GET", path: "/" }],
  ValidationError: ["504", "m", 500, { method: "GET", path: "/" }],
  InvalidTokenError: ["952", "m", 401, { method: "GET", path: "/" }],
  CapacityError: ["812", "m", 500, { method: "GET", path: "/" }],
  ProtocolError: [200, "<html>", { method: "GET", path: "/" }],
  ResponseTooLargeError: [200, { method: "GET", path: "/" }, 10],
  NetworkError: ["m", "timeout", { method: "GET", path: "/" }],
  DecodeError: ["L", "F", "1", "x", "number"],
  NotExactlyOneError: ["L", 2],
  ScriptError: ["after", "3", "r"],
};

describe("error names in a minified bundle", () => {
  const dir = mkdtemp(join(tmpdir(), "fmgen-error-names-"));
  afterAll(async () => rm(await dir, { recursive: true, force: true }));

  it.each(["index.ts", "fetch.ts"])("every exported error class of %s keeps its name", async (entry) => {
    const out = join(await dir, `${entry}.mjs`);
    const bundle = await build({ entryPoints: [`src/runtime/${entry}`], bundle: true, minify: true, format: "esm", platform: "neutral", external: ["undici", "node:*"], write: false, logLevel: "silent" });
    await writeFile(out, bundle.outputFiles[0]!.text);
    const runtime = (await import(pathToFileURL(out).href)) as Record<string, unknown>;
    type ErrorClass = new (...args: unknown[]) => Error;
    const errorClasses = Object.entries(runtime).filter((entry): entry is [string, ErrorClass] => typeof entry[1] === "function" && entry[1].prototype instanceof Error);
    expect(errorClasses.map(([name]) => name).sort()).toEqual(Object.keys(ARGS).sort());
    for (const [name, ErrorClass] of errorClasses) {
      expect(ErrorClass.name, "the bundle renamed the class (else this test proves nothing)").not.toBe(name);
      const error = new ErrorClass(...ARGS[name]!);
      expect(error.name).toBe(name);
      expect(String(error.stack).startsWith(`${name}: `)).toBe(true);
    }
  });
});
