import { describe, expect, it } from "vitest";
import { createState } from "../../../src/emulator/index.js";
import { odataMetadata } from "../../../src/emulator/odata/metadata-document.js";
import { serviceDocument } from "../../../src/emulator/odata/service-document.js";
import { contactsLayout, notesLayout } from "./metadata-fixtures.js";

// The emulator's own hosted database (descriptions, JavaScript calculations, seed), not a hand-built model.
describe("$metadata of the emulator's hosted database", () => {
  it("marks fields computed by a JavaScript calculation, and leaves related fields to navigation", async () => {
    const withoutReadOnly = { ...notesLayout, fields: [...notesLayout.fields, { name: "Shout", type: "text" as const, readOnly: true }] };
    const state = await createState({
      layouts: [contactsLayout, withoutReadOnly],
      calculations: { Notes: { Shout: (r) => String(r.Text ?? "").toUpperCase() } },
      log: () => {},
    });
    const db = state.databases.get("Shop")!;
    const doc = JSON.parse(odataMetadata(db, { format: "json" }).body);
    expect(doc.Shop.Notes_.Shout).toMatchObject({ "@Calculation": true, "@Org.OData.Core.V1.Permissions": "Org.OData.Core.V1.Permission@Read" });
    expect(Object.keys(doc.Shop.Contacts_)).not.toContain("Invoices::Amount");
    expect(doc.Shop.Contacts_.Invoices.$Kind).toBe("NavigationProperty");
    expect(serviceDocument(db, "http://127.0.0.1:1/fmi/odata/v4/Shop").value.map((e) => e.name)).toEqual(["Contacts", "Invoices", "Notes"]);
  });
});
