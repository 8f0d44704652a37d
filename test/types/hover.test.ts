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
const NAMES = ["ContactInput", "ContactInvoicesRow", "ContactPortals", "ContactPortalInput", "ContactContainer", "ContactQuery", "ContactRecord", "InvoicePortalInput"] as const;
const probe = [
  `import type { ${NAMES.join(", ")} } from "./generated/index.js";`,
  ...NAMES.map((name) => `export declare const a${name}: ${name};`),
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
    ["ContactInput", ['"First Name"?: string | null;', "Status?:", '"Inactive" | null;', "Phone?: readonly [(string | null | undefined)?, (string | null | undefined)?, (string | null | undefined)?];"], ["InputOf<", "id?", "Photo?", 'Types["']],
    ["ContactInvoicesRow", ['"Invoices::Amount": number | null;', '"Invoices::Issued": string | null;'], ["PortalRowOf<", "type:", 'Types["']],
    ["ContactPortals", ['Invoices: PortalRow<{\n        "Invoices::Amount": number | null;'], ["PortalsOf<", "type:", 'Types["']],
    ["ContactPortalInput", ['Invoices?: ({\n        "Invoices::Amount"?: number | null;'], ["PortalInputOf<", "type:", 'Types["']],
    ["ContactContainer", ['"Photo"'], ["ContainersOf<", 'Types["']],
    ["ContactQuery", ['"First Name"?: FieldCriterion<"text", string>;', 'Birthday?: FieldCriterion<"date", string | null>;'], ["QueryOf<", "SourceKind<", "type:", 'Types["']],
    ["ContactRecord", ['FmRecord<ContactFields, {\n    Invoices: PortalRow<{\n        "Invoices::Amount": number | null;'], ["PortalsOf<", 'Types["']],
    ["InvoicePortalInput", ["InvoicePortalInput = {}"], ["PortalInputOf<", 'Types["']],
  ])("%s shows its shape, not the alias it is derived with", (name, shows, hides) => {
    const { type, value } = hover(name);
    for (const part of shows) expect(type, type).toContain(part);
    // Over a constant of the type, the editor shows the same shape, or the generated module's own name for it.
    if (!value.endsWith(`: ${name}`)) for (const part of shows.filter((p) => !p.startsWith("FmRecord") && !p.includes(" = "))) expect(value, value).toContain(part);
    for (const part of hides) expect(`${type}\n${value}`).not.toContain(part);
  });
});
