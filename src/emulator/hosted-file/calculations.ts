import type { DatabaseModel, TableField, TableModel } from "./model.js";
import { describeStep, relatedRows, relationSteps, type RelationStep } from "./relations.js";
import { emptyValues, type ComputeValues, type GlobalScope, type StoredRecord, type TableData } from "./store.js";
import { decodeWireValue, encodeWireValue, scriptValue, WIRE_FORM, type StoredValue } from "./stored-value.js";

/**
 * What the file computes on every read and never stores (docs/emulator.md, "Calculations and related fields"):
 * calculation fields, given as JavaScript functions of the record and its related rows, and related fields outside
 * portals (`Customers::Name` on an Invoices layout), joined through the descriptions' relations to the first related
 * record. Both are marked on the table's field as `computed` (model.ts) and computed by its table's data
 * (TableData.compute), so every read (TableData.valuesOf: the Data API's answers, portal rows, finds, sorts, script
 * reads) computes them, and a table without them reads as before.
 */

/** One value a calculation gives (`null` or `""`: empty), in the wire form the scripts API uses (dates `MM/DD/YYYY`). */
export type CalculationValue = string | number | null;

/**
 * A record as a calculation reads it: every field of its table by its local name (related fields outside portals by
 * their `TO::Field` name), repetitions 2 and up as `Field(2)`, in the wire form the scripts API uses: text a
 * string, numbers JSON numbers (one a double does not hold, such as a 58-digit key, as its decimal text, a string:
 * docs/emulator.md, "Numbers"), dates `MM/DD/YYYY`, times `HH:MM:SS`, timestamps `MM/DD/YYYY HH:MM:SS`, a
 * container its file name, an empty value `""`. Other calculations (and joined fields) are computed when read.
 */
export type CalculationRecord = Readonly<Record<string, string | number>>;

/**
 * The record's related rows by the table occurrence at the other end of each relation of its table (both ways: a
 * portal's relation on a Customers layout relates each Invoices record to its customer), in creation order; a row
 * is read as the record is. Made when first read.
 */
export type CalculationRelated = Readonly<Record<string, readonly CalculationRecord[]>>;

/**
 * A calculation field's formula: the field's value (an array, one value per repetition, for a repeating field), or a
 * value that does not fit the field's type, or a throw, which reads as `"?"` as a server shows an invalid result.
 */
export type Calculation = (record: CalculationRecord, related: CalculationRelated) => CalculationValue | readonly CalculationValue[];

/**
 * Calculations by table (the table FileMaker calculates on, so one definition serves every layout on it), then by
 * field: the `calculations` export of a `--scripts` module, or `startEmulator({ calculations })`.
 */
export type Calculations = Readonly<Record<string, Readonly<Record<string, Calculation>>>>;

/** A calculation and where it was given (`scripts.mjs: export calculations`), for messages. */
export interface GivenCalculation {
  calculate: Calculation;
  source: string;
}

/** Checks a `calculations` value's shape: an object of tables, each an object of functions. */
export function checkCalculations(value: unknown, source: string): Calculations {
  const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "an array" : typeof v);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${source}: calculations must be an object mapping table names to objects of field names to functions, got ${kind(value)}`);
  }
  // Null-prototype copies: a table or field named "__proto__" is a name like any other.
  const tables: Record<string, Record<string, Calculation>> = Object.create(null);
  for (const [table, fields] of Object.entries(value)) {
    if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
      throw new Error(`${source}: calculations["${table}"] must be an object mapping field names to functions, got ${kind(fields)}`);
    }
    tables[table] = Object.create(null);
    for (const [field, calculate] of Object.entries(fields)) {
      if (typeof calculate !== "function") throw new Error(`${source}: calculations["${table}"]["${field}"] must be a function (record, related) => value, got ${kind(calculate)}`);
      tables[table]![field] = calculate as Calculation;
    }
  }
  return tables;
}

/** Every calculation given, by table then field; one given twice (the module and the option) is an error. */
export function mergeCalculations(given: readonly { calculations: Calculations; source: string }[]): Map<string, Map<string, GivenCalculation>> {
  const merged = new Map<string, Map<string, GivenCalculation>>();
  for (const { calculations, source } of given) {
    for (const [table, fields] of Object.entries(calculations)) {
      let byField = merged.get(table);
      if (!byField) merged.set(table, (byField = new Map()));
      for (const [field, calculate] of Object.entries(fields)) {
        const first = byField.get(field);
        if (first) throw new Error(`${source}: calculations["${table}"]["${field}"] is also given by ${first.source}; give each calculation once`);
        byField.set(field, { calculate, source });
      }
    }
  }
  return merged;
}

/** Refuses a calculation no hosted table can take, naming where it was given. */
export function checkCalculationTables(calculations: Map<string, Map<string, GivenCalculation>>, models: Iterable<DatabaseModel>): void {
  const tables = new Set([...models].flatMap((model) => [...model.tables.keys()]));
  for (const [table, fields] of calculations) {
    const [first] = fields.values();
    if (first && !tables.has(table)) throw new Error(`${first.source}: calculations["${table}"]: no layout description uses a table named "${table}"`);
  }
}

/** Where the emulator's log goes, and what it has said (an error repeated on every read is said once). */
export interface CalculationLog {
  write(line: string): void;
}

/** A computed field and how its table computes it (TableData.compute). */
export interface ComputedValues {
  table: string;
  field: TableField;
  values: ComputeValues;
}

/**
 * Marks the database's computed fields: related fields outside portals that a relation reaches (declaring the
 * related field on the other table when no description does), and the given calculations of its tables; returns how
 * each is computed, for its table's data. Runs on the model before its tables are made (so no index is kept on a
 * computed field); `tables` is read when a value is computed, so it may be filled afterwards.
 */
export function linkComputedFields(model: DatabaseModel, tables: ReadonlyMap<string, TableData>, calculations: Map<string, Map<string, GivenCalculation>>, log: CalculationLog): ComputedValues[] {
  const computed: ComputedValues[] = [];
  const steps = relationSteps(model);
  const context: EvaluationContext = { tables, steps, log, said: new Set() };
  for (const layout of model.layouts.values()) {
    const where = layout.description.source ?? `layout "${layout.description.layout}"`;
    for (const { wireName, field } of layout.fields.values()) {
      const at = wireName.indexOf("::");
      if (at === -1 || field.global || field.computed) continue;
      const occurrence = wireName.slice(0, at);
      const found = occurrence === layout.table.name ? undefined : steps.get(layout.table.name)?.get(occurrence);
      // No relation names that table occurrence: the value stays stored on the record, as before relations joined.
      if (!found) continue;
      if (found.length > 1) {
        throw new Error(
          `${where}: related field "${wireName}" is outside a portal, and table "${layout.table.name}" is related to "${occurrence}" through ` +
            `${found.map((s) => describeStep(layout.table.name, s)).join(" and through ")}; the emulator cannot tell which record it shows`,
        );
      }
      const step = found[0]!;
      const target = model.tables.get(occurrence)!;
      const local = wireName.slice(at + 2);
      const targetField = target.fields.get(local) ?? declareRelated(target, local, field, where);
      field.computed = { kind: "related", describe: `the relation ${describeStep(layout.table.name, step)}` };
      computed.push({ table: layout.table.name, field, values: joinedValues(context, layout.table.name, field, step, targetField) });
    }
  }
  for (const [tableName, fields] of calculations) {
    const table = model.tables.get(tableName);
    if (!table) continue;
    for (const [name, given] of fields) {
      const field = table.fields.get(name);
      const at = `${given.source}: calculations["${tableName}"]["${name}"]`;
      if (!field || name.includes("::")) {
        throw new Error(`${at}: table "${tableName}" of database "${model.name}" has no field "${name}"; a calculation's field is described on a layout of its table ("readOnly": true)`);
      }
      const refuse = (why: string) => new Error(`${at}: field "${name}" of table "${tableName}" ${why} (${field.declaredIn})`);
      if (!field.readOnly) throw refuse('is not "readOnly": a calculation field is read-only, so describe it with "readOnly": true');
      if (field.autoEnter) throw refuse(`is auto-entered (${field.autoEnter}), not a calculation`);
      if (field.global) throw refuse("is global: the emulator computes calculations of records, not global ones");
      if (field.required || field.unique) throw refuse("validates required or unique: a calculation field has no validation");
      if (field.type === "container") throw refuse("is a container field: a calculation gives text, numbers, dates or times");
      field.computed = { kind: "calculation", describe: "a calculation" };
      computed.push({ table: tableName, field, values: calculatedValues(context, table, field, given.calculate) });
    }
  }
  return computed;
}

interface EvaluationContext {
  tables: ReadonlyMap<string, TableData>;
  steps: Map<string, Map<string, RelationStep[]>>;
  log: CalculationLog;
  /** Log lines already written: each is written once (capped, so a long run cannot grow it without end). */
  said: Set<string>;
}

const MAX_SAID = 1000;

/** A related field no description of its table shows: declared there as the related field is (a stored field). */
function declareRelated(target: TableModel, name: string, like: TableField, where: string): TableField {
  const field: TableField = {
    name,
    type: like.type,
    repetitions: like.repetitions,
    readOnly: false,
    required: false,
    unique: false,
    validate: "dataEntry",
    global: false,
    declaredIn: `${where} (as "${target.name}::${name}")`,
  };
  target.fields.set(name, field);
  return field;
}

/** A related field outside a portal: the first related record's value, by creation order (empty: no related record). */
function joinedValues(context: EvaluationContext, tableName: string, field: TableField, step: RelationStep, targetField: TableField): ComputeValues {
  return (record, scope) => {
    const table = context.tables.get(tableName)!;
    const target = context.tables.get(step.toTable)!;
    const [first] = relatedRows(step.fromField, step.toField, table, record, target, scope);
    const values = emptyValues(field);
    if (first) target.valuesOf(first, targetField, scope).forEach((value, i) => i < values.length && (values[i] = value));
    return values;
  };
}

/** Thrown when a calculation reads itself (directly, or through other calculations) for one record. */
class CircularCalculation extends Error {
  constructor(
    readonly field: TableField,
    readonly recordId: number,
    table: string,
  ) {
    super(`circular calculation: "${field.name}" of table "${table}" reads itself (record ${recordId})`);
  }
}

function calculatedValues(context: EvaluationContext, model: TableModel, field: TableField, calculate: Calculation): ComputeValues {
  // The records this field is being computed for right now (calculations run synchronously).
  const computing = new Set<number>();
  return (record, scope) => {
    if (computing.has(record.recordId)) throw new CircularCalculation(field, record.recordId, model.name);
    const table = context.tables.get(model.name)!;
    computing.add(record.recordId);
    let problem: string;
    try {
      const result = calculate(recordView(table, record, scope), relatedView(context, table, record, scope));
      const decoded = decodeResult(field, result);
      if (typeof decoded !== "string") return decoded;
      problem = decoded;
    } catch (error) {
      // A cycle is answered by the calculation it started from; the ones in between let it through.
      if (error instanceof CircularCalculation && (error.field !== field || error.recordId !== record.recordId)) throw error;
      problem = `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
    } finally {
      computing.delete(record.recordId);
    }
    say(context, `calculation "${field.name}" of table "${model.name}", record ${record.recordId}: ${problem}; the field reads "?", as a server shows an invalid result`);
    const values = emptyValues(field);
    values[0] = "?";
    return values;
  };
}

function say(context: EvaluationContext, line: string): void {
  if (context.said.has(line)) return;
  if (context.said.size < MAX_SAID) context.said.add(line);
  context.log.write(line);
}

/**
 * The wire form a calculation reads a value in: containers as their file name, empty values as "", a number a double
 * does not hold as its decimal text (so a calculation that shows a field gives it back digit for digit).
 */
function wireValue(field: TableField, value: StoredValue): string | number {
  return scriptValue(encodeWireValue(field.type, value, (ref) => ref.filename));
}

function recordView(table: TableData, record: StoredRecord, scope: GlobalScope | undefined): CalculationRecord {
  const view: Record<string, string | number> = Object.create(null);
  for (const field of table.model.fields.values()) {
    const keys = Array.from({ length: field.repetitions }, (_, i) => (i === 0 ? field.name : `${field.name}(${i + 1})`));
    if (!field.computed) {
      table.valuesOf(record, field, scope).forEach((value, i) => (view[keys[i]!] = wireValue(field, value)));
      continue;
    }
    // Another computed field is computed when the calculation reads it, once.
    let values: StoredValue[] | undefined;
    keys.forEach((key, i) =>
      Object.defineProperty(view, key, {
        enumerable: true,
        get: () => wireValue(field, (values ??= table.valuesOf(record, field, scope))[i] ?? null),
      }),
    );
  }
  return view;
}

function relatedView(context: EvaluationContext, table: TableData, record: StoredRecord, scope: GlobalScope | undefined): CalculationRelated {
  const view: Record<string, readonly CalculationRecord[]> = Object.create(null);
  for (const [occurrence, steps] of context.steps.get(table.model.name) ?? []) {
    let rows: CalculationRecord[] | undefined;
    Object.defineProperty(view, occurrence, {
      enumerable: true,
      get: () => {
        if (rows) return rows;
        if (steps.length > 1) {
          throw new Error(`related["${occurrence}"]: table "${table.model.name}" is related to "${occurrence}" through ${steps.map((s) => describeStep(table.model.name, s)).join(" and through ")}`);
        }
        const step = steps[0]!;
        const target = context.tables.get(occurrence)!;
        rows = relatedRows(step.fromField, step.toField, table, record, target, scope).map((row) => recordView(target, row, scope));
        return rows;
      },
    });
  }
  return view;
}

/** The stored values of a calculation's result, or why it is invalid. */
function decodeResult(field: TableField, result: unknown): StoredValue[] | string {
  const values = emptyValues(field);
  let list: readonly unknown[] = [result];
  if (Array.isArray(result)) {
    if (field.repetitions === 1) return `returned an array; "${field.name}" has one repetition, so it returns one value`;
    if (result.length > field.repetitions) return `returned ${result.length} values; "${field.name}" has ${field.repetitions} repetitions`;
    list = result;
  }
  for (const [i, value] of list.entries()) {
    if (value === null || value === "") continue;
    if (value instanceof Promise) return "returned a Promise; a calculation is synchronous (it runs on every read)";
    if (typeof value !== "string" && !(typeof value === "number" && Number.isFinite(value))) {
      return `returned ${typeof value === "number" ? String(value) : value === undefined ? "undefined" : typeof value}; a calculation returns a string, a finite number or null`;
    }
    const decoded = decodeWireValue(field.type, value);
    if (!decoded.ok) return `returned ${JSON.stringify(value)}, not a valid ${field.type} (expected ${WIRE_FORM[field.type]})`;
    values[i] = decoded.value;
  }
  return values;
}
