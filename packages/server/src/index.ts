// Node's types: the declarations of the transports name node:http, node:stream and NodeJS types.
/// <reference types="node" preserve="true" />
export { createMcpServer } from "./mcp/server.js";
export type { CreateMcpServerOptions, McpServerOptions, ZcpMcpServer } from "./mcp/server.js";
export {
  handleUri,
  parseHandleUri,
  HANDLE_URI_PREFIX,
  HANDLE_URI_TEMPLATE,
  RESOURCE_NOT_FOUND,
} from "./mcp/resources.js";
export { ProtocolError } from "./mcp/errors.js";
export { serveStdio } from "./mcp/stdio.js";
export type { McpStdioServer, StdioOptions } from "./mcp/stdio.js";
export { createFetchHandler } from "./fetch.js";
export type { FetchHandlerOptions, ZcpFetchHandler } from "./fetch.js";
export type { McpCaller, McpView } from "./mcp/stateless.js";
export { createNativeSession, serveNativeStdio, createNativeFetchHandler } from "./native/index.js";
export { NATIVE_PROTOCOL_VERSION, SESSION_HEADER } from "@zcp/runtime/wire";
export type {
  CreateNativeSessionOptions,
  NativeSession,
  NativeSessionOptions,
  NativeStdioOptions,
  NativeStdioServer,
  NativeFetchHandler,
  NativeFetchOptions,
} from "./native/index.js";
export type {
  InitializeResult,
  ListFormat,
  ListToolsParams,
  ListToolsResult,
  RpcResponse,
  StageResult,
  ToolListEntry,
  ToolListing,
  Unchanged,
} from "@zcp/runtime/wire";
export { scopesGranted, serveRuntimeOptions } from "./cli/runtime-options.js";
export type { ServeRuntimeOptions } from "./cli/runtime-options.js";
export { createWorkerExecutor } from "./isolation/executor.js";
export type { WorkerExecutor, WorkerExecutorOptions } from "./isolation/executor.js";
