import { boundName, shortHash } from "../../layout/index.js";

/** How a module's names are spelled from an identifier (name-registry.ts, rules 1 and 2): its file, its suffixes. */

/** `ContactsWeb` -> `contacts-web`, `_2024Invoices` -> `2024-invoices`, `HTMLPage_a1b2c3` -> `html-page-a1b2c3`. */
export function kebabCase(identifier: string): string {
  const words = identifier.split(/[_$]+/).flatMap((part) => part.match(/[A-Z]+(?![a-z])[0-9]*|[A-Z]?[a-z0-9]+|[0-9]+/g) ?? []);
  return words.length ? words.join("-").toLowerCase() : "layout";
}

/** A stable suffix from an identifier's own raw name. */
export function hashSuffix(raw: string): string {
  return `_${shortHash(raw)}`;
}

/** The module file of a layout or database whose type name is `typeName` (a table's, of its base), without its extension: its kebab-case, bounded. */
export function moduleFileBase(typeName: string): string {
  return boundName(kebabCase(typeName), typeName, "-");
}
