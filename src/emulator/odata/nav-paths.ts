// `Nav/Field` in `$select` and `$orderby` (docs/emulator.md, "Navigation paths: `Nav/Field` in `$select` and
// `$orderby`"). Choices (the contract shows no answer): `$select=Notes/Text` nests as `$expand=Notes($select=Text)`
// does: the record gets the navigation's array of related rows, each holding only the selected fields (merged into an
// `$expand` of the same navigation when the request has one). `$orderby=Notes/Text` sorts by the first related record's
// value (creation order), as FileMaker sorts by a related field; no related record sorts as empty. Paths may go through
// several navigations (`Notes/Contacts/Name`); every name is checked: an unknown one is 400 8309 naming the path as
// written.

import { sameName } from "../hosted-file/name-map.js";
import type { StoredRecord, TableData } from "../hosted-file/store.js";
import type { HostedDatabase } from "../hosted-file/store.js";
import type { ExpandItem, NamePath } from "./query-options.js";
import { fieldMissing, findField, findSet, isSpecialColumn, navigations, relatedRecords, type EntitySet } from "./entity-sets.js";

/** A path's last set (the one holding its last name) and the navigations leading there, checked. */
function resolve(db: HostedDatabase, set: EntitySet, path: NamePath): { last: EntitySet; hops: { from: EntitySet; target: EntitySet; nav: string }[] } {
  const hops: { from: EntitySet; target: EntitySet; nav: string }[] = [];
  let at = set;
  for (const name of path.slice(0, -1)) {
    if (!navigations(db, at).has(name)) throw fieldMissing(path.join("/"));
    const target = findSet(db, { by: "name", name });
    hops.push({ from: at, target, nav: name });
    at = target;
  }
  const name = path[path.length - 1]!;
  if (findField(at, name) === undefined && !isSpecialColumn(at, name)) throw fieldMissing(path.join("/"));
  return { last: at, hops };
}

/** A checked `Nav/…/Field` path as the answer names it: each navigation and the field by its own name. */
export function ownPath(db: HostedDatabase, set: EntitySet, path: NamePath): string {
  const { last, hops } = resolve(db, set, path);
  const name = path[path.length - 1]!;
  return [...hops.map((h) => h.target.name), findField(last, name)?.name ?? name].join("/");
}

/**
 * The `$expand` items a request's `$select` and `$expand` make together: `Nav/…` paths of `$select` added to the
 * navigation's item (its `$select` extended; `*` kept when it had none) or as a new item. Without such paths,
 * `expand` as it is.
 */
export function withNavSelect(db: HostedDatabase, set: EntitySet, select: readonly NamePath[] | undefined, expand: readonly ExpandItem[] | undefined): readonly ExpandItem[] | undefined {
  const navPaths = (select ?? []).filter((p) => p.length > 1);
  if (navPaths.length === 0) return expand;
  // By the navigation's own name: `notes/Text` and `Notes/N` extend one item (names match as FileMaker's do).
  const byNav = new Map<string, NamePath[]>();
  for (const p of navPaths) {
    const nav = resolve(db, set, p).hops[0]!.target.name;
    const rests = byNav.get(nav) ?? [];
    if (!rests.some((r) => r.join("/") === p.slice(1).join("/"))) rests.push(p.slice(1));
    byNav.set(nav, rests);
  }
  const items = [...(expand ?? [])];
  for (const [nav, rests] of byNav) {
    const at = items.findIndex((i) => sameName(i.nav, nav));
    if (at < 0) {
      items.push({ nav, options: { select: rests } });
      continue;
    }
    const item = items[at]!;
    const own = item.options.select;
    const select = own === undefined ? [["*"], ...rests] : [...own, ...rests.filter((r) => !own.some((o) => o.join("/") === r.join("/")))];
    items[at] = { nav, options: { ...item.options, select } };
  }
  return items;
}

/** The column an `$orderby` path ends in, and (for `Nav/…/Field`) how to reach the first related record. */
export function orderPath(db: HostedDatabase, set: EntitySet, path: NamePath): { last: EntitySet; name: string; from?: (record: StoredRecord) => { table: TableData; record: StoredRecord } | undefined } {
  const { last, hops } = resolve(db, set, path);
  const name = path[path.length - 1]!;
  if (hops.length === 0) return { last, name };
  const steps = hops.map((h) => ({ ...h, steps: navigations(db, h.from).get(h.nav)! }));
  return {
    last,
    name,
    from: (record) => {
      let current: StoredRecord | undefined = record;
      for (const h of steps) {
        current = relatedRecords(db, h.from, current, h.target, h.steps)[0];
        if (current === undefined) return undefined;
      }
      return { table: last.data, record: current };
    },
  };
}
