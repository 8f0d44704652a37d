import { boundName } from "./bounded-name.js";
import type { FieldDescription, LayoutDescriptionInput, PortalDescription } from "./schema.js";

/** A validated description with its defaults applied: what every other part of fmgen consumes. */
export interface LayoutDescription extends Omit<LayoutDescriptionInput, "$schema" | "name" | "portals"> {
  name: string;
  portals: PortalDescription[];
  /** Where it was read from, for error messages; absent for in-memory descriptions. */
  source?: string;
}

export function repetitionsOf(field: FieldDescription): number {
  return field.repetitions ?? 1;
}

/**
 * PascalCase of a layout name with every non-identifier character removed ("Contacts Web" -> "ContactsWeb"), at
 * most `MAX_DERIVED_NAME` characters: a longer one keeps its start and ends in `_` + a hash of the whole name.
 */
export function defaultTypeName(layout: string): string {
  // Accents are dropped ("Ünïcode" -> "Unicode"); other non-ASCII letters cannot appear in the name.
  const plain = layout.normalize("NFD").replace(/\p{M}/gu, "").replace(/[^A-Za-z0-9_$]+/g, " ");
  const words = plain.split(" ").filter(Boolean);
  const ascii = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
  if (ascii === "") return "Layout";
  return boundName(/^[0-9]/.test(ascii) ? `_${ascii}` : ascii, layout, "_");
}
