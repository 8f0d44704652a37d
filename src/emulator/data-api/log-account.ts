import type { IncomingMessage } from "node:http";
import { signInOf, signInName } from "../hosted-file/sign-ins.js";
import { logEntryOf } from "../http/request-log.js";
import type { DataApiState } from "./state.js";

/**
 * The account a logged Data API request is for, on its log entry (../http/request-log.ts): a login's sign-in, a
 * Bearer token's session (or "API key"), a logout's token's session. Never the credential itself. Called before the
 * request is served (a logout forgets its session) and after (an API key is known once its path prefix is).
 */
export function noteDataApiAccount(state: DataApiState, req: IncomingMessage, served: boolean): void {
  const entry = logEntryOf(req);
  if (!entry || entry.account !== undefined) return;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "")?.[1];
  if (bearer !== undefined) {
    entry.account = state.sessions.accountOf(bearer) ?? (served && state.apiKeys.accepts(req, bearer) ? "API key" : undefined);
    return;
  }
  if (served) return;
  const logout = req.method === "DELETE" ? /\/sessions\/([^/?]+)\/?(?:\?|$)/.exec(req.url ?? "")?.[1] : undefined;
  if (logout !== undefined) {
    entry.account = state.sessions.accountOf(safeDecode(logout));
    return;
  }
  const signIn = signInOf(req.headers);
  if (signIn !== undefined && typeof signIn !== "string") entry.account = signInName(signIn);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
