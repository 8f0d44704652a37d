import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveGenerateSettings, SettingsError } from "../../src/generate/index.js";
import { ConfigFileError, configJsonSchemaText, findProjectConfig, globToRegExp, loadConfigFile, parseConfig } from "../../src/project/index.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "fmgen-config-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("fmgen.config.json", () => {
  it("takes the documented shape and defaults validateRecords to true", () => {
    const config = parseConfig({
      $schema: "node_modules/fmgen/schema/config.schema.json",
      server: "https://fms.example.com",
      database: "Contacts",
      auth: { usernameEnv: "FM_USER", passwordEnv: "FM_PASSWORD" },
      layouts: ["layouts/", "more/**/*.layout.json"],
      outDir: "src/generated",
      options: {},
    });
    expect(config.options?.validateRecords).toBe(true);
    expect(parseConfig({ layouts: ["l"], outDir: "o", options: { validateRecords: false } }).options?.validateRecords).toBe(false);
    expect(config.options?.importExtension).toBe(".js");
    expect(parseConfig({ layouts: ["l"], outDir: "o", options: { importExtension: ".ts" } }).options?.importExtension).toBe(".ts");
  });

  it.each([
    [{ outDir: "o" }, /layouts: /],
    [{ layouts: [], outDir: "o" }, /layouts: /],
    [{ layouts: ["l"] }, /outDir: /],
    [{ layouts: ["l"], outDir: "o", server: "fms.example.com" }, /server: must be an http/],
    [{ layouts: ["l"], outDir: "o", auth: { username: "web" } }, /auth/],
    [{ layouts: ["l"], outDir: "o", outdir: "typo" }, /Unrecognized key/],
    [{ layouts: ["l"], outDir: "o", options: { validateRecords: "yes" } }, /options\.validateRecords: /],
    [{ layouts: ["l"], outDir: "o", options: { importExtension: "ts" } }, /options\.importExtension: /],
  ])("rejects %j, naming the file and the path", (json, message) => {
    expect(() => parseConfig(json, "fmgen.config.json")).toThrow(ConfigFileError);
    expect(() => parseConfig(json, "fmgen.config.json")).toThrow(message);
  });

  it("names the file of invalid JSON", async () => {
    const file = join(dir, "broken.json");
    await writeFile(file, "{ nope");
    await expect(loadConfigFile(file)).rejects.toThrow(/broken\.json: invalid JSON/);
  });

  it("ships a JSON Schema that matches the zod schema (run `npm run build && npm run schema` when this fails)", async () => {
    const shipped = await readFile(new URL("../../schema/config.schema.json", import.meta.url), "utf8");
    expect(shipped).toBe(configJsonSchemaText());
  });
});

describe("settings: the config merged with the command line", () => {
  it("reads ./fmgen.config.json by default, with paths relative to it", async () => {
    const project = await mkdtemp(join(dir, "project-"));
    await writeFile(join(project, "fmgen.config.json"), JSON.stringify({ layouts: ["layouts"], outDir: "src/generated" }));
    const settings = await resolveGenerateSettings({ cwd: project });
    expect(settings).toMatchObject({ layouts: [join(project, "layouts")], outDir: join(project, "src/generated"), configFile: join(project, "fmgen.config.json") });
  });

  it("takes --config from the command line, and flags over the config, relative to the working folder", async () => {
    const project = await mkdtemp(join(dir, "project-"));
    await mkdir(join(project, "conf"));
    await writeFile(join(project, "conf", "x.json"), JSON.stringify({ layouts: ["../layouts"], outDir: "../gen" }));
    expect(await resolveGenerateSettings({ cwd: project, config: "conf/x.json" })).toMatchObject({ layouts: [join(project, "layouts")], outDir: join(project, "gen") });
    expect(await resolveGenerateSettings({ cwd: project, config: "conf/x.json", out: "elsewhere", layouts: ["a.layout.json"] })).toMatchObject({
      layouts: [join(project, "a.layout.json")],
      outDir: join(project, "elsewhere"),
    });
  });

  it("finds the config the same way for every command: --config, else ./fmgen.config.json, else none", async () => {
    const project = await mkdtemp(join(dir, "project-"));
    expect(await findProjectConfig({ cwd: project })).toEqual({ root: project });
    await writeFile(join(project, "fmgen.config.json"), JSON.stringify({ layouts: ["layouts"], outDir: "gen" }));
    expect(await findProjectConfig({ cwd: project })).toMatchObject({ configFile: join(project, "fmgen.config.json"), root: project, config: { outDir: "gen" } });
    await mkdir(join(project, "conf"));
    await writeFile(join(project, "conf", "other.json"), JSON.stringify({ layouts: ["l"], outDir: "elsewhere" }));
    expect(await findProjectConfig({ cwd: project, config: "conf/other.json" })).toMatchObject({ root: join(project, "conf"), config: { outDir: "elsewhere" } });
  });

  it("works with no config at all, and says what is missing", async () => {
    const empty = await mkdtemp(join(dir, "empty-"));
    expect(await resolveGenerateSettings({ cwd: empty, layouts: ["l"], out: "o" })).toEqual({ layouts: [join(empty, "l")], tables: [], outDir: join(empty, "o") });
    expect(await resolveGenerateSettings({ cwd: empty, tables: ["t"], out: "o" })).toEqual({ layouts: [], tables: [join(empty, "t")], outDir: join(empty, "o") });
    await expect(resolveGenerateSettings({ cwd: empty, layouts: ["l"] })).rejects.toThrow(SettingsError);
    await expect(resolveGenerateSettings({ cwd: empty, config: "missing.json" })).rejects.toThrow(/missing\.json: cannot read/);
  });
});

describe("globs", () => {
  it.each([
    ["*.layout.json", "a.layout.json", true],
    ["*.layout.json", "sub/a.layout.json", false],
    ["*.layout.json", ".hidden.layout.json", false],
    ["layouts/*/x.json", "layouts/a/x.json", true],
    ["layouts/**/*.json", "layouts/x.json", true],
    ["layouts/**/*.json", "layouts/a/b/c/x.json", true],
    ["layouts/**/*.json", "layouts/.git/x.json", false],
    ["layouts/**", "layouts/a/b", true],
    ["l?.json", "l1.json", true],
    ["l?.json", "l12.json", false],
    ["a+b(1).json", "a+b(1).json", true],
  ])("%s matches %s: %s", (pattern, path, matches) => {
    expect(globToRegExp(pattern).test(path)).toBe(matches);
  });
});
