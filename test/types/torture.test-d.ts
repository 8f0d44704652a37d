/**
 * Hostile field names stay usable from TypeScript: every one is a key of the generated types, reads and writes
 * compile, and keys that look like Object.prototype members or `__proto__` are ordinary fields. Never run.
 */
import { expectTypeOf } from "vitest";
import { createClient } from "@fmgen/runtime";
import {
  TortureLayout,
  ContactsWeb_26a729,
  ContactsWeb_828fd5,
  type TortureLayoutFieldName,
  type TortureLayoutFields,
  type TortureLayoutInput,
  type TortureLayoutPortals,
} from "../golden/generated/torture/index.js";

const fm = createClient({ server: "http://127.0.0.1:1", database: "Tortüre DB", auth: { username: "u", password: "p" } });
const torture = fm.layout(TortureLayout);

export async function hostileNames(): Promise<void> {
  const { fieldData, portalData } = await torture.get(1);
  expectTypeOf(fieldData["__proto__"]).toEqualTypeOf<string | null>();
  expectTypeOf(fieldData.constructor).toEqualTypeOf<number | null>();
  expectTypeOf(fieldData["line\nbreak"]).toEqualTypeOf<string | null>();
  expectTypeOf(fieldData['q"uote']).toEqualTypeOf<string | null>();
  expectTypeOf(fieldData["C:\\path\\to"]).toEqualTypeOf<number | null>();
  expectTypeOf(fieldData["émoji 🎉"]).toEqualTypeOf<string | null>();
  expectTypeOf(fieldData["Huge Repetitions"]).toEqualTypeOf<(number | null)[]>();
  expectTypeOf(portalData["__proto__"]).items.toHaveProperty("Protos::constructor");
  expectTypeOf<"class" | "123" | "::" | "" | "__proto__">().toExtend<TortureLayoutFieldName | "">();
  expectTypeOf<TortureLayoutPortals>().toHaveProperty("constructor");
  await torture.create({ fieldData: { "line\nbreak": "2024-01-01", constructor: 1, "tab\there": ["00:00:00"] } });
  // A field named "constructor" does not make find requests that leave it out fail (runtime FindRequest).
  await torture.find({ query: [{ "${template}": "12:00:00", "\\": "2024-01-01T00:00:00" }] });
  await torture.list({ sort: [{ fieldName: "__proto__", sortOrder: "ascend" }] });
  // Its descriptions list values but name no value list: a sort takes ascend and descend only.
  await torture.find({ query: [{ constructor: 1 }], sort: [{ fieldName: "constructor", sortOrder: "descend" }] });
  // @ts-expect-error: no value list of the file is described
  await torture.list({ sort: [{ fieldName: "__proto__", sortOrder: "Statuses" }] });
  // @ts-expect-error: nor in the query builder
  torture.query().sort("__proto__", "Statuses");
  // @ts-expect-error: a typo of descend
  torture.query().sort("__proto__", "decsend");
  // @ts-expect-error: "  " is read-only
  await torture.create({ fieldData: { "  ": "00:00:00" } });
  // @ts-expect-error: the punctuation does count: "First  Name" is not "First Name"
  await torture.create({ fieldData: { "First  Name": "Active" } });
  // @ts-expect-error: a container in a portal row input
  await torture.create({ fieldData: {}, portalData: { "Line Items": [{ "Lines::Photo": "x" }] } });
}

export function distinctLayouts(): void {
  // "Contacts-Web" and "Contacts Web" both derive `ContactsWeb`: each gets a suffix from a hash of its own name.
  expectTypeOf(ContactsWeb_26a729.layout).toBeString();
  expectTypeOf(ContactsWeb_828fd5.layout).toBeString();
  expectTypeOf<keyof TortureLayoutInput>().toExtend<keyof TortureLayoutFields>();
}
