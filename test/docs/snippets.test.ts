/**
 * Every ```ts and ```js block of README.md and of the markdown files of docs/ and its subfolders compiles (the generated
 * API reference's too: its examples come from the sources' TSDoc `@example`s, which carry their
 * `<!-- snippet: dir ... -->` line when they need one), so a documented pattern cannot stop compiling unnoticed (`contacts.find({ ...query.toFindOptions(), script })` did once: TS2769 under exactOptionalPropertyTypes).
 *
 * How a block is compiled (test/docs/snippets.ts): as its own module, in one program under tsconfig.json's options
 * (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, NodeNext...), `@fmgen/runtime` and `fmgen/emulator`
 * mapped to src/. A ```ts block is a `.mts` file, a ```js block a `.mjs` file checked with checkJs (its JSDoc types
 * count). The file stands in examples/contacts, so `./generated/index.js` is the contacts example's generated code.
 * ```sh, ```json and unlabelled blocks are not compiled (docs/getting-started.md's "How it fits together" shell
 * commands run in test/cli/readme-flow.test.ts; every sh block is accounted for by test/docs/commands.test.ts).
 *
 * What a block may use without writing it: the names the prose around it establishes, declared once in CONTEXT
 * below as globals (a block's own import or declaration of the same name shadows them): `fm` (a client on a Contacts
 * database definition with the scripts and globals the README names), `contacts` (`fm.layout(Contact)`), `Contact`,
 * `Contacts`, `ContactSummary` (a response layout of the same table), `createClient`, `assertScripts`, `q`,
 * `startEmulator`, and the values `server`, `auth`, `id`, `query`, `fieldData`, `layouts`, `data`. Modules the
 * documentation imports that are not installed would be declared in AMBIENT, only as far as the blocks use them.
 *
 * A comment on the lines just above a block changes that:
 * - `<!-- snippet: skip (reason) -->`: the block is deliberately not compiled (a fragment, a signature excerpt); the
 *   reason is required, and the count of skipped blocks is pinned below, so nothing is skipped silently.
 * - `<!-- snippet: dir examples/invoices -->`: the file stands in that folder (relative to the repository root), for
 *   a block that imports another example's `./generated/index.js`, or a repository path (`dir .`).
 * Anything else in a `<!-- snippet: ... -->` comment, or one that no code block follows, fails the test.
 *
 * A failure names the file, the markdown line and the compiler's message: `README.md:393: TS2769: ...`.
 *
 * Two blocks also run: the getting-started guide's app snippet (docs/getting-started.md, "How it fits together"; the
 * README's until issue 25), bundled as written against the contacts
 * example's generated code and run against the emulator serving that example; and docs/emulator.md's runnable
 * JavaScript example, from the repository root, printing what its comments say.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { PULL_PASSWORD, PULL_USER, startExampleEmulator } from "../pull/helpers.js";
import { markdownFiles } from "./markdown.js";
import { compileSnippets, documentationSnippets, extractSnippets, type CompileOptions } from "./snippets.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The guide whose app snippet runs (and whose copy the failing-case test breaks). */
const GUIDE = "docs/getting-started.md";
const FILES = markdownFiles(ROOT);

/** What the documentation's prose establishes around its blocks (examples/contacts/__docs_context__.mts). */
const CONTEXT = `
import * as runtime from "@fmgen/runtime";
import * as emulator from "fmgen/emulator";
import * as generated from "./generated/index.js";

const ContactsDb = runtime.defineDatabase({
  database: "Contacts",
  scripts: ["Log Find", "Prepare", "Stamp Copy", "Archive", "Recalc", "Send Invoice"],
  globals: { "Globals::gUserId": { type: "text" }, "Globals::gCount": { type: "number" } },
});
const Summary = runtime.defineLayout<{ "First Name": string; "Last Name": string }>()({
  database: "Contacts",
  layout: "Contact Summary",
  table: "Contacts",
  fields: { "First Name": { type: "text" }, "Last Name": { type: "text" } },
});
const client = runtime.createClient({ server: "https://fms.example.com", database: ContactsDb, auth: { username: "u", password: "p" } });

declare global {
  const fm: typeof client;
  const contacts: runtime.LayoutClient<typeof generated.Contact>;
  const Contact: typeof generated.Contact;
  const Contacts: typeof ContactsDb;
  const ContactSummary: typeof Summary;
  const createClient: typeof runtime.createClient;
  const assertScripts: typeof runtime.assertScripts;
  const q: typeof runtime.q;
  const startEmulator: typeof emulator.startEmulator;
  const server: string;
  const auth: { username: string; password: string };
  const id: string;
  const query: generated.ContactQuery[];
  const fieldData: generated.ContactInput;
  const layouts: string[];
  const data: string;
}
export {};
`;

/**
 * Modules the documentation imports that this repository does not install, as far as its blocks use them. None today:
 * the Redis clients the README's token store takes (`redis`, `ioredis`) are devDependencies, so their blocks compile
 * against the real clients' types.
 */
const AMBIENT = "";

/** The records named Ada, as a find over the wire answers them to the example's puller account. */
async function fetchJson(url: string, server: string): Promise<{ recordId: string; fieldData: Record<string, unknown> }[]> {
  const basic = Buffer.from(`${PULL_USER}:${PULL_PASSWORD}`).toString("base64");
  const login = await fetch(`${server}/fmi/data/vLatest/databases/Contacts/sessions`, { method: "POST", headers: { Authorization: `Basic ${basic}`, "Content-Type": "application/json" }, body: "{}" });
  const token = ((await login.json()) as { response: { token: string } }).response.token;
  const answer = await fetch(url, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify({ query: [{ "First Name": "==Ada" }] }) });
  return ((await answer.json()) as { response: { data: { recordId: string; fieldData: Record<string, unknown> }[] } }).response.data;
}

const OPTIONS: CompileOptions = { root: ROOT, context: CONTEXT, ambient: AMBIENT };

function report(errors: readonly { where: string; message: string }[]): string {
  return errors.map((e) => `${e.where}: ${e.message}`).join("\n");
}

describe("the documentation's code blocks", () => {
  const snippets = documentationSnippets(ROOT, FILES);

  it("every ts and js block of README.md and docs/*.md compiles under the project's flags", () => {
    const errors = compileSnippets(snippets, OPTIONS);
    expect(report(errors)).toBe("");
  }, 60_000);

  it("skips only the blocks marked, each with its reason", () => {
    // By file and reason, not line: an edit above a block must not break this test.
    const skipped = snippets.filter((s) => s.skip !== undefined).map((s) => `${s.file} (${s.skip})`);
    expect({ compiled: snippets.length - skipped.length, skipped }).toMatchInlineSnapshot(`
      {
        "compiled": 69,
        "skipped": [
          "docs/emulator.md (JavaScript reading raw fetch answers, whose json() the checker types unknown: test/docs/snippets.test.ts runs it instead, its output against its comments)",
        ],
      }
    `);
  });
});

describe("the documentation's runnable examples", () => {
  it("the getting-started app snippet runs against the emulator serving the contacts example", async () => {
    const app = documentationSnippets(ROOT, [GUIDE]).find((s) => s.code.includes("await fm.close();"));
    expect(app?.code).toContain('import { Contact } from "./generated/index.js";');
    // Bundled as written, from examples/contacts (so ./generated/index.js is its generated code), the runtime from src/.
    const bundle = await build({
      stdin: { contents: app!.code, resolveDir: join(ROOT, "examples/contacts"), sourcefile: "app.ts", loader: "ts" },
      absWorkingDir: ROOT,
      alias: { "@fmgen/runtime": "./src/runtime/index.ts", "@fmgen/runtime/schema": "./src/runtime/schema.ts" },
      bundle: true,
      platform: "node",
      format: "esm",
      write: false,
      logLevel: "silent",
      banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
    });
    const dir = mkdtempSync(join(tmpdir(), "fmgen-readme-app-"));
    mkdirSync(join(dir, "photos"));
    writeFileSync(join(dir, "photos/ada.png"), Buffer.from("89504e470d0a1a0a", "hex"));
    writeFileSync(join(dir, "app.mjs"), bundle.outputFiles[0]!.text);
    const emu = await startExampleEmulator("contacts");
    try {
      const env = { ...process.env, FM_SERVER: emu.url, FM_DATABASE: "Contacts", FM_USERNAME: PULL_USER, FM_PASSWORD: PULL_PASSWORD };
      await new Promise<void>((done, fail) => {
        execFile(process.execPath, ["app.mjs"], { cwd: dir, env, timeout: 30_000 }, (error, _out, err) => (error ? fail(new Error(`${error.message}\n${err}`)) : done()));
      });
      // The seed's Ada (recordId 1) has an email; the app's has none, the Status its edit set and the photo it uploaded.
      const created = (await fetchJson(`${emu.url}/fmi/data/vLatest/databases/Contacts/layouts/Contacts%20Web/_find`, emu.url)).filter((r) => r.recordId !== "1");
      expect(created).toMatchObject([{ fieldData: { "First Name": "Ada", Email: "", Birthday: "12/10/1815", Status: "Active" } }]);
      expect(created[0]!.fieldData.Photo).toMatch(/^http:/);
    } finally {
      await emu.close();
    }
  }, 60_000);

  it("docs/emulator.md's JavaScript example runs from the repository root and prints what its comments say", () => {
    const [example, ...others] = documentationSnippets(ROOT, ["docs/emulator.md"]).filter((s) => s.code.includes('from "./dist/emulator/index.js"'));
    expect(others).toEqual([]);
    // What each console.log line's comment says it prints.
    const expected = [...example!.code.matchAll(/^console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]!);
    expect(expected.length).toBe(2);
    const out = execFileSync(process.execPath, ["--input-type=module"], { cwd: ROOT, input: example!.code, encoding: "utf8", timeout: 30_000 });
    expect(out.trimEnd().split("\n")).toEqual(expected);
  }, 60_000);
});

describe("the extractor and the check (this test can fail)", () => {
  const guide = readFileSync(join(ROOT, GUIDE), "utf8");

  it("a typo'd field name in a copy of the getting-started guide fails, naming the file, the line and the message", () => {
    const line = guide.split("\n").findIndex((l) => l.includes('fieldData: { "First Name": "Ada"'));
    expect(line).toBeGreaterThan(0);
    const broken = guide.replace('fieldData: { "First Name": "Ada"', 'fieldData: { "First Nam": "Ada"');
    const dir = mkdtempSync(join(tmpdir(), "fmgen-snippets-"));
    mkdirSync(join(dir, "docs"));
    writeFileSync(join(dir, GUIDE), broken);
    const errors = compileSnippets(documentationSnippets(dir, [GUIDE]), OPTIONS);
    expect(errors.length).toBe(1);
    expect(errors[0]!.where).toBe(`${GUIDE}:${line + 1}`);
    expect(errors[0]!.message).toMatch(/^TS2353: .*'"First Nam"' does not exist/s);
  }, 60_000);

  it("the built-query-with-scripts pattern fails when toFindOptions() types portals P again (the f4ea7af bug)", () => {
    const file = join(ROOT, "src/runtime/data-api/query-builder.ts");
    const fixed = readFileSync(file, "utf8");
    const reverted = fixed.replaceAll("Exclude<P, undefined>", "P");
    expect(reverted).not.toBe(fixed);
    const snippets = documentationSnippets(ROOT, FILES).filter((s) => s.code.includes(".toFindOptions()"));
    expect(snippets.length).toBeGreaterThan(0);
    const errors = compileSnippets(snippets, { ...OPTIONS, overrides: new Map([[file, reverted]]) });
    // The pattern is documented in the guides (docs/finding.md, docs/scripts-and-globals.md), and perhaps the README.
    expect(report(errors)).toMatch(/^(README|docs\/[\w-]+)\.md:\d+: TS2769: No overload matches this call/m);
  }, 60_000);

  it("a skip without its reason, an unknown directive and a directive with no block after it throw", () => {
    expect(() => extractSnippets("<!-- snippet: skip -->\n```ts\nx\n```\n", "a.md")).toThrow(/a\.md:1: "skip" needs its reason/);
    expect(() => extractSnippets("<!-- snippet: skipp (x) -->\n```ts\nx\n```\n", "a.md")).toThrow(/a\.md:1: unknown snippet directive/);
    expect(() => extractSnippets("<!-- snippet: skip (x) -->\nprose\n```ts\nx\n```\n", "a.md")).toThrow(/a\.md:1: .*just before a code block/);
    expect(() => extractSnippets("<!-- snippet: skip (x) -->\n```sh\nx\n```\n", "a.md")).toThrow(/never compiled/);
  });

  it("takes ts and js blocks (indented ones unindented), with their fence line and directives, and no other", () => {
    const md = "# t\n```sh\nls\n```\n1. step\n   ```ts\n   const a = 1;\n     a;\n   ```\n<!-- snippet: skip (a fragment) -->\n\n```typescript\nx: 1\n```\n<!-- snippet: dir . -->\n```js\nexport {};\n```\n```json\n{}\n```\n";
    expect(extractSnippets(md, "t.md")).toEqual([
      { file: "t.md", line: 6, lang: "ts", code: "const a = 1;\n  a;" },
      { file: "t.md", line: 12, lang: "ts", code: "x: 1", skip: "a fragment" },
      { file: "t.md", line: 16, lang: "js", code: "export {};", dir: "." },
    ]);
  });
});
