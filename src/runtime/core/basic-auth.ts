// Base64 with web APIs only (no Buffer: the fetch entries run where there is none), and the Basic credentials both
// APIs' clients send (the Data API's login, OData's every request).

/** Base64 of bytes (a text's: its UTF-8 bytes): `btoa` takes one byte per character. */
export function base64(data: string | ArrayBuffer): string {
  let bytes = "";
  for (const byte of new Uint8Array(typeof data == "string" ? new TextEncoder().encode(data) : data)) bytes += String.fromCharCode(byte);
  return btoa(bytes);
}

/** The header of Basic credentials, as FileMaker Server asks: base64 of the UTF-8 bytes of `username:password`. */
export function basicAuth(username: string, password: string): { authorization: string } {
  return { authorization: `Basic ${base64(`${username}:${password}`)}` };
}
