export { createNativeSession } from "./session.js";
export type { NativeSession, NativeSessionOptions } from "./session.js";
export { serveNativeStdio } from "./stdio.js";
export type { NativeStdioOptions, NativeStdioServer } from "./stdio.js";
export { createNativeHttpHandler } from "./http.js";
export type { NativeHttpHandler, NativeHttpOptions } from "./http.js";
export * from "./protocol.js";
