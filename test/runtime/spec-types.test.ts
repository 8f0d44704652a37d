import { describe, expect, expectTypeOf, it } from "vitest";
import {
  createClient,
  defineLayout,
  q,
  type ContainersOf,
  type FmRecord,
  type InputOf,
  type KindsOf,
  type LayoutClient,
  type PortalInputOf,
  type PortalRow,
  type PortalRowOf,
  type PortalsOf,
  type QueryOf,
} from "../../src/runtime/index.js";

// A definition as generated modules write it: the read shape of the fields written out, every other shape derived
// from the spec's literal types, the writable fields apart from the read-only ones and the containers. The type
// checks run under `npm run typecheck`; the `@ts-expect-error` lines fail it when the error they expect is gone.

interface NoteFields {
  id: number | null;
  Title: string;
  Status: "Open" | "Done" | "";
  Tags: [string, string];
  Due: string | null;
  Photo: string | null;
  toString: string;
}

const Note = defineLayout<NoteFields>()({
  database: "Notes",
  layout: "Notes Web",
  fields: {
    Title: { type: "text" },
    Status: { type: "text", valueList: ["Open", "Done"] },
    Tags: { type: "text", repetitions: 2 },
    Due: { type: "date" },
    toString: { type: "text" },
  },
  readOnly: {
    id: { type: "number" },
  },
  containers: {
    Photo: {},
  },
  portals: {
    Lines: { fields: { "Lines::Amount": { type: "number" }, "Lines::Total": { type: "number", readOnly: true }, "Lines::Scan": { type: "container" } } },
  },
});

const Empty = defineLayout<{ Total: number | null }>()({ layout: "Totals", fields: {}, readOnly: { Total: { type: "number" } } });

describe("defineLayout<Fields>()(spec)", () => {
  it("puts the read-only fields and the containers among the fields, after the writable ones, where the runtime looks", () => {
    expect(Object.keys(Note.fields)).toEqual(["Title", "Status", "Tags", "Due", "toString", "id", "Photo"]);
    expect(Note.fields.id).toEqual({ type: "number", readOnly: true });
    expect(Note.fields.Photo).toEqual({ type: "container" });
    const proto = defineLayout<object>()({ layout: "L", fields: {}, containers: { ["__proto__"]: { repetitions: 2 } } }).fields;
    expect(Object.keys(proto)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(proto, "__proto__")?.value).toEqual({ repetitions: 2, type: "container" });
    // A spec without groups is the spec itself.
    const plain = { layout: "Plain", fields: { A: { type: "text" } } } as const;
    expect(defineLayout<{ A: string }>()(plain)).toBe(plain);
  });

  it("refuses, at run time, what the types refuse: writing a read-only field or a container", async () => {
    const fm = createClient({ server: "http://127.0.0.1:9", database: "Notes", auth: { username: "u", password: "p" } });
    const notes = fm.layout(Note);
    // @ts-expect-error: read-only
    await expect(notes.create({ fieldData: { id: 1 } })).rejects.toThrow(/"id"/);
    // @ts-expect-error: a container is written only through upload()
    await expect(notes.create({ fieldData: { Photo: "x" } })).rejects.toThrow(/"Photo"/);
    await fm.close();
  });
});

/** Never called: what compiles and what does not. */
export async function typeChecksOnly(notes: LayoutClient<typeof Note>, empty: LayoutClient<typeof Empty>): Promise<void> {
  expectTypeOf<InputOf<typeof Note>>().toEqualTypeOf<{
    Title?: string | null;
    Status?: "Open" | "Done" | "" | null;
    Tags?: readonly [(string | null | undefined)?, (string | null | undefined)?];
    Due?: string | null;
    toString?: string | null;
  }>();
  expectTypeOf<ContainersOf<typeof Note>>().toEqualTypeOf<"Photo">();
  expectTypeOf<ContainersOf<typeof Empty>>().toEqualTypeOf<never>();
  expectTypeOf<PortalRowOf<typeof Note, "Lines">>().toEqualTypeOf<{ "Lines::Amount": number | null; "Lines::Total": number | null; "Lines::Scan": string | null }>();
  expectTypeOf<PortalsOf<typeof Note>["Lines"]>().toEqualTypeOf<PortalRow<PortalRowOf<typeof Note, "Lines">>[]>();
  expectTypeOf<NonNullable<PortalInputOf<typeof Note>["Lines"]>[number]>().toEqualTypeOf<{ "Lines::Amount"?: number | null } & { recordId?: string; modId?: string }>();
  expectTypeOf(await notes.get(1)).toEqualTypeOf<FmRecord<NoteFields, PortalsOf<typeof Note>>>();
  expectTypeOf<KindsOf<typeof Note>["fields"]["Due"]["type"]>().toEqualTypeOf<"date">();

  await notes.create({ fieldData: { Title: "x", Tags: ["a"], toString: "s" }, portalData: { Lines: [{ "Lines::Amount": 1 }] } });
  await notes.edit(1, { fieldData: { Status: null } });
  await notes.create({ fieldData: {} });
  // @ts-expect-error: a container is written with upload()
  await notes.create({ fieldData: { Photo: "x" } });
  // @ts-expect-error: a read-only field
  await notes.edit(1, { fieldData: { id: 2 } });
  // @ts-expect-error: not a value of the value list
  await notes.create({ fieldData: { Status: "Later" } });
  // @ts-expect-error: a read-only portal field
  await notes.create({ fieldData: {}, portalData: { Lines: [{ "Lines::Total": 1 }] } });
  // @ts-expect-error: a container portal field
  await notes.create({ fieldData: {}, portalData: { Lines: [{ "Lines::Scan": "x" }] } });
  // @ts-expect-error: a layout without writable fields takes none
  await empty.create({ fieldData: { Total: 1 } });
  // @ts-expect-error: a layout without portals takes no portalData
  await empty.create({ fieldData: {}, portalData: { Lines: [] } });
  await notes.upload(1, "Photo", new Blob([]));
  // @ts-expect-error: upload only into containers
  await notes.upload(1, "Title", new Blob([]));

  // Finds: kinds from the spec, portal fields included.
  const query: QueryOf<typeof Note> = { Due: q.gte("2024-01-01"), "Lines::Amount": q.gt(5), Title: q.beginsWith("A"), id: q.lt(3) };
  await notes.find({ query: [query, { Photo: q.notEmpty() }] });
  // @ts-expect-error: beginsWith is for text fields
  await notes.find({ query: [{ Due: q.beginsWith("2024") }] });
  // @ts-expect-error: a range on a container
  await notes.find({ query: [{ Photo: q.gt("a") }] });
  // @ts-expect-error: a portal number field takes numbers
  await notes.find({ query: [{ "Lines::Amount": "five" }] });
  // @ts-expect-error: no such field
  await notes.find({ query: [{ Nope: 1 }] });
}
