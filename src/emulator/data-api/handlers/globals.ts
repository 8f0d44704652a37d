import { EmulatorError } from "../../hosted-file/fm-error.js";
import { fieldsByQualifiedName, globalScopeOf, type QualifiedGlobal } from "../../hosted-file/globals.js";
import { describeInput } from "../../hosted-file/input/input-text.js";
import { readRequestBody } from "../wire/known-params.js";
import type { Answer, RequestContext } from "../routes.js";
import { nullFieldValue } from "../../hosted-file/records/record-writes.js";
import { emptyValues } from "../../hosted-file/store.js";
import { decodeWireValue, WIRE_FORM, type StoredValue } from "../../hosted-file/stored-value.js";

const TYPE_ERROR_CODE = { date: "500", time: "501", number: "502", timestamp: "500", text: "500", container: "102" } as const;

interface GlobalWrite {
  target: QualifiedGlobal;
  repetition: number;
  value: StoredValue;
}

/**
 * PATCH /databases/{database}/globals, body `{ "globalFields": { "TO::gField": "v", "TO::gRep(2)": "x" } }`
 * (docs/emulator.md, "6. Globals"): sets global fields for the calling session only; answers `{}`. Every name is
 * checked before any value is set: a name that is not fully qualified, names no field, or names a field that is
 * not global is code 102; a value the field's type cannot hold is 500/501/502 as in an edit; all or nothing.
 */
export async function setGlobals(ctx: RequestContext): Promise<Answer> {
  const body = await readRequestBody(ctx);
  const fields = body.globalFields;
  if (fields === undefined) throw new EmulatorError(400, "1708", "globalFields is required");
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
    throw new EmulatorError(400, "1708", "globalFields must be an object of fully qualified field names (TO::field) to values");
  }
  const writes: GlobalWrite[] = [];
  for (const [key, raw] of Object.entries(fields)) {
    if (raw === null) throw nullFieldValue(key, "globalFields");
    const { targets, repetition } = resolveGlobal(ctx, key);
    for (const target of targets) {
      const { field } = target;
      if (field.type === "container") throw new EmulatorError(400, "102", `"${key}" is a container field; set it through the container upload endpoint`);
      if (field.readOnly) throw new EmulatorError(400, "201", `"${key}" is read-only`);
      const decoded = decodeWireValue(field.type, raw);
      if (!decoded.ok) {
        const why = decoded.problem === undefined ? "" : `: ${decoded.problem}`;
        throw new EmulatorError(400, TYPE_ERROR_CODE[field.type], `${describeInput(raw)} is not a valid ${field.type} for "${key}" (expected ${WIRE_FORM[field.type]})${why}`);
      }
      writes.push({ target, repetition, value: field.type === "text" && decoded.value === null ? "" : decoded.value });
    }
  }
  // Everything is checked: one synchronous step writes it all to the session.
  const scope = globalScopeOf(ctx.db);
  for (const { target, repetition, value } of writes) {
    const values = [...(scope.read(target.table, target.field.name) ?? emptyValues(target.field))];
    values[repetition] = value;
    scope.write(target.table, target.field.name, values);
  }
  return { response: {} };
}

/** `TO::field` or `TO::field(n)`: the global field(s) it names and the zero-based repetition, or 102. */
function resolveGlobal(ctx: RequestContext, key: string): { targets: QualifiedGlobal[]; repetition: number } {
  const exact = fieldsByQualifiedName(ctx.db, key);
  if (exact.length > 0) return { targets: onlyGlobals(ctx, key, exact), repetition: 0 };
  const m = /^(.*)\((\d+)\)$/s.exec(key);
  const base = m ? fieldsByQualifiedName(ctx.db, m[1]!) : [];
  if (m && base.length > 0) {
    const targets = onlyGlobals(ctx, key, base);
    const n = Number(m[2]);
    const repetitions = targets[0]!.field.repetitions;
    if (n < 1 || n > repetitions) throw new EmulatorError(400, "102", `"${m[1]}" has ${repetitions} repetition(s); "${key}" is out of range`);
    return { targets, repetition: n - 1 };
  }
  const hint = key.includes("::") ? "" : " (global field names are fully qualified: TableOccurrence::field)";
  throw new EmulatorError(400, "102", `no field "${key}" in "${ctx.db.model.name}"${hint}`);
}

function onlyGlobals(ctx: RequestContext, key: string, targets: QualifiedGlobal[]): QualifiedGlobal[] {
  const globals = targets.filter((t) => t.field.global);
  if (globals.length === 0) throw new EmulatorError(400, "102", `"${key}" of "${ctx.db.model.name}" is not a global field`);
  return globals;
}
