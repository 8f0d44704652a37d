import type { IncomingMessage } from "node:http";
import { signInOf, signInName } from "../hosted-file/sign-ins.js";
import type { DataApiState } from "./state.js";

/**
 * The account a logged Data API request is for, asked by the request log once it is answered (../http/request-log.ts)
 * when the answer names none: a Bearer token's session (or "API key"), else a login's sign-in. Never the credential
 * itself. A successful Bearer request's answer names it already (server.ts, from the session it ran in), and a
 * logout's (handlers/sessions.ts: the session is gone by the time the log asks); this is for the rest, errors included.
 */
export function dataApiLogAccount(state: DataApiState, req: IncomingMessage): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "")?.[1];
  if (bearer !== undefined) return state.sessions.accountOf(bearer) ?? (state.apiKeys.accepts(req, bearer) ? "API key" : undefined);
  const signIn = signInOf(req.headers);
  return signIn !== undefined && typeof signIn !== "string" ? signInName(signIn) : undefined;
}
