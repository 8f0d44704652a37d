// Table and field numbers (FMTID, FMFID's field number) that follow what names a table or field, not where it
// stands (docs/emulator.md, "`$metadata`", FMTID and FMFID). A FileMaker server keeps a field's id for the field's
// life; the emulator keeps nothing between starts, so it derives each number from the name: the name's own sequence
// of slots (a hash), the first slot no other name holds with a better claim. Inserting a field mid-table, removing
// one, adding a table or listing the descriptions in another order leaves every other number where it was, unless
// two names' sequences meet (see assignSlots).

import { createHash } from "node:crypto";

/** How many numbers a table's fields, and a file's tables, are drawn from (a power of two). */
export const ID_RANGE = 2 ** 20;

/**
 * A name's sequence of slots in `[0, range)`: a permutation of them all, so that a name always finds a free one.
 * `domain` keeps the sequences of tables and of fields apart. `range` must be a power of two: an odd step then
 * visits every slot once.
 */
export function slotSequence(domain: string, name: string, range: number = ID_RANGE): (k: number) => number {
  const digest = createHash("sha256").update(`${domain}\0${name}`).digest();
  const start = digest.readUInt32BE(0) % range;
  const step = (digest.readUInt32BE(4) % range) | 1;
  return (k) => (start + k * step) % range;
}

/**
 * Gives each name a slot of its sequence, no two names one slot, no name an `unavailable` one. A slot two names
 * want goes to the one that reached it earlier in its own sequence, and between names that reached it at the same
 * step, to the name that sorts first; the other goes on along its sequence. The names propose in turn and a slot
 * keeps its best claimant (deferred acceptance), so the outcome is the one assignment in which no name and slot
 * would both rather have each other, whatever order the names come in: it depends on the set of names (and the
 * unavailable slots) only. What can still move: when a new name's sequence reaches a slot before the name holding
 * it did (or at the same step, and the new name sorts first), that name moves on to its next free slot, and a name
 * removed can let one it had moved come back. Both need two names' sequences to meet, about one insert in
 * `range / names`.
 */
export function assignSlots(names: readonly string[], sequenceOf: (name: string) => (k: number) => number, unavailable: (slot: number) => boolean, range: number = ID_RANGE): Map<string, number> {
  const sequences = new Map(names.map((n) => [n, sequenceOf(n)]));
  const held = new Map<number, { readonly name: string; readonly step: number }>();
  const slotOf = new Map<string, number>();
  const nextStep = new Map<string, number>();
  // The proposing order does not change the outcome; a fixed one keeps the work the same at every start.
  const waiting = [...sequences.keys()].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  for (let name = waiting.pop(); name !== undefined; name = waiting.pop()) {
    const sequence = sequences.get(name)!;
    for (let step = nextStep.get(name) ?? 0; ; step++) {
      if (step >= range) throw new Error(`more names than the ${range} numbers they are drawn from`);
      const slot = sequence(step);
      if (unavailable(slot)) continue;
      const holder = held.get(slot);
      if (holder !== undefined && (holder.step < step || (holder.step === step && holder.name < name))) continue;
      held.set(slot, { name, step });
      slotOf.set(name, slot);
      nextStep.set(name, step + 1);
      if (holder !== undefined) {
        slotOf.delete(holder.name);
        waiting.push(holder.name);
      }
      break;
    }
  }
  return slotOf;
}

/** The first slot of a name's sequence that `taken` does not hold: a number for a table or field added while the file runs. */
export function firstFreeSlot(sequence: (k: number) => number, taken: (slot: number) => boolean, range: number = ID_RANGE): number {
  for (let step = 0; step < range; step++) {
    const slot = sequence(step);
    if (!taken(slot)) return slot;
  }
  throw new Error(`every one of the ${range} numbers is taken`);
}
