import { EmulatorError } from "../../hosted-file/fm-error.js";
import { compileFindQuery } from "../../hosted-file/find/find-requests.js";
import { readRequestBody } from "../wire/known-params.js";
import { sortKeys } from "../../hosted-file/input/params.js";
import { positiveInteger } from "../wire/params.js";
import type { Answer, RequestContext } from "../routes.js";
import { sortRecords } from "../../hosted-file/sorting.js";
import { tableOf, type StoredRecord } from "../../hosted-file/store.js";
import { pageAnswer } from "./records.js";
import { dateFormatFromBody } from "../../hosted-file/date-format.js";
import { withScripts } from "../script-phases.js";
import { shapeFromFindBody } from "../response-layout.js";

/** POST .../_find: `query` requests, `sort`, and `offset`/`limit` as strings; no match is 401. */
export async function findRecords(ctx: RequestContext): Promise<Answer> {
  const body = await readRequestBody(ctx);
  if (body.query === undefined) throw new EmulatorError(400, "1708", "query is required");
  // Criteria are read, and the records answered, in the call's dateformats (docs/emulator.md, "5. `dateformats`").
  ctx.dateFormat = dateFormatFromBody(body.dateformats);
  const test = compileFindQuery(ctx.db, ctx.layout, body.query, ctx.state.clock.today(), ctx.dateFormat);
  const sort = sortKeys(body.sort, "sort", ctx.layout, ctx.db.model);
  const offset = positiveInteger(body.offset, "offset", 1);
  const limit = positiveInteger(body.limit, "limit", 100);
  const shape = shapeFromFindBody(ctx, body);
  const table = tableOf(ctx.db, ctx.layout);
  return withScripts(ctx, body, {
    act: () => {
      const found: StoredRecord[] = [];
      for (const record of table.records.values()) if (test(record)) found.push(record);
      if (found.length === 0) throw new EmulatorError(404, "401");
      return found;
    },
    sort: (found) => sortRecords(table, found, sort),
    answer: (found) => pageAnswer(ctx, found, offset, limit, shape),
  });
}
