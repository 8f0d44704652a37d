import { broken, pageIn } from "./answer-shape.js";
import { repetitionKey } from "./codecs.js";
import { containerRepetition } from "./container-field.js";
import type { LayoutSpec } from "./definition.js";
import { fileMakerError } from "./errors.js";
import { getOwn } from "../core/own.js";
import { ProtocolError, ResponseTooLargeError, type FailedCall } from "../core/protocol-errors.js";
import { redact, scrub, secretForms } from "./redact.js";
import type { Session } from "./session.js";
import { drain } from "../core/carrier.js";
import { containerFile, fileNameIn, sizeIn, type ContainerFile } from "../core/container-file.js";
import { connectionError, parseEnvelope, segment, stoppedError } from "./transport.js";

/** What `fm.download(url)` takes. */
export interface DownloadOptions {
  /** Aborts the download, reading included (a `NetworkError` with reason `aborted`). */
  signal?: AbortSignal;
}

/** What a layout client's `download` takes: the repetition. */
export interface ContainerDownloadOptions extends DownloadOptions {
  /** One-based repetition (default 1). */
  repetition?: number;
}

/**
 * A layout client's `download`, loaded on its first use: reads the record, then the file its container field's URL
 * (that repetition's) points to. An empty container is `null`.
 */
export async function downloadFrom(session: Session, definition: LayoutSpec, recordPath: string, field: string, options: ContainerDownloadOptions): Promise<ContainerFile | null> {
  const repetition = containerRepetition("download: ", definition, field, options.repetition);
  const req = { method: "GET", path: recordPath } as const;
  const envelope = await session.call(() => req, { idempotent: true, signal: options.signal });
  const record = (pageIn(envelope, req).data as { fieldData: Record<string, unknown> }[])[0];
  const url = getOwn(record?.fieldData ?? {}, repetitionKey(field, repetition - 1));
  if (url === "") return null;
  if (typeof url !== "string") throw broken(envelope, req, `the record has no "${field}" value`);
  return downloadUrl(session, url, options, { method: "download", path: `${recordPath}/containers/${segment(field)}/${repetition}` });
}

/**
 * `fm.download(url)`: a container URL of the client's own server (a URL of any other origin is refused before any
 * request: it is fetched with the session's cookie). The first GET may answer 302 with `Set-Cookie: X-FMS-Session-Key`
 * and a Location on the same server; the GET that brings the cookie gets the file (docs/containers.md, "Downloading
 * (Data API)"). `timeoutMs` bounds the exchange up to the file's headers; its body is then read as fast as the caller
 * reads it.
 */
export async function downloadUrl(session: Session, url: string, options: DownloadOptions = {}, call: FailedCall = { method: "download", path: "{container URL}" }): Promise<ContainerFile> {
  const { settings, fetch } = session.transport;
  const { signal } = options;
  const target = URL.canParse(url) ? new URL(url) : undefined;
  // A URL's token (and later the cookie) are secrets: errors show neither, nor anything quoting them.
  const secrets = [url, target?.pathname ?? "", target?.search ?? ""];
  const scrubAll = (text: string) => session.scrub(scrub(text, secretForms(secrets)));
  const clean = <E>(error: E): E => session.redact(redact(error, secretForms(secrets)));
  const own = (u: URL | undefined) => !!u && u.origin === settings.origin && !u.username && !u.password;
  if (!own(target)) {
    throw new TypeError(`download: the URL is not of the client's server ${settings.origin}${target ? ` (its origin is ${target.origin})` : ""}: a container URL is fetched with the session's cookie, never sent elsewhere`);
  }
  if (signal?.aborted) throw stoppedError("aborted", call, settings.timeoutMs, signal);
  // One controller for the whole download: the caller's signal, and the time limit until the file's headers.
  const controller = new AbortController();
  const onAbort = () => controller.abort(stoppedError("aborted", call, settings.timeoutMs, signal));
  signal?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(stoppedError("timeout", call, settings.timeoutMs, signal)), settings.timeoutMs);
  const done = () => signal?.removeEventListener("abort", onAbort);
  const get = async (at: URL, headers: Record<string, string>, redirect: "manual" | "follow" = "manual"): Promise<Response> => {
    try {
      return await fetch(at.href, { headers, signal: controller.signal, redirect, ...(redirect === "follow" ? { credentials: "include" } : {}) });
    } catch (error) {
      throw controller.signal.aborted ? controller.signal.reason : connectionError(error, call, scrubAll);
    }
  };
  try {
    let response = await get(target!, {});
    // A browser neither shows a redirect nor its cookies: it follows it with its own cookie jar.
    if (response.type === "opaqueredirect") response = await get(target!, {}, "follow");
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const setCookies = response.headers.getSetCookie?.() ?? [response.headers.get("set-cookie") ?? ""];
      const pairs = setCookies.map((c) => c.split(";")[0]!.trim()).filter(Boolean);
      secrets.push(...pairs, ...pairs.map((pair) => pair.slice(pair.indexOf("=") + 1)));
      const next = URL.canParse(response.headers.get("location") ?? "", target!.href) ? new URL(response.headers.get("location")!, target) : target!;
      if (!own(next)) throw new TypeError(`download: the server redirected to another origin (${next.origin}); not followed with the session's cookie`);
      secrets.push(next.pathname, next.search);
      response = await get(next, pairs.length ? { cookie: pairs.join("; ") } : {});
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        throw new ProtocolError(response.status, "", call, "redirects again once given the X-FMS-Session-Key cookie");
      }
    }
    const size = sizeIn(response.headers.get("content-length"));
    if (size! > settings.maxResponseBytes) {
      await response.body?.cancel();
      throw new ResponseTooLargeError(response.status, call, settings.maxResponseBytes);
    }
    const body = bounded(response, call, settings.maxResponseBytes, scrubAll, clean, done, controller.signal);
    if (response.status !== 200) {
      // An error answer: FileMaker's envelope (401 / 952, 404 / 1630) as its typed error, anything else a ProtocolError.
      const text = new TextDecoder().decode(await drain(body));
      const envelope = parseEnvelope(response.status, {}, text, call, scrubAll);
      throw envelope.code === "0" ? new ProtocolError(response.status, "", call, "is not the file") : fileMakerError(envelope.code, scrubAll(envelope.message), response.status, call);
    }
    // Without a Content-Disposition name, the URL's last segment; "download" when it gives none either.
    const name = fileNameIn(response.headers.get("content-disposition"), new URL(response.url || target!.href).pathname.split("/").at(-1)) ?? "download";
    return containerFile(name, response.headers.get("content-type"), size, body);
  } catch (error) {
    done();
    throw clean(error);
  } finally {
    clearTimeout(timer);
  }
}

/** The answer's body, read as it is consumed: past `max` bytes, or on an abort or a fault, it fails with the runtime's error. */
function bounded(response: Response, call: FailedCall, max: number, scrubAll: (text: string) => string, clean: <E>(error: E) => E, done: () => void, signal: AbortSignal): ReadableStream<Uint8Array> {
  const reader = response.body?.getReader();
  let received = 0;
  const fail = (error: unknown) => {
    done();
    reader?.cancel().catch(() => undefined);
    throw clean(error);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>> | undefined;
      try {
        chunk = await reader?.read();
      } catch (error) {
        fail(signal.aborted ? signal.reason : connectionError(error, call, scrubAll));
      }
      if (!chunk || chunk.done) {
        done();
        return controller.close();
      }
      received += chunk.value.byteLength;
      if (received > max) fail(new ResponseTooLargeError(response.status, call, max));
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      done();
      return reader?.cancel(reason);
    },
  });
}
