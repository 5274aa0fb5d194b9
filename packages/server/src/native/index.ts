export { createNativeSession } from "./session.js";
export type { CreateNativeSessionOptions, NativeSession, NativeSessionOptions } from "./session.js";
export { serveNativeStdio } from "./stdio.js";
export type { NativeStdioOptions, NativeStdioServer } from "./stdio.js";
export { createNativeFetchHandler } from "./http.js";
export type { NativeFetchHandler, NativeFetchOptions } from "./http.js";
