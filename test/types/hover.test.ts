import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Generated modules write one shape (`<Name>Fields`) and derive the others from the definition; an editor must
// still show what a derived type holds. Quick info (what an editor's hover shows) over the contacts example's
// generated code, through the TypeScript language service, with the options the goldens are checked with.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PROBE = join(ROOT, "examples/contacts/hover-probe.ts");
const NAMES = ["ContactInput", "ContactInvoicesRow", "ContactPortals", "ContactPortalInput", "ContactContainer", "ContactQuery", "ContactCriteria", "ContactRecord", "InvoicePortalInput"] as const;
const probe = [
  `import type { ${NAMES.join(", ")} } from "./generated/index.js";`,
  ...NAMES.map((name) => `export declare const a${name}: ${name};`),
  // Where the editor lists an interface's members: a value of it, being written (not compiled: see "compiles the probe").
  ...NAMES.map((name) => `// @ts-ignore\nexport const b${name}: ${name} = {};`),
  "",
].join("\n");

function languageService(): ts.LanguageService {
  const config = ts.readConfigFile(join(ROOT, "test/golden/tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, join(ROOT, "test/golden"));
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [PROBE],
    getScriptVersion: () => "1",
    getScriptSnapshot: (file) => (file === PROBE ? ts.ScriptSnapshot.fromString(probe) : ts.sys.fileExists(file) ? ts.ScriptSnapshot.fromString(readFileSync(file, "utf8")) : undefined),
    getCurrentDirectory: () => ROOT,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (file) => file === PROBE || ts.sys.fileExists(file),
    readFile: (file) => (file === PROBE ? probe : ts.sys.readFile(file)),
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  return ts.createLanguageService(host);
}

describe("hovering a derived type of a generated module", () => {
  const service = languageService();
  /** What the editor shows over the name's use in `declare const a<Name>: <Name>`, and over the constant. */
  const hover = (name: string): { type: string; value: string } => {
    const use = probe.indexOf(`: ${name};`) + 2;
    const value = probe.indexOf(`a${name}:`);
    const show = (at: number) => ts.displayPartsToString(service.getQuickInfoAtPosition(PROBE, at)?.displayParts);
    return { type: show(use), value: show(value) };
  };

  it("compiles the probe", () => {
    expect(service.getSemanticDiagnostics(PROBE).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
  });

  it.each([
    ["ContactInvoicesRow", ['"Invoices::Amount": number | null;', '"Invoices::Issued": string | null;'], ["PortalRowOf<", "type:", 'Types["']],
    ["ContactPortals", ['Invoices: PortalRow<{\n        "Invoices::Amount": number | null;'], ["PortalsOf<", "type:", 'Types["']],
    ["ContactContainer", ['"Photo"'], ["ContainersOf<", 'Types["']],
  ])("%s shows its shape, not the alias it is derived with", (name, shows, hides) => {
    const { type, value } = hover(name);
    for (const part of shows) expect(type, type).toContain(part);
    // Over a constant of the type, the editor shows the same shape, or the generated module's own name for it.
    if (!value.endsWith(`: ${name}`)) for (const part of shows) expect(value, value).toContain(part);
    for (const part of hides) expect(`${type}\n${value}`).not.toContain(part);
  });

  // The shapes calls check arguments against are interfaces, so that compiler messages name them (see
  // unknown-field-messages.test.ts): hovering one shows its name, and the editor lists its members where a value of
  // it is written (`const x: ContactInput = { | }`).
  it.each([
    ["ContactInput", ["First Name", "Status", "Phone", "Company::Name"], ["id", "Photo", "Created"]],
    ["ContactPortalInput", ["Invoices"], []],
    ["ContactQuery", ["First Name", "Birthday", "Invoices::Amount", "omit"], []],
    ["ContactCriteria", ["First Name", "Invoices::Issued"], ["omit"]],
    ["ContactRecord", ["fieldData", "portalData", "recordId", "modId"], []],
    ["InvoicePortalInput", [], ["Invoices"]],
  ])("%s shows its name, and its members where a value is written", (name, members, absent) => {
    expect(hover(name).type).toMatch(new RegExp(`interface ${name}\\b`));
    const at = probe.indexOf(`b${name}: ${name} = {`) + `b${name}: ${name} = {`.length;
    // Names that are no identifier are listed quoted.
    const listed = service.getCompletionsAtPosition(PROBE, at, {})?.entries.map((e) => e.name.replace(/^"(.*)"$/, "$1")) ?? [];
    for (const member of members) expect(listed, listed.join(", ")).toContain(member);
    for (const member of absent) expect(listed).not.toContain(member);
  });
});
