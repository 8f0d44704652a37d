import { defaultTypeName, namedValueLists, type LayoutDescription, type PortalDescription } from "../../layout/index.js";
import { compareCodeUnits } from "../../project/index.js";
import type { LayoutModuleTemplate } from "../template.js";
import { RESERVED_WORDS } from "../text.js";
import { resolveKindClashes, type Claim } from "./kind-clashes.js";
import { hashSuffix, moduleFileBase } from "./module-names.js";
import type { NameRegistry } from "./name-registry.js";

/** Planning layout modules: their names, first of all kinds (name-registry.ts has the rule). */

export interface PortalPlan {
  portal: PortalDescription;
  /** `P`: the portal's part of its type names. */
  identifier: string;
}

export interface LayoutPlan {
  kind: "layout";
  layout: LayoutDescription;
  /** `N`: the definition's name and the prefix of every other name of the module. */
  typeName: string;
  /** The module's file name, relative to the output folder (`contacts-web.ts`). */
  fileName: string;
  portals: readonly PortalPlan[];
  /** The names of the value lists of the layout's file (every layout of its database), sorted: the sort orders it takes. */
  valueLists: readonly string[];
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

/** Every name a planned layout module declares (the schemas module's included), in template order. */
export function layoutDeclarationNames(plan: LayoutPlan, template: LayoutModuleTemplate): string[] {
  return template.declarations.flatMap((d) => (d.perPortal ? plan.portals : [undefined]).map((portal) => declarationName(plan, d.suffix, portal)));
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

/** A claimant among layouts: a layout's own names, or one of its portals'. */
type Owner = { layout: number; portal?: number };

/** Names the layouts among themselves (rule 3), then claims their names and files in `registry`. Sorted by file name. */
export function planLayouts(layouts: readonly LayoutDescription[], template: LayoutModuleTemplate, registry: NameRegistry): LayoutPlan[] {
  const problems: string[] = [];
  const candidates: Candidate[] = layouts.map((layout) => {
    const explicit = layout.name !== defaultTypeName(layout.layout);
    if (explicit && RESERVED_WORDS.has(layout.name)) problems.push(`${describeLayout(layout)}: "${layout.name}" is a reserved word; choose another "name"`);
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
  const imports = new Map<string, string>(template.imports.map((i) => [i.name, `the runtime import "${i.name}"`]));
  const fixed: Claim<Owner>[] = [...[...imports].map(([name, what]) => [name, { fixed: what }] as const), ...[...registry.files()].map(([file, owner]) => [`file:${file}`, { fixed: owner }] as const)];
  function* claims(): Iterable<Claim<Owner>> {
    yield* fixed;
    for (const [layout, c] of candidates.entries()) {
      for (const suffix of layoutSuffixes) yield [c.typeName + suffix, { layout }];
      yield [`file:${moduleFileBase(c.typeName)}.ts`, { layout }];
      for (const [portal, p] of c.portals.entries()) for (const suffix of portalSuffixes) yield [c.typeName + p.identifier + suffix, { layout, portal }];
    }
  }
  const suffix = (owner: Owner) => {
    const c = candidates[owner.layout]!;
    if (owner.portal !== undefined) {
      const p = c.portals[owner.portal]!;
      if (!p.suffixed) Object.assign(p, { identifier: p.identifier + hashSuffix(p.portal.name), suffixed: true });
    } else if (!c.explicit && !c.suffixed) {
      c.typeName += hashSuffix(`${c.layout.database}\u0000${c.layout.layout}`);
      c.suffixed = true;
    }
  };
  problems.push(...resolveKindClashes(claims, suffix, (o) => describeLayout(candidates[o.layout]!.layout, o.portal)));
  if (problems.length) throw new IdentifierClashError([...new Set(problems)].sort(compareCodeUnits));

  const valueLists = valueListsByDatabase(layouts);
  const plans = candidates
    .map((c): LayoutPlan => ({
      kind: "layout",
      layout: c.layout,
      typeName: c.typeName,
      fileName: `${moduleFileBase(c.typeName)}.ts`,
      portals: c.portals.map((p) => ({ portal: p.portal, identifier: p.identifier })),
      valueLists: valueLists.get(c.layout.database) ?? [],
    }))
    .sort((a, b) => compareCodeUnits(a.fileName, b.fileName));
  for (const plan of plans) registry.claim(describeLayout(plan.layout), plan.fileName, layoutDeclarationNames(plan, template));
  return plans;
}

/** Per database, the names of the value lists its layouts' descriptions give (`namedValueLists`), sorted. */
function valueListsByDatabase(layouts: readonly LayoutDescription[]): Map<string, string[]> {
  const byDatabase = new Map<string, LayoutDescription[]>();
  for (const layout of layouts) {
    const own = byDatabase.get(layout.database);
    if (own) own.push(layout);
    else byDatabase.set(layout.database, [layout]);
  }
  return new Map([...byDatabase].map(([database, own]) => [database, [...namedValueLists(own).lists.keys()].sort(compareCodeUnits)]));
}

/** A layout description (and one of its portals) as messages name it: its file, layout and explicit name. */
export function describeLayout(layout: LayoutDescription, portal?: number): string {
  const where = `${layout.source ?? "<layout>"} (layout "${layout.layout}"${layout.name !== defaultTypeName(layout.layout) ? `, name "${layout.name}"` : ""})`;
  return portal === undefined ? where : `${where} portal "${layout.portals[portal]!.name}"`;
}
