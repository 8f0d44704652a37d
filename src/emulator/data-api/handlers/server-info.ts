import { EmulatorError } from "../../hosted-file/fm-error.js";
import type { Answer, RequestContext } from "../routes.js";
import { signInOf } from "../../hosted-file/sign-ins.js";
import { signInRefused } from "./sessions.js";

/**
 * `GET /productInfo` (docs/emulator.md, "8. Server and database metadata"): no authentication; the shape real servers
 * answer, for the FileMaker Server version the emulator follows (a fixed build date). Its formats are the US formats
 * the emulator's files use (`dateformats` 0).
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
 * the sign-in of any account: HTTP Basic, or (section 9) an FMID id token or the OAuth headers. The emulator's
 * accounts sign in to every hosted file; the `fmrest` privilege is not needed to list files. A sign-in that names
 * no account, or a malformed Basic header, is 401 / 212; another kind of Authorization (a Bearer token) is not a
 * sign-in and is not read.
 */
export function listDatabases(ctx: RequestContext): Answer {
  const signIn = signInOf(ctx.req.headers);
  if (signIn === "ambiguous") throw new EmulatorError(401, "212", "send one sign-in: the OAuth headers or an Authorization header, not both");
  if (signIn === "malformed") throw new EmulatorError(401, "212", "the sign-in cannot be read (a malformed Basic or FMID header, or one OAuth header of two)");
  if (signIn !== undefined) {
    const check = ctx.state.sessions.check(signIn);
    if (check === "credentials" || check === "expired") throw signInRefused(check);
  }
  return { response: { databases: [...ctx.state.databases.values()].map((db) => ({ name: db.model.name })) } };
}
