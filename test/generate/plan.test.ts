import { describe, expect, it } from "vitest";
import { hashSuffix, IdentifierClashError, kebabCase, type LayoutPlan } from "../../src/generate/index.js";
import { layout, layoutPlans } from "./helpers.js";

const plan = (...layouts: Parameters<typeof layout>[0][]) => layoutPlans(layouts.map((l, i) => layout(l, `l${i}.layout.json`)));
const summary = (plans: LayoutPlan[]) => plans.map((p) => ({ typeName: p.typeName, fileName: p.fileName, portals: p.portals.map((x) => x.identifier) }));
const clash = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(IdentifierClashError);
    return (error as Error).message;
  }
  throw new Error("no clash reported");
};

describe("kebabCase (file names)", () => {
  it.each([
    ["Contact", "contact"],
    ["ContactsWeb", "contacts-web"],
    ["_2024Invoices", "2024-invoices"],
    ["HTMLPage", "html-page"],
    ["V2Layout", "v2-layout"],
    ["ContactsWeb_1a2b3c", "contacts-web-1a2b3c"],
    ["$", "layout"],
    ["snake_case_name", "snake-case-name"],
  ])("%s -> %s", (identifier, file) => {
    expect(kebabCase(identifier)).toBe(file);
  });
});

describe("planModules: the identifier rule of layouts", () => {
  it("uses the explicit name, else the PascalCase of the layout; portals by the PascalCase of their names", () => {
    const plans = plan(
      { layout: "Contacts Web", name: "Contact", fields: [] },
      { layout: "invoice lines", fields: [], portals: [{ name: "line items", table: "T", fields: [] }, { name: "__proto__", table: "T", fields: [] }, { name: "日本", table: "T", fields: [] }] },
    );
    expect(summary(plans)).toEqual([
      { typeName: "Contact", fileName: "contact.ts", portals: [] },
      { typeName: "InvoiceLines", fileName: "invoice-lines.ts", portals: ["LineItems", "Proto__", "Portal"] },
    ]);
  });

  it("suffixes derived layout names that differ only by punctuation with a hash of each one's own raw name", () => {
    const plans = plan({ layout: "Contacts-Web", fields: [] }, { layout: "Contacts Web", fields: [] });
    const dash = `ContactsWeb${hashSuffix("DB\u0000Contacts-Web")}`;
    const space = `ContactsWeb${hashSuffix("DB\u0000Contacts Web")}`;
    expect(dash).not.toBe(space);
    expect(plans.map((p) => p.typeName).sort()).toEqual([dash, space].sort());
    expect(plans.map((p) => p.fileName).sort()).toEqual([`${kebabCase(dash)}.ts`, `${kebabCase(space)}.ts`].sort());
  });

  it("gives the same names whatever the order and whatever other unrelated layouts there are", () => {
    const a = { layout: "Contacts-Web", fields: [] };
    const b = { layout: "Contacts Web", fields: [] };
    const c = { layout: "Other", fields: [] };
    const names = (plans: LayoutPlan[]) => Object.fromEntries(plans.map((p) => [p.layout.layout, p.typeName]));
    expect(names(plan(b, a))).toEqual(names(plan(a, b)));
    expect(names(plan(b, c, a))).toEqual({ ...names(plan(a, b)), Other: "Other" });
  });

  it("keeps an explicit name and suffixes the derived one that clashes with it", () => {
    const plans = plan({ layout: "Contact", fields: [] }, { layout: "Contacts Web", name: "Contact", fields: [] });
    expect(plans.find((p) => p.layout.layout === "Contacts Web")!.typeName).toBe("Contact");
    expect(plans.find((p) => p.layout.layout === "Contact")!.typeName).toBe(`Contact${hashSuffix("DB\u0000Contact")}`);
  });

  it("refuses two explicit names that clash, naming both files", () => {
    const message = clash(() => plan({ layout: "A", name: "Same", fields: [] }, { layout: "B", name: "Same", fields: [] }));
    expect(message).toContain('"Same" is claimed by l0.layout.json (layout "A", name "Same") and l1.layout.json (layout "B", name "Same")');
  });

  it("refuses an explicit name that equals a name another layout exports", () => {
    const message = clash(() => plan({ layout: "Contacts Web", name: "Contact", fields: [] }, { layout: "Inputs", name: "ContactInput", fields: [] }));
    expect(message).toMatch(/"ContactInput" is claimed by l0\.layout\.json \(layout "Contacts Web", name "Contact"\) and l1\.layout\.json \(layout "Inputs", name "ContactInput"\)/);
  });

  it("suffixes a derived name that equals a name another layout exports", () => {
    const plans = plan({ layout: "Contacts Web", name: "Contact", fields: [] }, { layout: "Contact Input", fields: [] });
    expect(plans.map((p) => p.typeName).sort()).toEqual(["Contact", `ContactInput${hashSuffix("DB\u0000Contact Input")}`]);
  });

  it("refuses explicit names that clash with a runtime import or are reserved words", () => {
    expect(clash(() => plan({ layout: "X", name: "QueryOf", fields: [] }))).toContain('"QueryOf" is claimed by the runtime import "QueryOf" and l0.layout.json');
    expect(clash(() => plan({ layout: "X", name: "class", fields: [] }))).toContain('"class" is a reserved word');
    expect(clash(() => plan({ layout: "X", name: "eval", fields: [] }))).toContain('"eval" is a reserved word');
  });

  it("suffixes a derived name that clashes with a runtime import", () => {
    expect(plan({ layout: "Define Layout", fields: [] })[0]!.typeName).toBe("DefineLayout");
    expect(plan({ layout: "define layout", fields: [] })[0]!.typeName).toBe("DefineLayout");
    expect(plan({ layout: "Sort Spec", fields: [] })[0]!.typeName).toBe(`SortSpec${hashSuffix("DB\u0000Sort Spec")}`);
  });

  it("keeps file names apart: case-only differences, and index.ts for the barrel", () => {
    expect(clash(() => plan({ layout: "A", name: "ABC", fields: [] }, { layout: "B", name: "Abc", fields: [] }))).toContain('the file name "abc.ts" is claimed by');
    expect(clash(() => plan({ layout: "X", name: "Index", fields: [] }))).toContain('the file name "index.ts" is claimed by the barrel index.ts');
    expect(plan({ layout: "Index", fields: [] })[0]!.fileName).toBe(`index${hashSuffix("DB\u0000Index").replace("_", "-")}.ts`);
  });

  it("suffixes portals whose names differ only by punctuation or case", () => {
    const [p] = plan({ name: "Thing", fields: [], portals: ["Line Items", "Line-Items", "line items", "Notes"].map((name) => ({ name, table: "T", fields: [] })) });
    expect(p!.portals.map((x) => x.identifier)).toEqual([
      `LineItems${hashSuffix("Line Items")}`,
      `LineItems${hashSuffix("Line-Items")}`,
      `LineItems${hashSuffix("line items")}`,
      "Notes",
    ]);
  });

  it("suffixes a portal whose row names clash with another layout's names", () => {
    const plans = plan({ layout: "A", name: "Contact", fields: [], portals: [{ name: "Invoices", table: "T", fields: [] }] }, { layout: "B", name: "ContactInvoicesRow", fields: [] });
    expect(plans.find((p) => p.typeName === "Contact")!.portals[0]!.identifier).toBe(`Invoices${hashSuffix("Invoices")}`);
  });

  it("refuses the same layout described twice", () => {
    expect(clash(() => plan({ layout: "Same", fields: [] }, { layout: "Same", fields: [] }))).toMatch(/l0\.layout\.json \(layout "Same"\) and l1\.layout\.json \(layout "Same"\)/);
  });

  it("orders plans by file name", () => {
    expect(plan({ layout: "b", fields: [] }, { layout: "a", fields: [] }, { layout: "C", fields: [] }).map((p) => p.fileName)).toEqual(["a.ts", "b.ts", "c.ts"]);
  });
});
