import type { CallView } from "../hosted-file/container-urls.js";
import { requestBaseUrl } from "../http/request-host.js";
import type { RequestContext } from "./routes.js";

/** How this call's records read: its `dateformats` (date-format.ts) and the host its client used (request-host.ts). */
export function callView(ctx: RequestContext): CallView {
  return { dateFormat: ctx.dateFormat, baseUrl: requestBaseUrl(ctx.req, ctx.state.baseUrl) };
}
