// Node's types: the declarations of the transports name node:http, node:stream and NodeJS types.
/// <reference types="node" preserve="true" />
export { createMcpServer, handleUri, parseHandleUri, ProtocolError, HANDLE_URI_PREFIX, HANDLE_URI_TEMPLATE, RESOURCE_NOT_FOUND } from "./mcp.js";
export type { McpServerOptions, ZcpMcpServer } from "./mcp.js";
export { serveStdio } from "./stdio.js";
export type { StdioOptions } from "./stdio.js";
export { createHttpServer, serveHttp } from "./http.js";
export type { HttpOptions, McpHttpServer, ServeHttpOptions } from "./http.js";
export { createNativeSession, serveNativeStdio, createNativeHttpHandler, NATIVE_PROTOCOL_VERSION, SESSION_HEADER } from "./native/index.js";
export type { NativeSession, NativeSessionOptions, NativeStdioOptions, NativeStdioServer, NativeHttpHandler, NativeHttpOptions } from "./native/index.js";
export type { InitializeResult, ListFormat, ListToolsParams, ListToolsResult, RpcResponse, StageResult, ToolListEntry, ToolListing, Unchanged } from "./native/index.js";
export { scopesGranted, serveRuntimeOptions } from "./serve.js";
export type { ServeRuntimeOptions } from "./serve.js";
