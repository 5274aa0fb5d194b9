/**
 * `@zcp/server/node`: the web-standard handler (`createFetchHandler`) on `node:http`, with what
 * a Node server adds around it (request bodies bounded per address and in time, a graceful stop).
 */
export { createHttpServer, serveHttp, createNativeHttpHandler } from "./server.js";
export type {
  HttpOptions,
  McpHttpServer,
  ServeHttpOptions,
  NativeHttpHandler,
  NativeHttpOptions,
} from "./server.js";
export type { BodyLimits } from "./arriving.js";
