/**
 * Where a client keeps its session token, so that other clients, processes or machines signing in to the same
 * database with the same credential reuse it instead of logging in again. The key names the server (origin and
 * Data API path), the database and the account (the username, `oauth:<request id>`, or `claris`), then a verifier
 * of the secret (the password, OAuth identifier or Claris id token): PBKDF2-SHA-256 salted with the rest of the key,
 * 100,000 iterations, base64. Never the secret: a stored token serves only a client that proves the same one. A
 * stored token is used until the server answers 952 (or 431: too large for its headers); then it is deleted and
 * replaced by the token of one fresh login. A stored value that cannot be sent (not 1 to 4,096 visible ASCII
 * characters) is replaced the same way, never sent. A failing store fails the call with an Error naming the operation (`tokenStore.set failed: ...`, the
 * store's error as its cause); a token the client obtained is kept whatever the store does.
 */
export interface TokenStore {
  /** The token stored under `key`, or undefined. */
  get(key: string): Promise<string | undefined>;
  /** Stores a session's token under `key` (replacing any). */
  set(key: string, token: string): Promise<void>;
  /** Forgets `key`'s token (after a logout, or a token the server refused). */
  delete(key: string): Promise<void>;
}

/** A store in this process's memory: pass one to several clients to share their sessions. */
export function memoryTokenStore(): TokenStore {
  const tokens = new Map<string, string>();
  return {
    get: async (key) => tokens.get(key),
    set: async (key, token) => void tokens.set(key, token),
    delete: async (key) => void tokens.delete(key),
  };
}
