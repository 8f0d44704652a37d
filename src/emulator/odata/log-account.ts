import type { IncomingMessage } from "node:http";
import { signInOf, signInName } from "../hosted-file/sign-ins.js";
import { logEntryOf } from "../http/request-log.js";

/**
 * The account a logged OData request signed in as, on its log entry (../http/request-log.ts), once signing in
 * succeeded: a Basic user name, "Claris ID", or "API key" (a Bearer credential). Never the credential itself.
 */
export function noteODataAccount(req: IncomingMessage): void {
  const entry = logEntryOf(req);
  if (!entry) return;
  if (/^Bearer\s/i.test(req.headers.authorization ?? "")) entry.account = "API key";
  else {
    const signIn = signInOf(req.headers);
    if (signIn !== undefined && typeof signIn !== "string") entry.account = signInName(signIn);
  }
}
