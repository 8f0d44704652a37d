import type { FieldSpec, LayoutSpec } from "./definition.js";
import { getOwn } from "../core/own.js";

/**
 * The repetition (1-based, default 1) of the container field an upload or a download names, checked against the
 * layout's definition; `prefix` begins each error (the call, where its messages name it).
 */
export function containerRepetition(prefix: string, definition: LayoutSpec, field: string, repetition = 1): number {
  const { layout, fields } = definition;
  const spec = getOwn(fields, field) as FieldSpec | undefined;
  if (spec?.type !== "container") throw new TypeError(`${prefix}layout "${layout}": "${field}" is not a container field`);
  const repetitions = spec.repetitions ?? 1;
  if (!Number.isInteger(repetition) || repetition < 1 || repetition > repetitions) {
    throw new RangeError(`${prefix}layout "${layout}", field "${field}": repetition ${repetition} is not between 1 and ${repetitions}`);
  }
  return repetition;
}
