// Node's types: the declarations of the transports name node:http, node:stream and NodeJS types.
/// <reference types="node" preserve="true" />
/**
 * `@zcp/client`: the typed client of the native ZCP protocol, over a spawned stdio server or
 * `POST /zcp`. It depends on `@zcp/runtime` for its result types and the wire
 * (`@zcp/runtime/wire`, re-exported here whole), and not on the MCP SDK.
 */
export { connectHttp, connectStdio, ZcpClient, ZcpRpcError, ZcpTimeoutError } from "./client.js";
export type {
  AnyToolArgs,
  CallOptions,
  ClientOptions,
  InitializeOptions,
  ListingOf,
  ListOptions,
  ResultOf,
  TypedCallResult,
} from "./client.js";
export { httpTransport, stdioTransport, ZcpTransportError } from "./transport.js";
export type {
  ClientTransport,
  HttpTransportOptions,
  RequestMessage,
  StdioTransportOptions,
} from "./transport.js";
export * from "@zcp/runtime/wire";
