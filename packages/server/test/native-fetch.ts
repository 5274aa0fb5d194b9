/**
 * Native `POST /zcp` handlers in-process, for the token tests: replicas of one registry sharing
 * a secret and a handle storage (no session store), and one POST with its status, token and JSON.
 * A test file calls `closeNativeReplicas` after each test.
 */
import { randomBytes } from "node:crypto";
import {
  createRuntime,
  MemoryHandleStorage,
  type GeneratedModule,
  type RuntimeOptions,
} from "@zcp/runtime";
import { createNativeFetchHandler, type NativeFetchOptions } from "../src/index.js";

/** The secret every replica shares unless a test gives its own. */
export const NATIVE_SECRET = randomBytes(32).toString("base64");

type Handler = ReturnType<typeof createNativeFetchHandler>;

const open: Handler[] = [];

/** `count` handlers of `generated`'s runtime (`runtime` options added) sharing one handle storage. */
export function nativeReplicas(
  generated: GeneratedModule,
  count: number,
  options: NativeFetchOptions = {},
  runtime: RuntimeOptions = {},
): Handler[] {
  const storage = new MemoryHandleStorage();
  return Array.from({ length: count }, () => {
    const served = createRuntime(generated, {
      approve: () => true,
      ...runtime,
      handles: { storage },
    });
    const handler = createNativeFetchHandler(served, { secret: NATIVE_SECRET, ...options });
    open.push(handler);
    return handler;
  });
}

/** Closes every handler `nativeReplicas` made. */
export async function closeNativeReplicas(): Promise<void> {
  await Promise.all(open.splice(0).map((handler) => handler.close()));
}

/** One POST; its status, the token it carries and its JSON. */
export async function nativePostTo(
  handler: Handler,
  body: unknown,
  token?: string,
  headers: { readonly [name: string]: string } = {},
) {
  const response = await handler.fetch(
    new Request("http://127.0.0.1:8787/zcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token === undefined ? {} : { "zcp-session-id": token }),
        ...headers,
      },
      body: JSON.stringify(body),
    }),
  );
  return {
    status: response.status,
    token: response.headers.get("zcp-session-id"),
    body: (await response.json()) as any,
  };
}

/** The decoded payload fields of a token: [rev, expires, id, stage, findFormat, registry, found]. */
export const payloadFields = (token: string): unknown[] =>
  JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString());
