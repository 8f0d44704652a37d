/** The barrel's file, which re-exports every module. */
export const INDEX_FILE = "index.ts";
/** The schemas module's file: beside the layout modules, never re-exported by `index.ts`. */
export const SCHEMAS_FILE = "schemas.ts";

/**
 * Who owns each name of the generation: every exported name and every file of the output folder, decided before
 * anything is emitted, for all kinds of module at once (`planModules` fills one registry, kind by kind, in the
 * order of rule 4). The owner is what a clash message names.
 *
 * The naming rule:
 * 1. Derived names. A layout's type name `N` is its description's `name`, or else the PascalCase of its layout name
 *    (`defaultTypeName`: "Contacts Web" -> `ContactsWeb`); a portal's identifier `P` the PascalCase of its portal
 *    name the same way (`Portal` when nothing is left). A table's base name `B` is its description's `name`, or else
 *    the PascalCase of its table occurrence (`defaultTableTypeName`). A database module's name is the PascalCase of
 *    its database name.
 * 2. What each module declares. A layout module exports `N` + each layout-level suffix of the template ("",
 *    `Types`, `Fields`, `Input`, ...) and, per portal, `N` + `P` + each per-portal suffix (`Row`, `RowInput`); its
 *    file is the kebab-case of `N` (`ContactsWeb` -> `contacts-web.ts`). A table module declares `N` + each of
 *    `TABLE_SUFFIXES` ("", `Spec`, `Definition`, `Types`, `Row`, ...), where `N` is `B` unless rule 4 says otherwise;
 *    its file is `<kebab-case of B>.table.ts`, which no layout or database module (`<kebab-case>.ts`, no dot),
 *    `index.ts` or `schemas.ts` can meet. A database module exports its one name, in `<kebab-case>.ts`. Derived
 *    names are bounded (`MAX_DERIVED_NAME` characters): a longer one keeps its start and ends in `_` (`-` in file
 *    names) + 6 hex digits of the SHA-256 of the whole name it comes from, so any name, however long, generates.
 * 3. Among the modules of one kind (layouts; tables), names share one namespace, together with the runtime names
 *    that kind's modules import (layouts: the template's imports; tables: `TABLE_IMPORTS` and the reserved words);
 *    file names share another (compared in lower case, as on case-insensitive disks), with `index.ts` taken by the
 *    barrel and `schemas.ts` by the schemas module. Every derived identifier that takes part in a clash gets a
 *    suffix `_` + the first 6 hex digits of the SHA-256 of its own raw name (a layout or a table: its database and
 *    layout or table names; a portal: its portal name). Both sides of a clash between derived names are suffixed, so
 *    a name depends only on which clashes exist, never on the order of the inputs, and the suffix only on the
 *    identifier's own raw name: "Contacts-Web" and "Contacts Web" become `ContactsWeb_1a2b3c` and
 *    `ContactsWeb_4d5e6f`. A clash that no suffix can resolve is an error naming both description files: two
 *    explicit `name`s, an explicit `name` that equals a name another module of the kind exports (`ContactInput`
 *    beside a layout `Contact`) or a runtime import, or the same layout or table described twice. A `name` that
 *    equals its derived name counts as derived. An explicit `name` that is a reserved word (`class`, `eval`) is an
 *    error too.
 * 4. Across kinds, earlier kinds keep their names, so that adding a table never renames a layout's export or a
 *    database module:
 *    a. layouts' names, first;
 *    b. tables' explicit names: one equal to a name a layout module exports is an error naming both files;
 *    c. database modules yield, to layouts and to tables' explicit names: `<Database>`, else `<Database>Database`,
 *       else `<Database>Database_<hash>`, the first whose name and file are free (and no runtime import or reserved
 *       word); all taken is an error;
 *    d. tables' derived names: a table whose names meet no export keeps `B`; the others yield, after every table
 *       that keeps its name is placed and in the order of their database and table names: `N` is `B` + `Table`
 *       (`ContactsTable`, file still `contacts.table.ts`), else `B` + `Table` + `_<hash>`, the first whose names
 *       are all free; all taken is an error.
 */
export class NameRegistry {
  readonly #exports = new Map<string, string>();
  readonly #files = new Map<string, string>([
    [INDEX_FILE, `the barrel ${INDEX_FILE}`],
    [SCHEMAS_FILE, `the schemas module ${SCHEMAS_FILE}`],
  ]);

  /** Who exports `name`, if anyone has claimed it. */
  exportOwner(name: string): string | undefined {
    return this.#exports.get(name);
  }

  hasExport(name: string): boolean {
    return this.#exports.has(name);
  }

  hasFile(fileName: string): boolean {
    return this.#files.has(fileName);
  }

  /** The files claimed so far, with their owners, in the order they were claimed. */
  files(): IterableIterator<[fileName: string, owner: string]> {
    return this.#files.entries();
  }

  /** Records a decision: `owner` exports `names` from `fileName`. */
  claim(owner: string, fileName: string, names: Iterable<string>): void {
    this.#files.set(fileName, owner);
    for (const name of names) this.#exports.set(name, owner);
  }
}
