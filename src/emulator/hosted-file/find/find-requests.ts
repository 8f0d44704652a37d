import { NumberToken } from "../../../runtime/core/json-numbers.js";
import { EmulatorError } from "../fm-error.js";
import { compileCriterion, FindCriterionError, type CriterionContext } from "./criteria.js";
import type { Matcher } from "./matcher.js";
import { US_DATES, type DateFormat } from "../date-format.js";
import type { LayoutModel, PortalModel, TableField } from "../model.js";
import { nullFieldValue } from "../records/record-writes.js";
import { portalRows } from "../relations.js";
import type { HostedDatabase, StoredRecord, TableData } from "../store.js";
import { isContainerRef, type StoredScalar, type StoredValue } from "../stored-value.js";

type RecordTest = (record: StoredRecord) => boolean;

interface CompiledRequest {
  omit: boolean;
  test: RecordTest;
}

/**
 * Compiles a `_find` body's `query` into one record predicate, following FileMaker: requests run in order,
 * each non-omit request adds its matches, each omit request removes its matches from what came before; a
 * query that starts with an omit request starts from every record.
 */
export function compileFindQuery(db: HostedDatabase, layout: LayoutModel, query: unknown, today: number, dateFormat: DateFormat = US_DATES): RecordTest {
  if (!Array.isArray(query)) throw new EmulatorError(400, "1708", "query must be an array of find requests");
  const requests: CompiledRequest[] = [];
  query.forEach((request: unknown, i) => {
    if (typeof request !== "object" || request === null || Array.isArray(request)) {
      throw new EmulatorError(400, "1708", `query[${i}] must be an object of field names to criteria`);
    }
    const compiled = compileRequest(db, layout, request as Record<string, unknown>, i, { today, dateFormat });
    if (compiled) requests.push(compiled);
  });
  if (requests.length === 0) throw new EmulatorError(400, "400", "every find request is empty");
  const startsWithAll = requests[0]!.omit;
  return (record) => {
    let found = startsWithAll;
    for (const request of requests) {
      if (request.omit ? found : !found) {
        if (request.test(record)) found = !request.omit;
      }
    }
    return found;
  };
}

function compileRequest(db: HostedDatabase, layout: LayoutModel, request: Record<string, unknown>, index: number, context: CriterionContext): CompiledRequest | undefined {
  let omit = false;
  const tests: RecordTest[] = [];
  for (const [name, raw] of Object.entries(request)) {
    if (name === "omit") {
      if (raw !== "true" && raw !== "false" && typeof raw !== "boolean") {
        throw new EmulatorError(400, "1708", `query[${index}].omit must be "true" or "false"`);
      }
      omit = raw === "true" || raw === true;
      continue;
    }
    if (raw === null) throw nullFieldValue(name, `query[${index}]`);
    // A JSON number is its text: a token a double does not hold (a NumberToken) every digit of it.
    if (typeof raw !== "string" && typeof raw !== "number" && !(raw instanceof NumberToken)) {
      throw new EmulatorError(400, "1708", `query[${index}]["${name}"] must be a criteria string`);
    }
    const criterion = raw instanceof NumberToken ? raw.text : String(raw);
    const target = resolveFindField(layout, name);
    // docs/emulator.md, "6. Globals": globals cannot be find criteria (code 102, a choice: the field is no find field).
    if (target.field.global) throw new EmulatorError(400, "102", `cannot find on "${name}": it is a global field, and globals cannot be find criteria`);
    if (criterion.trim() === "") continue;
    const matcher = compile(criterion, target.field, name, context);
    tests.push(target.portal ? portalTest(db, layout, target.portal, target.field, matcher) : fieldTest(db.tables.get(layout.table.name)!, target.field, matcher));
  }
  if (tests.length === 0) return undefined;
  return { omit, test: tests.length === 1 ? tests[0]! : (record) => tests.every((t) => t(record)) };
}

function resolveFindField(layout: LayoutModel, name: string): { field: TableField; portal?: PortalModel } {
  const local = layout.fields.get(name);
  if (local) return { field: local.field };
  for (const portal of layout.portals) {
    const field = portal.fields.get(name);
    if (field) return { field: field.field, portal };
  }
  throw new EmulatorError(400, "102", `cannot find on "${name}": not on layout "${layout.description.layout}"`);
}

function compile(criterion: string, field: TableField, name: string, context: CriterionContext): Matcher {
  try {
    return compileCriterion(criterion, field.type, context);
  } catch (error) {
    if (error instanceof FindCriterionError) throw new EmulatorError(400, error.code, `"${name}": ${error.message}`);
    throw error;
  }
}

/** Containers are found by their file name. */
function scalar(value: StoredValue): StoredScalar {
  return isContainerRef(value) ? value.filename : value;
}

/** A repeating field matches when any repetition matches. */
function anyRepetition(values: readonly StoredValue[], matcher: Matcher): boolean {
  for (const value of values) if (matcher(scalar(value))) return true;
  return false;
}

function fieldTest(table: TableData, field: TableField, matcher: Matcher): RecordTest {
  return (record) => anyRepetition(table.valuesOf(record, field), matcher);
}

/** A portal field matches when any related row matches. */
function portalTest(db: HostedDatabase, layout: LayoutModel, portal: PortalModel, field: TableField, matcher: Matcher): RecordTest {
  const parentTable = db.tables.get(layout.table.name)!;
  const childTable = db.tables.get(portal.table.name)!;
  return (record) => portalRows(portal, parentTable, record, childTable, db.globals).some((row) => anyRepetition(childTable.valuesOf(row, field), matcher));
}
