import { boundName, defaultTypeName, shortHash, type LayoutDescription, type PortalDescription } from "../layout/index.js";
import { compareCodeUnits } from "../project/index.js";
import type { LayoutModuleTemplate } from "./template.js";
import { RESERVED_WORDS } from "./text.js";

/**
 * Planning identifiers: every name a generated file declares, decided before anything is emitted.
 *
 * The rule:
 * 1. A layout's type name `N` is its description's `name`, or else the PascalCase of its layout name
 *    (`defaultTypeName`: "Contacts Web" -> `ContactsWeb`). A portal's identifier `P` is the PascalCase of its
 *    portal name the same way (`Portal` when nothing is left).
 * 2. A layout module exports `N` + each layout-level suffix of the template ("", `Types`, `Fields`, `Input`, ...)
 *    and, per portal, `N` + `P` + each per-portal suffix (`Row`, `RowInput`). Its file is the kebab-case of `N`
 *    (`ContactsWeb` -> `contacts-web.ts`). Derived names are bounded (`MAX_DERIVED_NAME` characters): a longer
 *    `N`, `P` or file name keeps its start and ends in `_` (`-` in file names) + 6 hex digits of the SHA-256 of
 *    the whole name it comes from, so any layout name, however long, generates.
 * 3. All these names share one namespace across the whole generation, together with the runtime names the
 *    template imports (`defineLayout`, `FmRecord`, ...); file names share another (compared in lower case, as
 *    on case-insensitive disks), with `index.ts` taken by the barrel.
 * 4. Every derived identifier that takes part in a clash gets a suffix `_` + the first 6 hex digits of the
 *    SHA-256 of its own raw name (a layout: its database and layout names; a portal: its portal name). Both
 *    sides of a clash between derived names are suffixed, so a name depends only on which clashes exist, never
 *    on the order of the inputs, and the suffix only on the identifier's own raw name. "Contacts-Web" and
 *    "Contacts Web" become `ContactsWeb_1a2b3c` and `ContactsWeb_4d5e6f`.
 * 5. A clash that no suffix can resolve is an error naming both description files: two explicit `name`s, an
 *    explicit `name` that equals a name another layout exports (`ContactInput` beside a layout `Contact`) or a
 *    runtime import, or the same layout described twice. A layout's `name` that equals its derived name counts
 *    as derived. An explicit `name` that is a reserved word (`class`, `eval`) is an error too.
 */

export interface PortalPlan {
  portal: PortalDescription;
  /** `P`: the portal's part of its type names. */
  identifier: string;
}

export interface LayoutPlan {
  layout: LayoutDescription;
  /** `N`: the definition's name and the prefix of every other name of the module. */
  typeName: string;
  /** The module's file name, relative to the output folder (`contacts-web.ts`). */
  fileName: string;
  portals: readonly PortalPlan[];
}

export class IdentifierClashError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`cannot name the generated code:\n  ${problems.join("\n  ")}`);
    this.name = "IdentifierClashError";
  }
}

/** The name of a declaration of a planned module: `N` + suffix, or `N` + `P` + suffix per portal. */
export function declarationName(plan: LayoutPlan, suffix: string, portal?: PortalPlan): string {
  return `${plan.typeName}${portal ? portal.identifier : ""}${suffix}`;
}

/** `ContactsWeb` -> `contacts-web`, `_2024Invoices` -> `2024-invoices`, `HTMLPage_a1b2c3` -> `html-page-a1b2c3`. */
export function kebabCase(identifier: string): string {
  const words = identifier.split(/[_$]+/).flatMap((part) => part.match(/[A-Z]+(?![a-z])[0-9]*|[A-Z]?[a-z0-9]+|[0-9]+/g) ?? []);
  return words.length ? words.join("-").toLowerCase() : "layout";
}

/** A stable suffix from an identifier's own raw name. */
export function hashSuffix(raw: string): string {
  return `_${shortHash(raw)}`;
}

/** The module file of a layout whose type name is `typeName`, without `.ts`: its kebab-case, bounded. */
export function moduleFileBase(typeName: string): string {
  return boundName(kebabCase(typeName), typeName, "-");
}

function portalIdentifier(name: string): string {
  const derived = defaultTypeName(name);
  // defaultTypeName falls back to "Layout" and guards leading digits with "_"; inside `N` + `P` neither fits.
  if (derived === "Layout" && !/layout/i.test(name)) return "Portal";
  const trimmed = derived.replace(/^_+/, "");
  return trimmed ? trimmed.charAt(0).toUpperCase() + trimmed.slice(1) : "Portal";
}

interface Candidate {
  layout: LayoutDescription;
  explicit: boolean;
  suffixed: boolean;
  typeName: string;
  portals: { portal: PortalDescription; identifier: string; suffixed: boolean }[];
}

/** Who declares a name: a layout's own names, one of its portals, or the runtime/barrel. */
type Owner = { layout: number; portal?: number } | { reserved: string };

export function planIdentifiers(layouts: readonly LayoutDescription[], template: LayoutModuleTemplate): LayoutPlan[] {
  const problems: string[] = [];
  const candidates: Candidate[] = layouts.map((layout) => {
    const explicit = layout.name !== defaultTypeName(layout.layout);
    if (explicit && RESERVED_WORDS.has(layout.name)) problems.push(`${describe(layout)}: "${layout.name}" is a reserved word; choose another "name"`);
    return {
      layout,
      explicit,
      suffixed: false,
      typeName: layout.name,
      portals: layout.portals.map((portal) => ({ portal, identifier: portalIdentifier(portal.name), suffixed: false })),
    };
  });
  if (problems.length) throw new IdentifierClashError(problems.sort(compareCodeUnits));

  const layoutSuffixes = template.declarations.filter((d) => !d.perPortal).map((d) => d.suffix);
  const portalSuffixes = template.declarations.filter((d) => d.perPortal).map((d) => d.suffix);
  const reserved = new Map<string, string>(template.imports.map((i) => [i.name, `the runtime import "${i.name}"`]));

  const clashes = () => {
    const names = new Map<string, Owner[]>();
    const add = (name: string, owner: Owner) => {
      const owners = names.get(name);
      if (owners) owners.push(owner);
      else names.set(name, [owner]);
    };
    for (const [name, what] of reserved) add(name, { reserved: what });
    add("file:index", { reserved: "the barrel index.ts" });
    candidates.forEach((c, layout) => {
      for (const suffix of layoutSuffixes) add(c.typeName + suffix, { layout });
      add(`file:${moduleFileBase(c.typeName)}`, { layout });
      c.portals.forEach((p, portal) => {
        for (const suffix of portalSuffixes) add(c.typeName + p.identifier + suffix, { layout, portal });
      });
    });
    return [...names].filter(([, owners]) => owners.length > 1);
  };

  // Round 1 suffixes every derived identifier in a clash; round 2 only checks.
  for (const [, owners] of clashes()) {
    for (const owner of owners) {
      if ("reserved" in owner) continue;
      const c = candidates[owner.layout]!;
      if (owner.portal !== undefined) {
        const p = c.portals[owner.portal]!;
        if (!p.suffixed) Object.assign(p, { identifier: p.identifier + hashSuffix(p.portal.name), suffixed: true });
      } else if (!c.explicit && !c.suffixed) {
        c.typeName += hashSuffix(`${c.layout.database}\u0000${c.layout.layout}`);
        c.suffixed = true;
      }
    }
  }
  for (const [name, owners] of clashes()) {
    const who = owners.map((o) => ("reserved" in o ? o.reserved : describe(candidates[o.layout]!.layout, o.portal)));
    const what = name.startsWith("file:") ? `the file name "${name.slice(5)}.ts"` : `"${name}"`;
    problems.push(`${what} is claimed by ${[...new Set(who)].join(" and ")}; give ${owners.length > 2 ? "all but one" : "one"} of them another "name"`);
  }
  if (problems.length) throw new IdentifierClashError([...new Set(problems)].sort(compareCodeUnits));

  return candidates
    .map((c) => ({
      layout: c.layout,
      typeName: c.typeName,
      fileName: `${moduleFileBase(c.typeName)}.ts`,
      portals: c.portals.map((p) => ({ portal: p.portal, identifier: p.identifier })),
    }))
    .sort((a, b) => compareCodeUnits(a.fileName, b.fileName));
}

function describe(layout: LayoutDescription, portal?: number): string {
  const where = `${layout.source ?? "<layout>"} (layout "${layout.layout}"${layout.name !== defaultTypeName(layout.layout) ? `, name "${layout.name}"` : ""})`;
  return portal === undefined ? where : `${where} portal "${layout.portals[portal]!.name}"`;
}
