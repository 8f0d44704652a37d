import {
  AUTO_ENTER_TYPES,
  layoutDescriptionSchema,
  LayoutFileError,
  placedFields,
  wireKeyCollisions,
  type FieldDescription,
  type FieldType,
  type LayoutDescriptionInput,
  type PortalDescription,
} from "../layout/index.js";
import { formatJsonPath } from "../project/index.js";
import { decodesAs, DOUBLE_DIGITS } from "./infer.js";
import type { Confidence, LiveField, LiveLayout, LivePortal, LongNumber } from "./live.js";
import { decide, keptNote, mergeExact, sameList } from "./ownership.js";

/**
 * Merges what the server says (`live`) into the description file on disk (`file`), so that a pull changes only
 * what changed on the server and keeps everything a person wrote.
 *
 * The server owns what it can tell: the fields and portals on the layout, and, from the metadata endpoint, each
 * field's type, repetitions, calculation (read-only), not-empty (required), global and value list (its values and
 * its name); from sampling, only types and repetitions. Such a value follows ownership.ts, as a table's do: a hand
 * edit is kept while the server still says what it said at the last pull (`base`, from fmgen.pulled.json), and a
 * change on the server wins. A calculation is always read-only. A sampled type is weaker: the file's
 * type is kept whenever every sampled value decodes with it, unless the file still has the type the last pull
 * wrote and the new inference is certain.
 *
 * The file owns what the server cannot tell: `name`, descriptions, `unique`, `validate`, portal `relation`s, the
 * auto-enter kind, `exact` (a number field's values as decimal text: proposed in a note when a sampled value has more
 * digits than a double keeps, never set; dropped, with a note, when the field stops being a number), `readOnly` on
 * normal fields (protected auto-enter), the portal `table` and the layout `table`
 * when the server does not say, `$schema`, and the order of the fields already in the file (new ones go after the
 * field they follow on the layout).
 */

export interface UncertainField {
  portal?: string;
  field: string;
  /** The type written. */
  type: FieldType;
  /** The type the sampled values suggest. */
  inferred: FieldType;
  confidence: Exclude<Confidence, "high">;
  reason: string;
}

export interface MergeResult {
  description: LayoutDescriptionInput;
  notes: string[];
  uncertain: UncertainField[];
}

export interface MergeInput {
  live: LiveLayout;
  file?: LayoutDescriptionInput | undefined;
  base?: LiveLayout | undefined;
  /** `$schema` for a new file. */
  schemaRef?: string | undefined;
  /** The description file, as errors name it. */
  path?: string | undefined;
  /** The TypeScript `name` to write (`fmgen pull --name`); default: the file's. */
  name?: string | undefined;
}

/**
 * Throws a `LayoutFileError` naming `path` when the server's layout cannot be described: a field named like a
 * repetition of another (`Phone(2)` beside a repeating `Phone`), refused just as loading such a file is.
 */
export function mergeLayout({ live, file, base, schemaRef, path, name = file?.name }: MergeInput): MergeResult {
  const notes: string[] = [...live.notes];
  const uncertain: UncertainField[] = [];
  const context: FieldContext = { source: live.source, notes, uncertain, shownAs: path ?? "the layout's file" };

  const fields = mergeFields(live.fields, file?.fields ?? [], base?.fields, context, undefined, "fields");
  const portals = mergeByName(live.portals, file?.portals ?? []).map(([livePortal, filePortal], i) =>
    mergePortal(livePortal, filePortal, base?.portals.find((p) => p.name === livePortal.name), context, `portals[${i}].fields`),
  );

  let table = live.table ?? file?.table;
  if (table === undefined) {
    table = live.layout;
    notes.push(`the server does not say the layout's table; "table" is set to the layout name: correct it by hand if needed`);
  }
  const $schema = file?.$schema ?? schemaRef;
  const description: LayoutDescriptionInput = {
    ...($schema !== undefined ? { $schema } : {}),
    database: live.database,
    layout: live.layout,
    table,
    ...(name !== undefined ? { name } : {}),
    ...(file?.description !== undefined ? { description: file.description } : {}),
    // The folder the emulator lists the layout in (the server's list is not read for it): kept as the file has it.
    ...(file?.folder !== undefined ? { folder: file.folder } : {}),
    fields,
    ...(portals.length > 0 || file?.portals !== undefined ? { portals } : {}),
  };
  const collisions = wireKeyCollisions(placedFields(description));
  if (collisions.length > 0) throw new LayoutFileError(path ?? `layout "${live.layout}"`, collisions.map((message) => ({ path: "", message })));
  const checked = layoutDescriptionSchema.safeParse(description);
  if (!checked.success) {
    const problems = checked.error.issues.map((i) => `${formatJsonPath(i.path)}: ${i.message}`).join("; ");
    throw new Error(`layout "${live.layout}": the merged description is not valid (${problems}); this is a bug in fmgen pull`);
  }
  return { description, notes, uncertain };
}

interface FieldContext {
  source: LiveLayout["source"];
  notes: string[];
  uncertain: UncertainField[];
  /** How notes name the description file. */
  shownAs: string;
}

function mergePortal(live: LivePortal, file: PortalDescription | undefined, base: LivePortal | undefined, context: FieldContext, at: string): PortalDescription {
  let table = file?.table;
  if (table === undefined) {
    const prefixes = new Set(live.fields.map((f) => f.name.slice(0, f.name.indexOf("::"))));
    table = prefixes.size === 1 ? [...prefixes][0]! : live.name;
    context.notes.push(`portal "${live.name}": its table is not in the ${context.source === "metadata" ? "metadata" : "records"}; "table" is set to "${table}" (${prefixes.size === 1 ? "its fields' table occurrence" : "the portal name"}): correct it by hand if needed`);
  }
  if (!file) context.notes.push(`portal "${live.name}": add "relation" by hand if the emulator should join its rows (the server does not say how)`);
  const fields = live.fieldsUnknown ? (file?.fields ?? []) : mergeFields(live.fields, file?.fields ?? [], base?.fields, context, live.name, at);
  return { name: live.name, table, ...(file?.relation ? { relation: file.relation } : {}), fields };
}

/** `at`: the JSON path of the field list in the description (`fields`, `portals[0].fields`), as notes name a line. */
function mergeFields(live: readonly LiveField[], file: readonly FieldDescription[], base: readonly LiveField[] | undefined, context: FieldContext, portal: string | undefined, at: string): FieldDescription[] {
  return mergeByName(live, file).map(([liveField, fileField], i) => mergeField(liveField, fileField, base?.find((f) => f.name === liveField.name), context, portal, `${at}[${i}]`));
}

/**
 * The live items paired with the file's items of the same name, in the file's order; an item new on the server
 * goes right after the item it follows on the server (or first). Items only in the file are dropped. A name the
 * server lists twice (a field placed twice on the layout) is one item, its first.
 */
export function mergeByName<L extends { name: string }, F extends { name: string }>(live: readonly L[], file: readonly F[]): [L, F | undefined][] {
  const liveByName = new Map<string, L>();
  for (const item of live) if (!liveByName.has(item.name)) liveByName.set(item.name, item);
  const fileByName = new Map(file.map((item) => [item.name, item]));
  const order = file.map((item) => item.name).filter((name) => liveByName.has(name));
  live.forEach((item, i) => {
    if (fileByName.has(item.name) || order.includes(item.name)) return;
    let at = 0;
    for (let j = i - 1; j >= 0; j--) {
      const before = order.indexOf(live[j]!.name);
      if (before >= 0) {
        at = before + 1;
        break;
      }
    }
    order.splice(at, 0, item.name);
  });
  return order.map((name) => [liveByName.get(name)!, fileByName.get(name)]);
}

function mergeField(live: LiveField, file: FieldDescription | undefined, base: LiveField | undefined, context: FieldContext, portal: string | undefined, at: string): FieldDescription {
  const where = `${portal !== undefined ? `portal "${portal}" ` : ""}field "${live.name}"`;
  const type = mergeType(live, file, base, context, portal);
  const repetitions = decide(file ? (file.repetitions ?? 1) : undefined, base?.repetitions, live.repetitions) ?? 1;
  const required = decide(file ? (file.required ?? false) : undefined, base?.required, live.required) ?? false;
  const global = decide(file ? (file.global ?? false) : undefined, base?.global, live.global) ?? false;
  let valueList = decide<readonly string[] | null>(file ? (file.valueList ?? null) : undefined, base ? base.valueList : undefined, live.valueList, sameList) ?? null;
  let valueListName = decide<string | null>(file ? (file.valueListName ?? null) : undefined, base ? (base.valueListName ?? null) : undefined, live.valueListName) ?? null;
  if (type === "container") [valueList, valueListName] = [null, null];

  let readOnly = file?.readOnly ?? false;
  if (live.calculated === true) readOnly = true;
  else if (live.calculated === false && base?.calculated === true && readOnly) {
    readOnly = false;
    context.notes.push(`${where} is no longer a calculation, so it is no longer readOnly`);
  }

  let autoEnter = file?.autoEnter;
  if (live.autoEnter === false && autoEnter !== undefined) {
    context.notes.push(`${where}: the server no longer auto-enters a value, so "autoEnter": "${autoEnter}" is dropped`);
    autoEnter = undefined;
  }
  if (autoEnter !== undefined && !AUTO_ENTER_TYPES[autoEnter].includes(type)) {
    context.notes.push(`${where}: "autoEnter": "${autoEnter}" does not fit a ${type} field and is dropped`);
    autoEnter = undefined;
  }
  let unique = file?.unique ?? false;
  if (global && (unique || autoEnter !== undefined)) {
    context.notes.push(`${where} is global, so it cannot be unique or auto-entered; those are dropped`);
    unique = false;
    autoEnter = undefined;
  }
  if (live.autoEnter === true && autoEnter === undefined && !global && !file) {
    context.notes.push(`${where}: the server auto-enters a value; set "autoEnter" (serial, uuid, creationTimestamp, modificationTimestamp, creationAccount or modificationAccount) by hand, and "readOnly" if it is protected`);
  }

  const exact = mergeExact(file?.exact, type, where, context.notes);
  if (exact === undefined && type === "number" && live.longNumber) context.notes.push(exactProposal(where, live.longNumber, at, context.shownAs));

  // Defaults are left out, unless the file spells them out.
  const flag = (key: "readOnly" | "required" | "unique" | "global", value: boolean) => (value || file?.[key] === false ? { [key]: value } : {});
  return {
    name: live.name,
    type,
    ...flag("readOnly", readOnly),
    ...flag("required", required),
    ...flag("unique", unique),
    // When required and unique apply: the metadata does not say, so the file's is kept as written.
    ...(file?.validate !== undefined ? { validate: file.validate } : {}),
    ...(repetitions > 1 || file?.repetitions === repetitions ? { repetitions } : {}),
    ...(valueList !== null ? { valueList: [...valueList] } : {}),
    ...(valueListName !== null ? { valueListName } : {}),
    ...flag("global", global),
    ...(autoEnter !== undefined ? { autoEnter } : {}),
    ...(exact !== undefined ? { exact } : {}),
    ...(file?.description !== undefined ? { description: file.description } : {}),
  };
}

/** The note proposing `"exact": true` for a sampled value a double may not hold; `at` is the field's JSON path. */
function exactProposal(where: string, long: LongNumber, at: string, shownAs: string): string {
  const line = `add "exact": true to ${at} in ${shownAs}`;
  if (long.certain) return `${where}: a sampled value has ${long.digits} significant digits (${JSON.stringify(long.text)}), more than the ${DOUBLE_DIGITS} a JavaScript number keeps: ${line}`;
  const why = long.beyondSafe ? "it is an integer beyond 2^53" : `it reads with ${long.digits} significant digits`;
  return `${where}: a sampled value, read as ${long.text}, may have had more digits than the ${DOUBLE_DIGITS} a JavaScript number keeps (${why}): if the field holds such values, ${line}`;
}

function mergeType(live: LiveField, file: FieldDescription | undefined, base: LiveField | undefined, context: FieldContext, portal: string | undefined): FieldType {
  const where = `${portal !== undefined ? `portal "${portal}" ` : ""}field "${live.name}"`;
  if (context.source === "metadata") {
    const type = decide(file?.type, base?.type, live.type)!;
    if (type !== live.type) context.notes.push(keptNote(where, "type", type, live.type));
    return type;
  }
  // Sampling: a type the last pull wrote gives way to a certain inference; any other type in the file (written by
  // hand, or weakly inferred before) stands while every sampled value fits it.
  const untouched = file !== undefined && base !== undefined && file.type === base.type;
  const fits = file !== undefined && decodesAs(file.type, live.samples ?? []);
  const type = !file || (untouched && live.confidence === "high") || !fits ? live.type : file.type;
  if (type !== live.type && live.confidence === "high") context.notes.push(`${where}: the sampled values look like ${live.type}; the file's type ${type} is kept (they fit it)`);
  if (live.confidence && live.confidence !== "high") {
    context.uncertain.push({
      ...(portal !== undefined ? { portal } : {}),
      field: live.name,
      type,
      inferred: live.type,
      confidence: live.confidence,
      reason: live.reason ?? "",
    });
  }
  return type;
}
