/**
 * The server's side of the native protocol: the JSON-RPC answers and the limits only a server
 * needs (the wire types and constants both sides share are `@zcp/runtime/wire`). No I/O.
 */
import type { RequestId, RpcResponse } from "@zcp/runtime/wire";

export { DEFAULT_MAX_BATCH, DEFAULT_MAX_MESSAGE_BYTES } from "../limits.js";
export const DEFAULT_MAX_DEPTH = 64;

export function rpcResult(id: RequestId, result: unknown): RpcResponse {
  return { jsonrpc: "2.0", id, result };
}

export function rpcError(
  id: RequestId,
  code: number,
  message: string,
  data?: unknown,
): RpcResponse {
  return {
    jsonrpc: "2.0",
    id,
    error: data === undefined ? { code, message } : { code, message, data },
  };
}

/**
 * Whether `value` nests deeper than `max` (an object or array is one level; scalars none).
 * Iterative and stops at the first level beyond `max`, so a hostile message costs little.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth > max) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children)
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}
