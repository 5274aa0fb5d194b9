/** What both HTTP surfaces share: reading a bounded request body and answering JSON. */
import type http from "node:http";

export type Body = { readonly kind: "read"; readonly text: string } | { readonly kind: "too-large" } | { readonly kind: "aborted" };

/** Reads the body up to `max` bytes; stops reading at the first byte beyond. */
export function readBody(req: http.IncomingMessage, max: number): Promise<Body> {
  if (Number(req.headers["content-length"]) > max) return Promise.resolve({ kind: "too-large" });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (body: Body) => {
      req.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onGone);
      resolve(body);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) done({ kind: "too-large" });
      else chunks.push(chunk);
    };
    const onEnd = () => done({ kind: "read", text: Buffer.concat(chunks).toString("utf8") });
    // The client went away before the end of its body: there is no one to answer.
    const onGone = () => done({ kind: "aborted" });
    req.on("data", onData).once("end", onEnd).once("error", onGone).once("close", onGone);
  });
}

export function reply(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
}
