import type { Session } from "./session.js";

/**
 * Each client's session, for the calls that live outside the client: `@fmgen/runtime/metadata` (layout metadata and
 * undecoded records, which only tools such as fmgen pull need) reaches a client's session through here, so that an
 * app that never imports it never loads it.
 */
const sessions = new WeakMap<object, { session: Session; database: string }>();

export function registerSession(client: object, session: Session, database: string): void {
  sessions.set(client, { session, database });
}

export function sessionOf(client: unknown, where: string): { session: Session; database: string } {
  const found = sessions.get(client as object);
  if (!found) throw new TypeError(`${where} must be a client made by createClient of @fmgen/runtime`);
  return found;
}
