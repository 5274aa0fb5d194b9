/**
 * `@zcp/runtime/wire`: the native ZCP protocol as it travels, the one definition that
 * `@zcp/client` sends and reads and `@zcp/server` answers: the JSON-RPC envelope and error
 * codes, each method's params and result, and the session token's header, fields and the jar a
 * client keeps them in. No I/O here.
 */
export {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
  SERVER_ERROR,
  SESSION_NOT_FOUND,
} from "./rpc.js";
export type { RequestId, RpcErrorObject, RpcRequest, RpcResponse } from "./rpc.js";
export { FIND_FORMATS, LIST_FORMATS, NATIVE_PROTOCOL_VERSION } from "./methods.js";
export type {
  CallResult,
  FindListFormat,
  InitializeParams,
  InitializeResult,
  ListFormat,
  ListToolsParams,
  ListToolsResult,
  StageResult,
  ToolListEntry,
  ToolListing,
  Unchanged,
} from "./methods.js";
export { MAX_SESSION_TOKENS, SESSION_HEADER, TOKEN_VERSION, tokenFields } from "./token.js";
export { SessionTokenJar } from "./token-jar.js";
