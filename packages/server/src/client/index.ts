export { connectHttp, connectStdio, ZcpClient, ZcpRpcError } from "./client.js";
export type { AnyToolArgs, ListingOf, ListOptions, ResultOf, TypedCallResult } from "./client.js";
export { httpTransport, stdioTransport, ZcpTransportError } from "./transport.js";
export type { ClientTransport, HttpTransportOptions, StdioTransportOptions } from "./transport.js";
export { NATIVE_PROTOCOL_VERSION, SESSION_HEADER } from "../native/protocol.js";
export type { InitializeResult, ListFormat, ListToolsParams, ListToolsResult, RpcResponse, StageResult, ToolListEntry, ToolListing, Unchanged } from "../native/protocol.js";
