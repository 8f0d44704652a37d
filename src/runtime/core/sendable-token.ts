/**
 * Whether a token (a session token from a login or a token store, a Claris ID id token) can be sent in an
 * `Authorization` header at all: shared by the Data API's session and the OData client. Nothing here knows either API.
 *
 * A token is 1 to 4,096 visible ASCII characters (no space, no control character, nothing past `~`). FileMaker's
 * session tokens are some 40 hex digits and Claris ID id tokens (JWTs) one or two thousand characters; 4,096 is
 * half of the 8 KB header line common front ends take (nginx, IIS), so the request's other headers still fit. A
 * value outside it was never issued by a server: sending it fails before anything leaves (a header injection) or is
 * refused (431), every time.
 */
export const MAX_TOKEN_LENGTH = 4_096;

export function sendableToken(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_TOKEN_LENGTH && /^[\x21-\x7e]+$/.test(value);
}
