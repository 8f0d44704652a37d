import type { Answer, RequestContext } from "../routes.js";
import { findScript, runScript, scriptKeyValue, standaloneAnswer } from "../script-phases.js";

/**
 * GET /databases/{database}/layouts/{layout}/script/{script}?script.param=P (docs/emulator.md, "2. Scripts"): runs
 * one script on the layout and answers `{ scriptResult?, scriptError }`; a script that fails still answers code 0,
 * its error in `scriptError`. The script name is one path segment (percent-encoded: a "/" in it is %2F).
 */
export async function runStandaloneScript(ctx: RequestContext): Promise<Answer> {
  const name = ctx.params.script!;
  const param = scriptKeyValue(ctx.query, "script.param") ?? "";
  const handler = findScript(ctx, name);
  const outcome = await runScript(ctx, { phase: "standalone", name, param, handler });
  return { response: standaloneAnswer(outcome) };
}

/** GET /databases/{database}/scripts: the handlers' and the database description's scripts, folders nested. */
export function listScripts(ctx: RequestContext): Answer {
  return { response: { scripts: ctx.state.scripts.list(ctx.db.model.name) } };
}
