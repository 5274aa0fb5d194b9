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
