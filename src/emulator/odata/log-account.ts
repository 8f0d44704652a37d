import type { IncomingMessage } from "node:http";
import type { AnswerBytes } from "../http/answer.js";
import { signInOf, signInName } from "../hosted-file/sign-ins.js";

/**
 * The account a logged OData request signed in as, asked by the request log once it is answered
 * (../http/request-log.ts): a Basic user name, "Claris ID", or "API key" (a Bearer credential); none when signing
 * in was refused (every refusal is a 401, odata-auth.ts). Never the credential itself.
 */
export function odataLogAccount(req: IncomingMessage, answer: AnswerBytes): string | undefined {
  if (answer.status === 401) return undefined;
  if (/^Bearer\s/i.test(req.headers.authorization ?? "")) return "API key";
  const signIn = signInOf(req.headers);
  return signIn !== undefined && typeof signIn !== "string" ? signInName(signIn) : undefined;
}
