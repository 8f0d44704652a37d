import { EmulatorError } from "../fm-error.js";
import type { Answer, RequestContext } from "../http/routes.js";
import { parseBasic } from "./sessions.js";

/**
 * `GET /productInfo` (data-api-server.md, section 8): no authentication; the shape real servers answer, for the
 * FileMaker Server version the emulator follows (a fixed build date). Its formats are the US formats the
 * emulator's files use (`dateformats` 0).
 */
export function productInfo(): Answer {
  return {
    response: {
      productInfo: {
        name: "FileMaker Data API Engine",
        buildDate: "06/04/2024",
        version: "21.0.1.53",
        dateFormat: "MM/dd/yyyy",
        timeFormat: "HH:mm:ss",
        timeStampFormat: "MM/dd/yyyy HH:mm:ss",
      },
    },
  };
}

/**
 * `GET /databases` (section 8): the hosted files, `{ databases: [{ name }] }`, to anyone (no Authorization) or to
 * HTTP Basic credentials of any account (the emulator's accounts sign in to every hosted file; the `fmrest`
 * privilege is not needed to list files). Wrong or malformed Basic credentials: 401 / 212.
 */
export function listDatabases(ctx: RequestContext): Answer {
  const header = ctx.req.headers.authorization;
  if (header !== undefined && /^Basic(\s|$)/i.test(header)) {
    const credentials = parseBasic(header);
    if (!credentials || ctx.state.sessions.checkPassword(credentials.username, credentials.password) === "credentials") {
      throw new EmulatorError(401, "212", "the Basic credentials name no account (send none to list the databases anonymously)");
    }
  }
  return { response: { databases: [...ctx.state.databases.values()].map((db) => ({ name: db.model.name })) } };
}
