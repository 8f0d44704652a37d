import { DECODERS, DecodeError, decodeExact, INVALID, repetitionKey, whyNotNumber } from "./codecs.js";
import { ISO_DECODERS } from "./iso-dates.js";
import type { FieldKind, FieldSpec, FmRecord, LayoutSpec } from "./definition.js";
import { getOwn, setOwn } from "../core/own.js";

type Wire = Record<string, unknown>;
type DecodedRecord = FmRecord<Wire, Record<string, Wire[]>>;

/** Decodes one fieldData object or portal row; `id` is the (parent) record's id, for errors. */
type FieldsDecoder = (wire: Wire, id: string) => Wire;

/** Reports a wire value that does not decode (or falls outside its value list) with its layout, field and record. */
type Fail = (key: string, raw: unknown, slot: Slot, id: string, wire: Wire) => never;

interface Slot {
  name: string;
  decode: (raw: unknown) => unknown;
  type: FieldKind;
  /** A number field read as decimal text (`exact: true`). */
  exact: boolean | undefined;
  /** Wire keys: `F`, then `F(2)`... for repetitions. */
  keys: readonly string[];
  /** The value list (with ""), when value lists are checked. */
  values: ReadonlySet<string> | undefined;
}

export interface DecoderOptions {
  /** Also check ids, shapes and value lists (a value outside its list would make the generated union lie). */
  validate: boolean;
  /** Loop over the fields instead of compiling a function: the fallback, forced in tests. */
  interpret?: boolean;
  /** 2: dates and timestamps come in ISO form (the client's `dateFormat: "iso"`). */
  dateformats?: 2 | undefined;
}

type RecordDecoder = (raw: unknown) => DecodedRecord;

/** One per definition and mode: apps may call `fm.layout(Definition)` per request, and a new decoder starts cold. */
const built = new WeakMap<LayoutSpec, Record<string, RecordDecoder>>();

/**
 * The decoder of a layout's records: wire record -> `{ recordId, modId, fieldData, portalData }`, each value
 * decoded to its TypeScript type in one pass; a value that does not decode is a DecodeError.
 */
export function recordDecoder(spec: LayoutSpec, options: DecoderOptions): RecordDecoder {
  const validate = spec.validate ?? options.validate;
  const modes = built.get(spec) ?? {};
  built.set(spec, modes);
  return (modes[`${validate} ${options.interpret} ${options.dateformats}`] ??= build(spec, validate, options.interpret, options.dateformats ? ISO_DECODERS : DECODERS));
}

function build(spec: LayoutSpec, validate: boolean, interpret: boolean | undefined, decoders: typeof DECODERS): RecordDecoder {
  const { layout } = spec;
  const fieldData = fieldsDecoder(spec.fields, layout, undefined, validate, interpret, decoders);
  const portals = Object.entries(spec.portals ?? {}).map(([name, portal]) => ({ name, decode: fieldsDecoder(portal.fields, layout, name, validate, interpret, decoders) }));
  return (raw) => {
    const record = (typeof raw === "object" && raw !== null ? raw : {}) as { recordId?: unknown; modId?: unknown; fieldData?: unknown; portalData?: Record<string, unknown> };
    const recordId = String(record.recordId ?? "?");
    const fail = (field: string, value: unknown): never => {
      throw new DecodeError(layout, field, recordId, value, "text");
    };
    if (validate) {
      if (typeof record.recordId !== "string") fail("recordId", record.recordId);
      if (typeof record.modId !== "string") fail("modId", record.modId);
    }
    if (typeof record.fieldData !== "object" || record.fieldData === null) fail("fieldData", record.fieldData);
    const portalData: Record<string, Wire[]> = {};
    for (const { name, decode } of portals) {
      // Own properties only: a portal the answer leaves out is empty, even one named like an Object member.
      const rows = getOwn(Object(record.portalData), name) ?? [];
      if (!Array.isArray(rows)) return fail(`portalData.${name}`, rows);
      const decoded = new Array<Wire>(rows.length);
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i] as Wire;
        if (typeof row !== "object" || row === null || (validate && (typeof row.recordId !== "string" || typeof row.modId !== "string"))) fail(`portalData.${name}`, row);
        decoded[i] = decode(row, recordId);
      }
      setOwn(portalData, name, decoded);
    }
    return { recordId, modId: String(record.modId), fieldData: fieldData(record.fieldData as Wire, recordId), portalData };
  };
}

/**
 * The decoder of one field list: of fieldData when `portal` is undefined, else of that portal's rows (which carry
 * their own recordId and modId beside the fields).
 */
function fieldsDecoder(specs: Readonly<Record<string, FieldSpec>>, layout: string, portal: string | undefined, validate: boolean, interpret: boolean | undefined, decoders: typeof DECODERS): FieldsDecoder {
  const slots: Slot[] = Object.keys(specs).map((name) => {
    const spec = specs[name]!;
    const exact = spec.type === "number" && spec.exact;
    return {
      name,
      decode: exact ? decodeExact : decoders[spec.type],
      type: spec.type,
      exact,
      keys: Array.from({ length: spec.repetitions ?? 1 }, (_, i) => repetitionKey(name, i)),
      values: validate && spec.valueList ? new Set(["", ...spec.valueList]) : undefined,
    };
  });
  const fail: Fail = (key, raw, slot, id, wire) => {
    const record = portal === undefined ? id : `${id} portal "${portal}" row ${String(wire.recordId)}`;
    throw new DecodeError(layout, key, record, raw, slot.type, slot.type === "number" ? whyNotNumber(raw, slot.exact) : undefined);
  };
  if (!interpret) {
    try {
      return compile(slots, portal !== undefined, fail);
    } catch (error) {
      // Code generation from strings is disallowed here (a policy or --disallow-code-generation-from-strings).
      if (!(error instanceof EvalError)) throw error;
    }
  }
  return interpreted(slots, portal !== undefined, fail);
}

/**
 * One straight-line function per field list: named property reads and one object literal of fixed shape, which V8
 * optimizes far better than a loop over the fields (about 3x on a 100-record page). Names enter the code only as
 * JSON string literals, so no field name can change what the code does.
 */
function compile(slots: readonly Slot[], row: boolean, fail: Fail): FieldsDecoder {
  let body = "";
  const members = row ? ["recordId:String(w.recordId)", "modId:String(w.modId)"] : [];
  slots.forEach((slot, s) => {
    const vars = slot.keys.map((key, k) => {
      const r = `r${s}_${k}`;
      const v = `v${s}_${k}`;
      const at = JSON.stringify(key);
      body += `const ${r}=w[${at}],${v}=S[${s}].decode(${r});if(${v}===X${slot.values ? `||typeof ${r}=="string"&&!S[${s}].values.has(${r})` : ""})f(${at},${r},S[${s}],id,w);`;
      return v;
    });
    // A "__proto__" key in a literal would set the prototype; the computed form defines an own property.
    members.push(`${slot.name === "__proto__" ? '["__proto__"]' : JSON.stringify(slot.name)}:${vars.length === 1 ? vars[0] : `[${vars}]`}`);
  });
  return new Function("S", "X", "f", `return(w,id)=>{${body}return{${members}}}`)(slots, INVALID, fail) as FieldsDecoder;
}

/** The same decoding as `compile`'s, as a loop. */
function interpreted(slots: readonly Slot[], row: boolean, fail: Fail): FieldsDecoder {
  return (wire, id) => {
    const out: Wire = row ? { recordId: String(wire.recordId), modId: String(wire.modId) } : {};
    for (const slot of slots) {
      const values = slot.keys.map((key) => {
        const raw = wire[key];
        const value = slot.decode(raw);
        if (value === INVALID || (slot.values && typeof raw === "string" && !slot.values.has(raw))) fail(key, raw, slot, id, wire);
        return value;
      });
      setOwn(out, slot.name, slot.keys.length === 1 ? values[0] : values);
    }
    return out;
  };
}
