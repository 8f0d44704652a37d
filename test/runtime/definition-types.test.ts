import { describe, expect, expectTypeOf, it } from "vitest";
import { createClient, defineLayout, type FmRecord, type LayoutClient, type Page, type PortalRow } from "../../src/runtime/index.js";
import { Contact, type ContactFields, type ContactPortals, Types, type TypesFields } from "../support/runtime-layouts.js";

// Type-level guarantees of the hand-written definitions through the runtime's generic types. These are
// checked by `tsc -p tsconfig.json --noEmit` (the `@ts-expect-error` lines fail the type check when the
// error they expect is gone); at run time the tests only build clients, with no request.

const fm = createClient({ server: "http://127.0.0.1:9", database: "Contacts", auth: { username: "u", password: "p" } });

/** Never called: type checks of calls that would otherwise go to a server. */
function typeChecksOnly(contacts: LayoutClient<typeof Contact>) {
  // @ts-expect-error sort only by fields of the layout
  void contacts.list({ sort: [{ fieldName: "Nope", sortOrder: "ascend" }] });
  // sortOrder is ascend | descend | a value list's name, and optional
  void contacts.list({ sort: [{ fieldName: "Email", sortOrder: "Statuses" }, { fieldName: "Email" }] });
  // @ts-expect-error read-only fields are not input
  void contacts.create({ fieldData: { id: 5 } });
  // @ts-expect-error containers are not input
  void contacts.edit(1, { fieldData: { Photo: "x" } });
  // @ts-expect-error value-list fields take their values
  void contacts.create({ fieldData: { Status: "Pending" } });
  // @ts-expect-error upload only into containers
  void contacts.upload(1, "Email", new Blob([]));
  // @ts-expect-error find only by fields of the layout
  void contacts.find({ query: [{ Nope: "x" }] });
  // @ts-expect-error find values have the field's type
  void contacts.find({ query: [{ id: "one" }] });
  // @ts-expect-error portal rows take the portal's fields
  void contacts.create({ fieldData: {}, portalData: { Invoices: [{ "Invoices::Nope": 1 }] } });
  void contacts.find({ query: [{ Status: "Inactive", omit: true }, { Birthday: "1815-12-10" }] });
  // Portal fields are on the layout (the runtime and the emulator find by them): this must compile.
  void contacts.find({ query: [{ "Invoices::Amount": 80 }] });
  void contacts.upload(1, "Photo", "/tmp/photo.png", { repetition: 1, filename: "p.png" });
}
void typeChecksOnly;

describe("definition types", () => {
  it("records, pages and portal rows carry the definition's interfaces", () => {
    const contacts = fm.layout(Contact);
    // The reads are generic in the portals and response layout they are given (`<undefined>`: neither).
    expectTypeOf(contacts.get<undefined>).returns.resolves.toEqualTypeOf<FmRecord<ContactFields, ContactPortals>>();
    expectTypeOf(contacts.list<undefined>).returns.resolves.toEqualTypeOf<Page<FmRecord<ContactFields, ContactPortals>>>();
    expectTypeOf(contacts.findFirst<undefined>).returns.resolves.toEqualTypeOf<FmRecord<ContactFields, ContactPortals> | undefined>();
    expectTypeOf<ContactPortals["Invoices"][number]["recordId"]>().toEqualTypeOf<string>();
    expectTypeOf(fm.layout(Types).get<undefined>).returns.resolves.toHaveProperty("fieldData").toEqualTypeOf<TypesFields>();
    expectTypeOf<TypesFields["File"]>().toEqualTypeOf<[string | null, string | null]>();
    expect(contacts.definition.layout).toBe("Contacts Web");
  });

  it("fm.layout accepts a definition whose shapes are declared as interfaces, as generated modules declare them", () => {
    interface NoteFields {
      Title: string;
      Count: number | null;
    }
    interface NoteInput {
      Title?: string | null;
      Count?: number | null;
    }
    interface NotePortals {
      Tags: PortalRow<{ "Tags::Name": string }>[];
    }
    interface NotePortalInput {
      Tags?: { "Tags::Name"?: string }[];
    }
    interface NoteTypes {
      fields: NoteFields;
      input: NoteInput;
      portals: NotePortals;
      portalInput: NotePortalInput;
      containers: never;
    }
    const Note = defineLayout<NoteTypes>({
      layout: "Notes",
      fields: { Title: { type: "text" }, Count: { type: "number" } },
      portals: { Tags: { fields: { "Tags::Name": { type: "text" } } } },
    });
    // Type error today: LayoutDefinition<NoteTypes> is not assignable to LayoutDefinition<AnyLayoutTypes>,
    // because an interface has no implicit index signature (see the lead's report).
    const notes = fm.layout(Note);
    expectTypeOf(notes.get<undefined>).returns.resolves.toHaveProperty("fieldData").toEqualTypeOf<NoteFields>();
    expect(notes.definition.layout).toBe("Notes");
  });

  it("closes the client without a request", async () => {
    await fm.close();
  });
});
