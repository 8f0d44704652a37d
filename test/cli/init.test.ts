import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { loadConfigFile } from "../../src/project/index.js";
import { memoryIo, PULL_PASSWORD, PULL_USER, startExampleEmulator, tempDir } from "../pull/helpers.js";

describe("fmgen init", () => {
  it("writes fmgen.config.json and .env.example from flags and defaults, without asking when stdin is not a terminal", async () => {
    const dir = await tempDir("init");
    const io = memoryIo();
    expect(await run(["init", "--dir", dir, "--server", "https://fms.example.com", "--database", "Contacts"], io)).toBe(0);
    expect((await readdir(dir)).sort()).toEqual([".env.example", ".gitignore", "fmgen.config.json"]);
    expect(await readFile(join(dir, "fmgen.config.json"), "utf8")).toBe(
      [
        "{",
        '  "server": "https://fms.example.com",',
        '  "database": "Contacts",',
        '  "auth": { "usernameEnv": "FM_USERNAME", "passwordEnv": "FM_PASSWORD" },',
        '  "layouts": ["layouts"],',
        '  "outDir": "generated"',
        "}",
        "",
      ].join("\n"),
    );
    expect(await loadConfigFile(join(dir, "fmgen.config.json"))).toMatchObject({ server: "https://fms.example.com", database: "Contacts" });
    const example = await readFile(join(dir, ".env.example"), "utf8");
    expect(example).toMatch(/^FM_USERNAME=$/m);
    expect(example).toMatch(/^FM_PASSWORD=$/m);
    expect(example).toMatch(/never commit \.env/);
    expect(io.out.join("\n")).toMatch(/fmgen init: wrote .*fmgen\.config\.json, .*\.env\.example/);
    expect(io.out.join("\n")).toMatch(/copy \.env\.example to \.env and fill in FM_USERNAME and FM_PASSWORD/);
  });

  it("takes every value from a flag, and leaves out server and database when none is given", async () => {
    const dir = await tempDir("init");
    const io = memoryIo();
    const args = ["init", "--dir", dir, "--username-env", "FMS_USER", "--password-env", "FMS_PASS", "--layouts", "fm/layouts", "--layouts", "shared/*.layout.json", "--out", "src/fm"];
    expect(await run(args, io)).toBe(0);
    expect(JSON.parse(await readFile(join(dir, "fmgen.config.json"), "utf8"))).toEqual({
      auth: { usernameEnv: "FMS_USER", passwordEnv: "FMS_PASS" },
      layouts: ["fm/layouts", "shared/*.layout.json"],
      outDir: "src/fm",
    });
    expect(await readFile(join(dir, ".env.example"), "utf8")).toMatch(/^FMS_USER=\nFMS_PASS=$/m);
    expect(io.out.join("\n")).toMatch(/Set "server" and "database" in .*fmgen\.config\.json/);
  });

  it(".env.example holds FM_SERVER and FM_DATABASE, the README's app reads, with the values init was given", async () => {
    const dir = await tempDir("init");
    expect(await run(["init", "--dir", dir, "--server", "https://fms.example.com/fmi/data/vLatest", "--database", "Sales # 2024"], memoryIo())).toBe(0);
    const example = await readFile(join(dir, ".env.example"), "utf8");
    expect(example).toMatch(/^FM_SERVER=https:\/\/fms\.example\.com$/m);
    expect(parseEnv(example)).toMatchObject({ FM_USERNAME: "", FM_PASSWORD: "", FM_SERVER: "https://fms.example.com", FM_DATABASE: "Sales # 2024" });

    const bare = await tempDir("init");
    expect(await run(["init", "--dir", bare], memoryIo())).toBe(0);
    expect(parseEnv(await readFile(join(bare, ".env.example"), "utf8"))).toEqual({ FM_USERNAME: "", FM_PASSWORD: "", FM_SERVER: "", FM_DATABASE: "" });
  });

  it("adds .env to .gitignore (creating it, appending to one, leaving one that ignores it), and says the token file belongs there too", async () => {
    const fresh = await tempDir("init");
    const io = memoryIo();
    expect(await run(["init", "--dir", fresh], io)).toBe(0);
    expect(await readFile(join(fresh, ".gitignore"), "utf8")).toMatch(/^\.env$/m);
    expect(io.out.join("\n")).toMatch(/fileTokenStore\(path\) should list that file in \.gitignore/);

    const existing = await tempDir("init");
    await writeFile(join(existing, ".gitignore"), "node_modules\ndist");
    expect(await run(["init", "--dir", existing], memoryIo())).toBe(0);
    expect(await readFile(join(existing, ".gitignore"), "utf8")).toMatch(/^node_modules\ndist\n(#.*\n)?\.env\n$/);
    // Again (--force): .env is already there, nothing is added twice.
    expect(await run(["init", "--dir", existing, "--force"], memoryIo())).toBe(0);
    expect((await readFile(join(existing, ".gitignore"), "utf8")).match(/^\.env$/gm)).toHaveLength(1);

    const ignoring = await tempDir("init");
    await writeFile(join(ignoring, ".gitignore"), "/.env*\n");
    expect(await run(["init", "--dir", ignoring], memoryIo())).toBe(0);
    expect(await readFile(join(ignoring, ".gitignore"), "utf8")).toBe("/.env*\n");
  });

  it("refuses to overwrite either file without --force", async () => {
    const dir = await tempDir("init");
    await writeFile(join(dir, ".env.example"), "MINE=1\n");
    const io = memoryIo();
    expect(await run(["init", "--dir", dir], io)).toBe(1);
    expect(io.err.join("\n")).toMatch(/\.env\.example already exists; pass --force to overwrite/);
    expect(await readdir(dir)).toEqual([".env.example"]);
    expect(await run(["init", "--dir", dir, "--force", "--database", "Contacts"], memoryIo())).toBe(0);
    expect(await readFile(join(dir, ".env.example"), "utf8")).toMatch(/^FM_USERNAME=$/m);
    expect(await run(["init", "--dir", dir], memoryIo())).toBe(1);
  });

  it("on a terminal, asks for each value no flag gave, with defaults, and asks again for a URL that is not one", async () => {
    const dir = await tempDir("init");
    const answers = ["fms.example.com", "https://fms.example.com/", "Invoicing", "MY_PASSWORD", "", "fm/tables", "out"];
    const questions: string[] = [];
    const io = memoryIo({
      ask: async (question) => {
        questions.push(question);
        return answers.shift() ?? "";
      },
    });
    expect(await run(["init", "--dir", dir, "--username-env", "MY_USER"], io)).toBe(0);
    expect(questions).toEqual([
      "FileMaker Server URL, such as https://fms.example.com: ",
      "The URL must start with http:// or https://; FileMaker Server URL: ",
      "Database (hosted file name, without .fmp12): ",
      "Environment variable for the password (FM_PASSWORD): ",
      'Folder for layout descriptions (Data API), "-" for none (layouts): ',
      "Folder for table descriptions (OData), empty for none: ",
      "Folder for generated modules (generated): ",
    ]);
    expect(JSON.parse(await readFile(join(dir, "fmgen.config.json"), "utf8"))).toEqual({
      server: "https://fms.example.com/",
      database: "Invoicing",
      auth: { usernameEnv: "MY_USER", passwordEnv: "MY_PASSWORD" },
      layouts: ["layouts"],
      tables: ["fm/tables"],
      outDir: "out",
    });
  });

  it("asks for table descriptions too: a project of tables only, of both, or (on a terminal) of neither refused", async () => {
    const config = async (dir: string) => JSON.parse(await readFile(join(dir, "fmgen.config.json"), "utf8")) as Record<string, unknown>;
    const tablesOnly = await tempDir("init");
    const io = memoryIo();
    expect(await run(["init", "--dir", tablesOnly, "--tables", "tables"], io)).toBe(0);
    expect(await config(tablesOnly)).toEqual({ auth: { usernameEnv: "FM_USERNAME", passwordEnv: "FM_PASSWORD" }, tables: ["tables"], outDir: "generated" });
    expect(io.out.join("\n")).toMatch(/then run fmgen pull --odata and fmgen generate\./);
    expect(await loadConfigFile(join(tablesOnly, "fmgen.config.json"))).toMatchObject({ tables: ["tables"] });

    const both = await tempDir("init");
    expect(await run(["init", "--dir", both, "--layouts", "layouts", "--tables", "tables", "--tables", "more/*.table.json"], memoryIo())).toBe(0);
    expect(await config(both)).toMatchObject({ layouts: ["layouts"], tables: ["tables", "more/*.table.json"] });

    const answering = (answers: string[]) => memoryIo({ ask: async () => answers.shift() ?? "" });
    const asked = await tempDir("init");
    expect(await run(["init", "--dir", asked, "--server", "https://fms.example.com", "--database", "D", "--username-env", "U", "--password-env", "P"], answering(["-", "odata", ""]))).toBe(0);
    expect(await config(asked)).toMatchObject({ tables: ["odata"], outDir: "generated" });
    expect(await config(asked)).not.toHaveProperty("layouts");

    const neither = await tempDir("init");
    const refused = answering(["-", "", ""]);
    expect(await run(["init", "--dir", neither, "--server", "https://fms.example.com", "--database", "D", "--username-env", "U", "--password-env", "P"], refused)).toBe(2);
    expect(refused.err.join("\n")).toMatch(/a project needs layout descriptions, table descriptions or both: give --layouts or --tables/);
    expect(await readdir(neither)).toEqual([]);
  });

  it("writes a server URL given with the Data API's path without it, and says so", async () => {
    const dir = await tempDir("init");
    const io = memoryIo();
    expect(await run(["init", "--dir", dir, "--server", "https://fms.example.com/fmi/data/vLatest/", "--database", "Contacts"], io)).toBe(0);
    expect(JSON.parse(await readFile(join(dir, "fmgen.config.json"), "utf8"))).toMatchObject({ server: "https://fms.example.com" });
    expect(io.out[0]).toBe("fmgen init: server https://fms.example.com, without /fmi/data/vLatest: fmgen pull and createClient add /fmi/data/{version} themselves");
  });

  it("is a usage error (exit 2) for a server that is not a URL or a variable name that is not one, writing nothing", async () => {
    const dir = await tempDir("init");
    const io = memoryIo();
    expect(await run(["init", "--dir", dir, "--server", "fms.example.com"], io)).toBe(2);
    expect(io.err.join("\n")).toMatch(/server: must be an http:\/\/ or https:\/\/ URL/);
    expect(await run(["init", "--dir", dir, "--password-env", "MY PASSWORD"], memoryIo())).toBe(2);
    expect(await readdir(dir)).toEqual([]);
  });

  it("starts the workflow: init, then pull and generate with the config it wrote", async () => {
    const emu = await startExampleEmulator("contacts");
    try {
      const dir = await tempDir("init-flow");
      expect(await run(["init", "--dir", dir, "--server", emu.url, "--database", "Contacts"], memoryIo())).toBe(0);
      await writeFile(join(dir, ".env"), `FM_USERNAME=${PULL_USER}\nFM_PASSWORD=${PULL_PASSWORD}\n`);
      const config = join(dir, "fmgen.config.json");
      const pull = memoryIo();
      expect(await run(["pull", "--config", config, "Contacts Web", "Invoices Web"], pull)).toBe(0);
      expect(pull.out.join("\n")).toMatch(/wrote layouts\/ContactsWeb\.layout\.json, layouts\/InvoicesWeb\.layout\.json, fmgen\.pulled\.json/);
      expect(await run(["pull", "--config", config, "--check"], memoryIo())).toBe(0);
      const generate = memoryIo();
      expect(await run(["generate", "--config", config], generate)).toBe(0);
      // contacts.ts: the database's module.
      expect((await readdir(join(dir, "generated"))).sort()).toEqual(["contacts-web.ts", "contacts.ts", "index.ts", "invoices-web.ts"]);
    } finally {
      await emu.close();
    }
  });
});
