import type { IncomingMessage } from "node:http";
import { noteRequestBody } from "./request-log.js";

// Request bodies, for every route of both APIs: read whole up to a limit the API sets per route, and whatever is not
// read (past the limit, or the body of a request refused before its body is read) dropped, up to a cap.

/** Past this much unread input a request's connection is cut instead of drained: no client makes the server read forever. */
export const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

/**
 * A request's whole body, at most `limit` bytes. A body that declares or reaches more is refused with the API's own
 * error (`tooLarge`), and no byte past the limit is kept: one declared larger is refused before any of it is read,
 * one sent in chunks as its size passes the limit. What is left is the shell's to drop (discardUnread) once it answers.
 */
export function readBody(req: IncomingMessage, limit: number, tooLarge: () => Error): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge());
  // A body read already has no bytes left (and no 'end' to wait for); a connection gone has none coming.
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  if (req.destroyed) return Promise.reject(new Error("the connection closed before the request body ended"));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off("data", onData).off("end", onEnd).off("close", onClose);
      // Paused, not dumped: the rest waits for discardUnread, which counts what it drops.
      req.pause();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        chunks.length = 0;
        stop();
        reject(tooLarge());
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      const body = Buffer.concat(chunks, size);
      // The request log keeps the first bytes of a JSON or text body, when the request is logged (request-log.ts).
      noteRequestBody(req, body);
      resolve(body);
    };
    const onClose = () => {
      stop();
      reject(new Error("the connection closed before the request body ended"));
    };
    req.on("data", onData).on("end", onEnd).on("close", onClose);
  });
}

/**
 * Drops what is left of a request's body, so the answer goes out on a connection that can serve the next request;
 * past MAX_DRAIN_BYTES the connection is cut. Called before the answer is written: Node would otherwise read an
 * unread body to its end, however long.
 */
export function discardUnread(req: IncomingMessage): void {
  if (req.complete) return;
  let dropped = 0;
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.byteLength;
    if (dropped > MAX_DRAIN_BYTES) req.socket.destroy();
  });
  req.resume();
}
