/**
 * `@zcp/redis`: handles and session state in Redis, so that several `zcp-serve` replicas serve
 * the same sessions (any replica answers any request).
 */
export { connectRedisStore } from "./connect.js";
export type { RedisStore, RedisStoreOptions } from "./connect.js";
export { RedisHandleStorage } from "./handles.js";
export type { RedisHandleStorageOptions } from "./handles.js";
export { RedisSessionStore } from "./sessions.js";
export type { RedisSessionStoreOptions } from "./sessions.js";
export type { RedisCommander } from "./client.js";
