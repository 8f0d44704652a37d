// The page test/webviewer/chromium.test.ts opens in a headless Chromium, bundled by esbuild for the browser: the
// contacts example's generated Contact layout through @fmgen/runtime/webviewer, its calls going to
// window.FileMaker, which the emulator's shim (loaded by the page before this script) defines. Each step's outcome is
// pushed on window.__steps, then window.__done is set; after the first step that fails the others are reported as not
// run. No DOM types: tsconfig.json checks this file with the ES library only.
import { createWebViewerClient, defineDatabase, FileMakerError, ModIdMismatchError, NetworkError, q, RecordMissingError } from "@fmgen/runtime/webviewer";
import { Contact, Contacts } from "../../../examples/contacts/generated/index.js";
import { BRIDGE_SCRIPT, SHORT_TIMEOUT_MS, STEPS, WEB_VIEWER, type PageReport, type Step, type StepResult } from "./steps.js";

const NEVER_ANSWER = "fmgen: never answer";
// The generated Contacts file lists no scripts; the page's own definition names the two it runs, so that
// runScript's names are typed.
const ContactsFile = defineDatabase({ database: Contacts.database, scripts: ["Greet", NEVER_ANSWER], globals: {} });

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

async function runScenario(report: StepResult[]): Promise<void> {
  const fm = createWebViewerClient({ database: ContactsFile, script: BRIDGE_SCRIPT, webViewer: WEB_VIEWER, timeoutMs: 5_000 });
  const slow = createWebViewerClient({ database: ContactsFile, script: BRIDGE_SCRIPT, webViewer: WEB_VIEWER, timeoutMs: SHORT_TIMEOUT_MS });
  const contacts = fm.layout(Contact);
  const tag = Math.random().toString(36).slice(2, 10);
  // Find operators in the value: a plain value and q's helpers must send them as literal characters.
  const lastName = `Ham*il=ton ${tag}`;
  let recordId = "";
  let createdModId = "";

  const steps: Record<Step, () => Promise<string>> = {
    "create with portal rows": async () => {
      const created = await contacts.create({
        fieldData: { "First Name": "Margaret", "Last Name": lastName, Email: `margaret.${tag}@example.com`, Status: "Active", Birthday: "1936-08-17", Phone: ["555-0142", undefined, "555-0143"] },
        portalData: { Invoices: [{ "Invoices::Amount": 42.5, "Invoices::Issued": "2024-02-29" }, { "Invoices::Amount": 7, "Invoices::Issued": "2024-03-01" }] },
      });
      recordId = created.recordId;
      createdModId = created.modId;
      return `record ${recordId}, modId ${createdModId}`;
    },
    get: async () => {
      const contact = await contacts.get(recordId);
      check(contact.fieldData["Last Name"] === lastName, `Last Name is ${JSON.stringify(contact.fieldData["Last Name"])}`);
      check(contact.fieldData.Birthday === "1936-08-17", `Birthday is ${JSON.stringify(contact.fieldData.Birthday)} (an ISO date expected)`);
      check(JSON.stringify(contact.fieldData.Phone) === JSON.stringify(["555-0142", "", "555-0143"]), `Phone is ${JSON.stringify(contact.fieldData.Phone)}`);
      const rows = contact.portalData.Invoices.map((r) => `${r["Invoices::Issued"]}:${r["Invoices::Amount"]}`).sort();
      check(JSON.stringify(rows) === JSON.stringify(["2024-02-29:42.5", "2024-03-01:7"]), `the Invoices portal holds ${JSON.stringify(rows)}`);
      return `${contact.fieldData["First Name"]} ${contact.fieldData["Last Name"]} with ${rows.length} portal rows`;
    },
    "find with q": async () => {
      const exact = await contacts.find({ query: [{ "Last Name": lastName }] });
      check(exact.data.length === 1 && exact.data[0]?.recordId === recordId, `the plain value found ${JSON.stringify(exact.data.map((r) => r.recordId))}, expected [${recordId}]`);
      const begins = await contacts.find({ query: [{ "Last Name": q.beginsWith("Ham*il="), Birthday: q.lt("1940-01-01") }] });
      check(begins.data.length === 1 && begins.data[0]?.recordId === recordId, `q.beginsWith found ${JSON.stringify(begins.data.map((r) => r.recordId))}, expected [${recordId}]`);
      // "Ham*" as a value is the four characters: no one is called that, though the star would match everyone.
      const literal = await contacts.find({ query: [{ "Last Name": "Ham*" }] });
      check(literal.data.length === 0, `"Ham*" as a value found ${literal.data.length} records: the star was sent as a wildcard`);
      return `plain value and q.beginsWith found record ${recordId}; "Ham*" found none (of ${begins.dataInfo.totalRecordCount})`;
    },
    script: async () => {
      const result = await fm.runScript(Contact, "Greet", { param: lastName });
      check(result.error === "0" && result.result === `Hello, ${lastName}`, `the script answered ${JSON.stringify(result)}`);
      return `answered ${JSON.stringify(result.result)}`;
    },
    "stale modId": async () => {
      const { modId } = await contacts.edit(recordId, { fieldData: { Status: "Inactive" }, modId: createdModId });
      try {
        await contacts.edit(recordId, { fieldData: { Status: "Active" }, modId: createdModId });
      } catch (error) {
        check(error instanceof ModIdMismatchError, `the edit failed with ${String(error)}, not a ModIdMismatchError`);
        check(error instanceof FileMakerError && error.code === "306", `code ${(error as FileMakerError).code}, 306 expected`);
        const contact = await contacts.get(recordId);
        check(contact.fieldData.Status === "Inactive", `the refused edit changed Status to ${contact.fieldData.Status}`);
        return `modId ${createdModId} -> ${modId}; the edit with ${createdModId}: ${(error as Error).name}, code ${(error as FileMakerError).code}`;
      }
      throw new Error(`an edit with the stale modId ${createdModId} succeeded`);
    },
    "never-answering script": async () => {
      try {
        await slow.runScript(Contact, NEVER_ANSWER);
      } catch (error) {
        check(error instanceof NetworkError, `the call failed with ${String(error)}, not a NetworkError`);
        const { reason, message } = error as NetworkError;
        check(reason === "timeout", `reason ${reason}, timeout expected: ${message}`);
        check(message.includes(`"${BRIDGE_SCRIPT}"`) && message.includes(`script "${NEVER_ANSWER}"`), `the message names neither the bridge script nor the action: ${message}`);
        // The bridge goes on: the next call of the same page is answered.
        const again = await fm.runScript(Contact, "Greet", { param: "again" });
        check(again.result === "Hello, again", `the call after the timeout answered ${JSON.stringify(again)}`);
        return `${reason}: ${message}`;
      }
      throw new Error(`the call to "${NEVER_ANSWER}" was answered`);
    },
    "missing record": async () => {
      await contacts.delete(recordId);
      try {
        await contacts.get(recordId);
      } catch (error) {
        check(error instanceof RecordMissingError, `the get failed with ${String(error)}, not a RecordMissingError`);
        return `${(error as Error).name}, code ${(error as FileMakerError).code}, after deleting record ${recordId}`;
      }
      throw new Error(`record ${recordId} was still there after its delete`);
    },
  };

  let failed = false;
  try {
    for (const name of STEPS) {
      if (failed) {
        report.push({ name, ok: false, detail: "not run: an earlier step failed" });
        continue;
      }
      try {
        report.push({ name, ok: true, detail: await steps[name]() });
      } catch (error) {
        failed = true;
        report.push({ name, ok: false, detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
      }
    }
  } finally {
    await Promise.allSettled([fm.close(), slow.close()]);
  }
}

const page = globalThis as unknown as PageReport;
page.__steps = [];
void runScenario(page.__steps).finally(() => {
  page.__done = true;
});
