// The invoices example's FileMaker scripts, as JavaScript handlers for the emulator (docs/emulator.md, "Scripts"):
// `fmgen serve --scripts scripts.mjs` (examples/run.mjs passes it). The default export maps script names to
// handlers; layouts/Invoicing.database.json lists the same scripts in the file's folders, as `fmgen pull` would.
// The `calculations` export is the file's calculation fields (docs/emulator.md, "Calculations and related fields"),
// computed on every read; the related fields Customers::Name and Customers::Email need none: the emulator joins them
// through the Customers layout's relation (Customers::id = Invoices::CustomerID).

/** @type {import("fmgen/emulator").Calculations} */
export const calculations = {
  Invoices: {
    // Sum of the invoice's lines, as the FileMaker field Total = Sum(InvoiceLines::Amount) would be.
    Total: (_invoice, related) => (related.InvoiceLines ?? []).reduce((sum, line) => sum + Number(line.Quantity) * Number(line["Unit Price"]), 0),
  },
};

/** @type {import("fmgen/emulator").ScriptHandlers} */
export default {
  // Run after a create (`"script": "Send Invoice"` in its body): the found set is the new record.
  // A script marks it sent and dates it, as a FileMaker script would with Set Field.
  "Send Invoice": ({ foundSet, records, param }) => {
    const invoice = foundSet?.records[0];
    if (!invoice) return { error: 101 };
    const { modId } = records.edit("Invoice Detail", invoice.recordId, { Status: "Sent", Due: param || invoice.fieldData.Due });
    return `sent ${invoice.fieldData.Number} (modId ${modId})`;
  },

  // Standalone (GET .../layouts/Invoice Detail/script/Invoice Total?script.param=<recordId>): the sum of the lines,
  // in the currency the session set in the global field Invoices::gCurrency (PATCH .../globals), USD when unset.
  "Invoice Total": ({ param, records, globals }) => {
    const invoice = records.get("Invoice Detail", param);
    const total = invoice.portalData.Lines.reduce((sum, line) => sum + Number(line["InvoiceLines::Quantity"]) * Number(line["InvoiceLines::Unit Price"]), 0);
    return `${total.toFixed(2)} ${globals["Invoices::gCurrency"] || "USD"}`;
  },

  // Fails as a FileMaker script does when a step is unavailable: the call still succeeds, scriptError is "3".
  "Export PDF": () => ({ error: 3 }),
};
