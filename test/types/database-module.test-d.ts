/**
 * Compile-time guarantees of generated database modules, checked by `npm run typecheck` (tsconfig.json includes
 * test/): every `@ts-expect-error` below must be an error, everything else must compile. Written against committed
 * generated code: examples/invoices (a database description with scripts in folders), examples/contacts (none)
 * and the torture golden set (odd script names, globals). Never run.
 */
import { expectTypeOf } from "vitest";
import type { GlobalsOf, ScriptNameOf } from "@fmgen/runtime";
import { Invoicing } from "../../examples/invoices/generated/index.js";
import { Contacts } from "../../examples/contacts/generated/index.js";
import { TortureDB } from "../golden/generated/torture/index.js";

export function scriptNamesAreALiteralUnion(): void {
  expectTypeOf<ScriptNameOf<typeof Invoicing>>().toEqualTypeOf<"Send Invoice" | "Invoice Total" | "Export PDF">();
  const known: ScriptNameOf<typeof Invoicing> = "Export PDF";
  // @ts-expect-error: Invoicing has no script of that name
  const unknown: ScriptNameOf<typeof Invoicing> = "Export PDFs";
  // Folders are not part of a name.
  // @ts-expect-error: the folder path is not a script name
  const folder: ScriptNameOf<typeof Invoicing> = "Billing";
  void [known, unknown, folder];
}

export function aDatabaseWithoutDescriptionHasNoScriptOrGlobal(): void {
  expectTypeOf<ScriptNameOf<typeof Contacts>>().toEqualTypeOf<never>();
  // @ts-expect-error: the contacts example describes no script
  const none: ScriptNameOf<typeof Contacts> = "Send Invoice";
  void none;
  expectTypeOf<keyof GlobalsOf<typeof Contacts>>().toEqualTypeOf<never>();
}

export function oddNamesAndGlobalsKeepTheirLiterals(): void {
  expectTypeOf<ScriptNameOf<typeof TortureDB>>().toEqualTypeOf<"Send Invoice" | 'q"uote' | "__proto__" | "bidi\u202eevil" | "日本語 ✓" | "it's">();
  // Global fields by their qualified names, a repeating one's repetitions too (Torture::NaN has 3); a read-only
  // global (a calculation) is not among them.
  expectTypeOf<keyof GlobalsOf<typeof TortureDB>>().toEqualTypeOf<"::" | "Lines::__proto__" | "Torture::NaN" | "Torture::NaN(1)" | "Torture::NaN(2)" | "Torture::NaN(3)">();
  // @ts-expect-error: "__proto__" on the layout is a read-only global, which setGlobals cannot set
  const calc: GlobalsOf<typeof TortureDB> = { "Torture::__proto__": "x" };
  void calc;
}
