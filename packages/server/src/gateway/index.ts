/**
 * `@zcp/server/gateway`: what the dispatch `zcp gen --from-mcp` generates imports. `upstream`
 * forwards calls to an upstream MCP server (of either MCP era) through one shared SDK client
 * connection.
 *
 *   types.ts            the upstream's description and the `Upstream` interface
 *   expand.ts           `${NAME}` in the description, from the environment
 *   answers.ts          an answer too large or malformed: the call it answers fails (by its id)
 *   bounded-fetch.ts    the HTTP client's fetch, its answers bounded
 *   child-transport.ts  a stdio upstream's child process, as an MCP client transport
 *   era.ts              the two MCP eras: the probe's bound, the verdict, a refused era
 *   connection.ts       one client connection in the upstream's era, how it ended, its retirement
 *   result.ts           an upstream result as a value, or the tool error
 *   upstream.ts         the shared connection: opened lazily, restarted with backoff
 *   serve.ts            how zcp-serve runs gateway tools (in process)
 */
export { upstream, closeUpstreams, BACKOFF_START_MS, BACKOFF_MAX_MS } from "./upstream.js";
export { DEFAULT_MAX_ANSWER_BYTES } from "./answers.js";
export type {
  HttpUpstream,
  StdioUpstream,
  Upstream,
  UpstreamOptions,
  UpstreamServer,
} from "./types.js";
export { expandServer, expandText, MissingVariableError } from "./expand.js";
export { resultValue } from "./result.js";
export type { UpstreamResult } from "./result.js";
export { isGatewayTool, GATEWAY_SOURCE_PREFIX } from "./serve.js";
