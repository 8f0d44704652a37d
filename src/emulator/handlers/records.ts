import { EmulatorError } from "../fm-error.js";
import { readRequestBody } from "../http/known-params.js";
import { jsonParam, positiveInteger, recordIdParam, sortKeys } from "../http/params.js";
import type { Answer, RequestContext } from "../http/routes.js";
import { recordToWire } from "../record-view.js";
import { sortRecords } from "../sorting.js";
import { tableOf, viewContext } from "../state.js";
import { callView } from "../http/call-view.js";
import { dateFormatFromQuery } from "../date-format.js";
import type { StoredRecord } from "../store.js";
import { deleteWithCascade } from "../cascade.js";
import { currentRecord, writeCreate, writeEdit } from "../record-transaction.js";
import { defaultShape, shapeFromQuery, type RecordShape } from "../response-layout.js";

/** The `dataInfo` block and records of a page, shared by list, get and find, in the shape the call asked for. */
export function pageAnswer(ctx: RequestContext, found: StoredRecord[], offset: number, limit: number, shape: RecordShape = defaultShape(ctx.layout)): Answer {
  const table = tableOf(ctx.db, ctx.layout);
  const page = found.slice(offset - 1, offset - 1 + limit);
  const view = viewContext(ctx.state, ctx.db, callView(ctx));
  return {
    response: {
      dataInfo: {
        database: ctx.db.model.name,
        layout: shape.layout.description.layout,
        table: shape.layout.table.name,
        totalRecordCount: table.records.size,
        foundCount: found.length,
        returnedCount: page.length,
      },
      data: page.map((record) => recordToWire(shape.layout, record, view, shape.portals)),
    },
  };
}

/** GET .../records?_offset&_limit&_sort */
export function listRecords(ctx: RequestContext): Answer {
  const offset = positiveInteger(ctx.query.get("_offset") ?? undefined, "_offset", 1);
  const limit = positiveInteger(ctx.query.get("_limit") ?? undefined, "_limit", 100);
  const sort = sortKeys(jsonParam(ctx.query.get("_sort"), "_sort"), "_sort", ctx.layout);
  ctx.dateFormat = dateFormatFromQuery(ctx.query);
  const shape = shapeFromQuery(ctx);
  const table = tableOf(ctx.db, ctx.layout);
  const all = sortRecords(table, [...table.records.values()], sort);
  // FileMaker Server answers 101 when a list returns no record (an empty table, an offset past the end).
  if (offset > all.length) throw new EmulatorError(404, "101", `no record at offset ${offset}; the table holds ${all.length}`);
  return pageAnswer(ctx, all, offset, limit, shape);
}

export function getRecord(ctx: RequestContext): Answer {
  ctx.dateFormat = dateFormatFromQuery(ctx.query);
  const shape = shapeFromQuery(ctx);
  const record = findRecord(ctx);
  return pageAnswer(ctx, [record], 1, 1, shape);
}

export async function createRecord(ctx: RequestContext): Promise<Answer> {
  const body = await readRequestBody(ctx);
  const parent = writeCreate(ctx.db, ctx.layout, body, ctx.state.clock);
  return { response: { recordId: String(parent.recordId), modId: String(parent.modId) } };
}

export async function editRecord(ctx: RequestContext): Promise<Answer> {
  // Fails fast for a missing record; writeEdit looks the record up again once the body is in.
  const recordId = findRecord(ctx).recordId;
  const body = await readRequestBody(ctx);
  const parent = writeEdit(ctx.db, ctx.layout, recordId, body, ctx.state.clock);
  return { response: { modId: String(parent.modId) } };
}

export function deleteRecord(ctx: RequestContext): Answer {
  const record = findRecord(ctx);
  deleteWithCascade(ctx.db, ctx.layout.table.name, record);
  return {};
}

function findRecord(ctx: RequestContext): StoredRecord {
  return currentRecord(tableOf(ctx.db, ctx.layout), recordIdParam(ctx.params.recordId));
}
