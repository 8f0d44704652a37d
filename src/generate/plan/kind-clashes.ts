/**
 * Rule 3 of name-registry.ts: the clashes among the modules of one kind, resolved by suffixing every derived name
 * that takes part in one (both sides), then checked again; what still clashes is a problem naming every claimant.
 */

/** A claimant: a candidate of the kind (or a part of one), or a name fixed beforehand (a runtime import, a file). */
export type Claimant<C> = C | { fixed: string };

/** A claim of a name (or of a file, keyed `file:<file name>`) by a claimant. */
export type Claim<C> = readonly [key: string, claimant: Claimant<C>];

const isFixed = <C>(claimant: Claimant<C>): claimant is { fixed: string } => typeof claimant === "object" && claimant !== null && "fixed" in claimant;

/**
 * `claims()` lists every claim as the candidates stand; `suffix` gives a derived candidate its hash suffix (once; an
 * explicit name or one already suffixed stays). Returns the problems left, unsorted.
 */
export function resolveKindClashes<C>(claims: () => Iterable<Claim<C>>, suffix: (claimant: C) => void, describe: (claimant: C) => string): string[] {
  const clashes = () => {
    const byKey = new Map<string, Claimant<C>[]>();
    for (const [key, claimant] of claims()) {
      const owners = byKey.get(key);
      if (owners) owners.push(claimant);
      else byKey.set(key, [claimant]);
    }
    return [...byKey].filter(([, owners]) => owners.length > 1);
  };
  // Round 1 suffixes every derived name in a clash; round 2 only checks.
  for (const [, owners] of clashes()) for (const owner of owners) if (!isFixed(owner)) suffix(owner);
  return clashes().map(([key, owners]) => {
    const who = [...new Set(owners.map((o) => (isFixed(o) ? o.fixed : describe(o))))];
    const what = key.startsWith("file:") ? `the file name "${key.slice(5)}"` : `"${key}"`;
    return `${what} is claimed by ${who.join(" and ")}; give ${owners.length > 2 ? "all but one" : "one"} of them another "name"`;
  });
}
