/**
 * A JSON-RPC error answer. The SDK sends any thrown error's `code`, `message` and `data`; its own
 * `McpError` would prefix the message with "MCP error <code>: ", which clients add again.
 */
export class ProtocolError extends Error {
  override name = "ProtocolError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
