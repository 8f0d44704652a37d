/**
 * Wire keys of repetitions. Repetition n > 1 of field `F` travels as `F(n)`, and servers (FileMaker Server and
 * the emulator alike) also read `F(1)` as repetition 1 of `F`. So a field named `F(n)` beside a field `F` that
 * has at least n repetitions (for n = 1: any field `F`) shares a wire key with it: a write to one lands in the
 * other, and a find on one searches the other. The digits are read as a number, as servers read them, so
 * `F(02)` is repetition 2 too.
 *
 * Layout fields and portal fields share one namespace, the one find requests and sort specs name fields in, so
 * the check spans all of them. The same name in two places (a related field on the layout and in a portal) is
 * the same field, not a clash; a name twice in one place is the schema's "duplicate field name".
 */

/** A field as the check sees it: where it is in the file (`fields[2]`, `portals[0].fields[1]`) and what it is. */
export interface PlacedField {
  path: string;
  name: string;
  repetitions: number;
}

/** `Phone(2)` -> `{ base: "Phone", repetition: 2 }`; undefined for a name with no `(n)` suffix. */
export function repetitionSuffix(name: string): { base: string; repetition: number } | undefined {
  const match = /^(.*)\((\d+)\)$/s.exec(name);
  return match ? { base: match[1]!, repetition: Number(match[2]) } : undefined;
}

interface FieldLike {
  name: string;
  repetitions?: number | undefined;
}

/** Every field of a description, layout fields first, each with its place in the file. */
export function placedFields(layout: { fields: readonly FieldLike[]; portals?: readonly { fields: readonly FieldLike[] }[] | undefined }): PlacedField[] {
  return [
    ...layout.fields.map((f, i) => ({ path: `fields[${i}]`, name: f.name, repetitions: f.repetitions ?? 1 })),
    ...(layout.portals ?? []).flatMap((p, i) => p.fields.map((f, j) => ({ path: `portals[${i}].fields[${j}]`, name: f.name, repetitions: f.repetitions ?? 1 }))),
  ];
}

/** One message per field whose name is the wire key of a repetition of another field, naming both. */
export function wireKeyCollisions(fields: readonly PlacedField[]): string[] {
  const byName = new Map<string, PlacedField[]>();
  for (const field of fields) {
    const same = byName.get(field.name);
    if (same) same.push(field);
    else byName.set(field.name, [field]);
  }
  const problems: string[] = [];
  for (const field of fields) {
    const suffix = repetitionSuffix(field.name);
    if (!suffix || suffix.repetition < 1) continue;
    for (const owner of byName.get(suffix.base) ?? []) {
      if (suffix.repetition > owner.repetitions) continue;
      const name = JSON.stringify(field.name);
      const base = JSON.stringify(owner.name);
      problems.push(
        `${field.path} ${name} has the wire key of repetition ${suffix.repetition} of ${owner.path} ${base}: ` +
          `servers read ${name} as repetition ${suffix.repetition} of ${base}, so one key would name both fields (writes and finds on one reach the other); ` +
          "rename one of them in FileMaker, or take one off the layout",
      );
    }
  }
  return problems;
}
