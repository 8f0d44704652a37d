/**
 * Downloads a container URL as a client with a cookie jar does against FileMaker Server (docs/emulator.md,
 * "11. Container URLs"): the first GET answers 302 with `Set-Cookie: X-FMS-Session-Key=...`, and the GET that brings
 * the cookie gets the file. Any other first answer (401, 404, a Bearer token's 200) is returned as it is.
 */
export async function downloadContainer(url: string, init: RequestInit = {}): Promise<Response> {
  const first = await fetch(url, { ...init, redirect: "manual" });
  if (first.status !== 302) return first;
  await first.arrayBuffer();
  const cookie = first.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
  const location = new URL(first.headers.get("location") ?? url, url).toString();
  return fetch(location, { ...init, redirect: "manual", headers: { ...(init.headers as Record<string, string> | undefined), cookie } });
}

/**
 * The name of the file a container URL serves, as its download's Content-Disposition gives it (a container URL keeps
 * only the file's extension, as real servers' do); undefined when the URL serves no file.
 */
export async function containerFileName(url: string): Promise<string | undefined> {
  const res = await downloadContainer(url);
  await res.arrayBuffer();
  if (res.status !== 200) return undefined;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(res.headers.get("content-disposition") ?? "")?.[1];
  return extended === undefined ? undefined : decodeURIComponent(extended);
}
