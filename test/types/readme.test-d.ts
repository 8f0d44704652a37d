/**
 * The README's snippets that earlier type tests did not compile as written, checked by `npm run typecheck` under the
 * project's flags (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess): the repetition form of
 * `setGlobals` ("`TO::field(2)` for a repetition") and a built query run with scripts
 * (`contacts.find({ ...query.toFindOptions(), script })`), each with a database definition. Never run.
 */
import { expectTypeOf } from "vitest";
import { createClient, defineDatabase, type PortalInfo, type ScriptCall, type ScriptResults } from "@fmgen/runtime";
import { Contact, type ContactRecord } from "../../examples/contacts/generated/index.js";

const Contacts = defineDatabase({
  database: "Contacts",
  scripts: ["Log Find", "Send Invoice"],
  globals: { "Globals::gUserId": { type: "text" }, "Globals::gCount": { type: "number" }, "Globals::gList": { type: "text", repetitions: 3 } },
});
const fm = createClient({ server: "https://fms.example.com", database: Contacts, auth: { username: "u", password: "p" } });
const contacts = fm.layout(Contact);

export async function setGlobalsAsTheReadmeWritesIt(): Promise<void> {
  await fm.setGlobals({ "Globals::gUserId": "42", "Globals::gCount": 3 }); // PATCH /globals, this session only
  // `TO::field(2)` for a repetition.
  await fm.setGlobals({ "Globals::gList(2)": "second" });
  await fm.setGlobals({ "Globals::gList": "first", "Globals::gList(3)": 3 });
}

export async function aBuiltQueryWithScripts(): Promise<void> {
  const script: ScriptCall<"Log Find"> = { name: "Log Find", param: "x" };
  const query = contacts.query().where({ Status: "Active" }).sort("Birthday", "descend").limit(10);
  const found = await contacts.find({ ...query.toFindOptions(), script });
  expectTypeOf(found.scripts).toEqualTypeOf<ScriptResults>();
  expectTypeOf(found.data).toEqualTypeOf<ContactRecord[]>();
  // With portals chosen on the query, the records carry those portals and their portalInfo.
  const withPortals = contacts.query().where({ Status: "Active" }).portals({ Invoices: { limit: 1 } });
  const page = await contacts.find({ ...withPortals.toFindOptions(), prerequest: { name: "Send Invoice" } });
  expectTypeOf(page.data[0]!.portalInfo.Invoices).toEqualTypeOf<PortalInfo>();
  expectTypeOf(page.scripts.prerequest).toEqualTypeOf<ScriptResults["prerequest"]>();
  // @ts-expect-error: the database has no such script
  await contacts.find({ ...query.toFindOptions(), script: { name: "Log Finds" } });
}
