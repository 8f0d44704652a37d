import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// What the compiler says where a layout of another database, or a response layout of another table, is used: the
// type tests (database.test-d.ts, portals.test-d.ts) prove these do not compile; this proves the message names the
// problem, in a sentence, under the project's flags (tsconfig.json).

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PROBE = join(ROOT, "test/types/messages-probe.ts");
const probe = `
import { createClient } from "@fmgen/runtime";
import { Contacts } from "../../examples/contacts/generated/index.js";
import { Customer, Invoice } from "../../examples/invoices/generated/index.js";

const auth = { username: "u", password: "p" };
export const wrongDatabase = createClient({ server: "http://127.0.0.1:1", database: Contacts, auth }).layout(Invoice);
const invoices = createClient({ server: "http://127.0.0.1:1", database: "Invoicing", auth }).layout(Invoice);
export const wrongTable = invoices.get(1, { response: Customer });
`;

function diagnostics(): string[] {
  const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, ...rest) => (file === PROBE ? ts.createSourceFile(file, probe, language) : getSourceFile(file, language, ...rest));
  host.fileExists = ((exists) => (file: string) => file === PROBE || exists(file))(host.fileExists.bind(host));
  const program = ts.createProgram([PROBE], options, host);
  return program.getSemanticDiagnostics(program.getSourceFile(PROBE)).map((d) => {
    const { line } = d.file!.getLineAndCharacterOfPosition(d.start!);
    return `${/export const (\w+)/.exec(probe.split("\n")[line]!)?.[1]}\n${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

describe("compile errors of a layout of another database or table", () => {
  const found = diagnostics();

  it("are the two expected, and no other", () => {
    expect(found.map((d) => d.split("\n")[0])).toEqual(["wrongDatabase", "wrongTable"]);
  });

  it("fm.layout() of another database says which database each is", () => {
    expect(found[0]).toContain(`is not assignable to type '"a layout of database \\"Invoicing\\", but this client is for database \\"Contacts\\""'`);
  });

  it("a response layout of another table says which table each shows", () => {
    expect(found[1]).toContain(`is not assignable to type '"a layout of table \\"Customers\\", not of this layout's table \\"Invoices\\""'`);
  });
});
