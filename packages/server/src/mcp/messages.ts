/** JSON-RPC messages as the SDK types them, told apart from anything else a client sends. */
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from "@modelcontextprotocol/server";

/** `value` when it is a JSON-RPC 2.0 request, notification or response; else undefined. */
export function jsonRpcMessage(value: unknown): JSONRPCMessage | undefined {
  return isJSONRPCRequest(value) ||
    isJSONRPCNotification(value) ||
    isJSONRPCResultResponse(value) ||
    isJSONRPCErrorResponse(value)
    ? value
    : undefined;
}
