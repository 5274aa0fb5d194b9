/**
 * The JSON-RPC 2.0 envelope of the native ZCP protocol: requests, answers and the error codes
 * a server answers with.
 */

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** Server errors (JSON-RPC's implementation-defined range). */
export const SERVER_ERROR = -32000;
export const SESSION_NOT_FOUND = -32001;

export type RequestId = string | number | null;

export interface RpcRequest {
  readonly jsonrpc: "2.0";
  readonly id?: RequestId;
  readonly method: string;
  readonly params?: { readonly [key: string]: unknown };
}

export interface RpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export type RpcResponse =
  | { readonly jsonrpc: "2.0"; readonly id: RequestId; readonly result: unknown }
  | { readonly jsonrpc: "2.0"; readonly id: RequestId; readonly error: RpcErrorObject };
