export { createMcpServer, handleUri, parseHandleUri, ProtocolError, HANDLE_URI_PREFIX, HANDLE_URI_TEMPLATE, RESOURCE_NOT_FOUND } from "./mcp.js";
export type { McpServerOptions, ZcpMcpServer } from "./mcp.js";
export { serveStdio } from "./stdio.js";
export type { StdioOptions } from "./stdio.js";
export { createHttpServer, serveHttp } from "./http.js";
export type { HttpOptions, McpHttpServer, ServeHttpOptions } from "./http.js";
