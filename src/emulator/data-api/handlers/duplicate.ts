import { readRequestBody } from "../wire/known-params.js";
import { recordIdParam } from "../../hosted-file/input/params.js";
import type { Answer, RequestContext } from "../routes.js";
import { writeDuplicate } from "../../hosted-file/records/record-duplicate.js";
import { currentRecord } from "../../hosted-file/records/record-transaction.js";
import { withScripts } from "../script-phases.js";
import { tableOf, type StoredRecord } from "../../hosted-file/store.js";

/**
 * POST .../layouts/{layout}/records/{recordId}: duplicates the record (docs/emulator.md, "7. Duplicate, delete related
 * rows, edit portal rows, options, upload modId"). The body is optional (none at all, or a JSON object) and carries
 * only script keys, which run around the duplicate as around any action (section 2). Answers `{ recordId, modId }` of
 * the copy, plus the scripts' answer keys.
 */
export async function duplicateRecord(ctx: RequestContext): Promise<Answer> {
  // Fails fast for a missing record; writeDuplicate looks it up again once the body is in.
  const recordId = currentRecord(tableOf(ctx.db, ctx.layout), recordIdParam(ctx.params.recordId)).recordId;
  const body = await readRequestBody(ctx, { emptyIsObject: true });
  let copy!: StoredRecord;
  return withScripts(ctx, body, {
    act: () => [(copy = writeDuplicate(ctx.db, ctx.layout, recordId, ctx.state.clock))],
    // The copy's ids as the scripts left it (its modId after their edits); as made when a script deleted it.
    answer: ([now = copy]) => ({ response: { recordId: String(now.recordId), modId: String(now.modId) } }),
  });
}
