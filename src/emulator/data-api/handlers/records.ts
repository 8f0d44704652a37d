import { EmulatorError } from "../../hosted-file/fm-error.js";
import { readRequestBody } from "../wire/known-params.js";
import { recordIdParam, sortKeys } from "../../hosted-file/input/params.js";
import { jsonParam, positiveInteger } from "../wire/params.js";
import type { Answer, RequestContext } from "../routes.js";
import { recordToWire } from "../../hosted-file/layout-view/record-view.js";
import { sortRecords } from "../../hosted-file/sorting.js";
import { viewContext } from "../../hosted-file/container-urls.js";
import { callView } from "../call-view.js";
import { dateFormatFromQuery } from "../../hosted-file/date-format.js";
import { tableOf, type StoredRecord } from "../../hosted-file/store.js";
import { deleteWithCascade } from "../../hosted-file/cascade.js";
import { currentRecord, writeCreate, writeEdit } from "../../hosted-file/records/record-transaction.js";
import { defaultShape, shapeFromQuery, type RecordShape } from "../response-layout.js";
import type { NewPortalRecordInfo } from "../../hosted-file/records/portal-writes.js";
import { deleteScriptKeys, withScripts } from "../script-phases.js";

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
export function listRecords(ctx: RequestContext): Answer | Promise<Answer> {
  const offset = positiveInteger(ctx.query.get("_offset") ?? undefined, "_offset", 1);
  const limit = positiveInteger(ctx.query.get("_limit") ?? undefined, "_limit", 100);
  const sort = sortKeys(jsonParam(ctx.query.get("_sort"), "_sort"), "_sort", ctx.layout, ctx.db.model);
  ctx.dateFormat = dateFormatFromQuery(ctx.query);
  const shape = shapeFromQuery(ctx);
  const table = tableOf(ctx.db, ctx.layout);
  return withScripts(ctx, ctx.query, {
    act: () => [...table.records.values()],
    sort: (found) => sortRecords(table, found, sort),
    answer: (all) => {
      // FileMaker Server answers 101 when a list returns no record (an empty table, an offset past the end).
      if (offset > all.length) throw new EmulatorError(404, "101", `no record at offset ${offset}; the table holds ${all.length}`);
      return pageAnswer(ctx, all, offset, limit, shape);
    },
  });
}

export function getRecord(ctx: RequestContext): Answer | Promise<Answer> {
  ctx.dateFormat = dateFormatFromQuery(ctx.query);
  const shape = shapeFromQuery(ctx);
  return withScripts(ctx, ctx.query, { act: () => [findRecord(ctx)], answer: (found) => pageAnswer(ctx, found, 1, 1, shape) });
}

export async function createRecord(ctx: RequestContext): Promise<Answer> {
  const body = await readRequestBody(ctx);
  let parent!: StoredRecord;
  return withScripts(ctx, body, {
    act: () => [(parent = writeCreate(ctx.db, ctx.layout, body, ctx.state.clock))],
    // Ids as the scripts left the record (its modId after their edits); as created when a script deleted it.
    answer: ([now = parent]) => ({ response: { recordId: String(now.recordId), modId: String(now.modId) } }),
  });
}

export async function editRecord(ctx: RequestContext): Promise<Answer> {
  // Fails fast for a missing record; writeEdit looks the record up again once the body is in.
  const recordId = findRecord(ctx).recordId;
  const body = await readRequestBody(ctx);
  let parent!: StoredRecord;
  const created: NewPortalRecordInfo[] = [];
  return withScripts(ctx, body, {
    act: () => [(parent = writeEdit(ctx.db, ctx.layout, recordId, body, ctx.state.clock, created))],
    // newPortalRecordInfo only when the edit's portalData created rows (docs/emulator.md, "7. Duplicate, delete related
    // rows, edit portal rows, options, upload modId").
    answer: ([now = parent]) => ({ response: { modId: String(now.modId), ...(created.length > 0 ? { newPortalRecordInfo: created } : {}) } }),
  });
}

export async function deleteRecord(ctx: RequestContext): Promise<Answer> {
  const scripts = await deleteScriptKeys(ctx);
  return withScripts(ctx, scripts, {
    act: () => {
      deleteWithCascade(ctx.db, ctx.layout.table.name, findRecord(ctx));
      return [];
    },
    answer: () => ({}),
  });
}

function findRecord(ctx: RequestContext): StoredRecord {
  return currentRecord(tableOf(ctx.db, ctx.layout), recordIdParam(ctx.params.recordId));
}
