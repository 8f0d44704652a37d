/**
 * Compile-time promises of exact number fields (docs/reading-and-writing.md, "Exact numbers"), checked by `npm run
 * typecheck`: a number field with `exact: true` reads as decimal text, create, edit and finds take text for it, and
 * a JavaScript number is an error. Every `@ts-expect-error` must be an error. Never run.
 */
import { expectTypeOf } from "vitest";
import { createClient, defineLayout, q, type FieldsOf, type InputOf, type PortalRowOf } from "@fmgen/runtime";
import { TortureLayout } from "../golden/generated/torture/index.js";

interface LedgerFields {
  Key: string | null;
  Amount: number | null;
  Codes: [string | null, string | null];
}

const Ledger = defineLayout<LedgerFields>()({
  database: "Accounts",
  layout: "Ledger",
  fields: { Key: { type: "number", exact: true }, Amount: { type: "number" }, Codes: { type: "number", exact: true, repetitions: 2 } },
  portals: { Lines: { fields: { "Lines::Key": { type: "number", exact: true }, "Lines::Qty": { type: "number" } } } },
});

const fm = createClient({ server: "http://127.0.0.1:1", database: "Accounts", auth: { username: "u", password: "p" } });
const ledger = fm.layout(Ledger);

export async function reads(): Promise<void> {
  const record = await ledger.get(1);
  expectTypeOf(record.fieldData.Key).toEqualTypeOf<string | null>();
  expectTypeOf(record.fieldData.Amount).toEqualTypeOf<number | null>();
  expectTypeOf<FieldsOf<typeof Ledger>["Codes"]>().toEqualTypeOf<[string | null, string | null]>();
  // A portal row's exact field is worked out from the spec alone.
  expectTypeOf<PortalRowOf<typeof Ledger, "Lines">>().toEqualTypeOf<{ "Lines::Key": string | null; "Lines::Qty": number | null }>();
}

export async function writes(): Promise<void> {
  expectTypeOf<InputOf<typeof Ledger>["Key"]>().toEqualTypeOf<string | null | undefined>();
  await ledger.create({ fieldData: { Key: "1234567890123456789012345678901234567890", Amount: 5, Codes: ["1", null] } });
  await ledger.edit(1, { fieldData: { Key: null }, portalData: { Lines: [{ "Lines::Key": "7", "Lines::Qty": 2 }] } });
  // @ts-expect-error a JavaScript number is no exact field's value: give decimal text
  await ledger.create({ fieldData: { Key: 12 } });
  // @ts-expect-error nor in a repetition
  await ledger.edit(1, { fieldData: { Codes: [1] } });
  // @ts-expect-error nor in a portal row
  await ledger.create({ fieldData: {}, portalData: { Lines: [{ "Lines::Key": 1 }] } });
  // @ts-expect-error a number field without exact still takes a number
  await ledger.create({ fieldData: { Amount: "5" } });
}

export async function finds(): Promise<void> {
  await ledger.find({ query: [{ Key: "123456789012345678901234567890" }, { Key: q.between("-1", "1.5"), Codes: q.gt("0") }, { Key: q.empty(), omit: true }] });
  ledger.query().where({ Key: q.lte("99") }).or({ "Lines::Key": q.eq("1") });
  // @ts-expect-error an exact field is found by decimal text, not a number
  await ledger.find({ query: [{ Key: 5 }] });
  // @ts-expect-error nor a helper given a number
  ledger.query().where({ Key: q.gt(5) });
  // @ts-expect-error a number field's helpers, not a text field's
  ledger.query().where({ Key: q.beginsWith("12") });
}

// The generator's exact fields (test/golden/torture.layout.json): the generated shapes agree with the spec.
const torture = createClient({ server: "http://127.0.0.1:1", database: "Tortüre DB", auth: { username: "u", password: "p" } }).layout(TortureLayout);

export async function generated(): Promise<void> {
  const { fieldData, portalData } = await torture.get(1);
  expectTypeOf(fieldData["UUID Key"]).toEqualTypeOf<string | null>();
  expectTypeOf(fieldData["Exact Reps"]).toEqualTypeOf<[string | null, string | null]>();
  expectTypeOf(fieldData["Exact Calc"]).toEqualTypeOf<string | null>();
  expectTypeOf(portalData["Line Items"][0]!["Lines::Exact Key"]).toEqualTypeOf<string | null>();
  await torture.create({ fieldData: { "UUID Key": "1234567890123456789012345678901234567890123456789012345678", "Exact Reps": ["1"] } });
  await torture.find({ query: [{ "UUID Key": q.gte("1"), "Lines::Exact Key": "5" }] });
  // @ts-expect-error a number for an exact field
  await torture.create({ fieldData: { "UUID Key": 1 } });
  // @ts-expect-error a read-only exact field
  await torture.create({ fieldData: { "Exact Calc": "1" } });
  // @ts-expect-error a number in a find on it
  await torture.find({ query: [{ "UUID Key": q.lt(10) }] });
}
