/**
 * Raw 2026-07-28 MCP requests over HTTP, as the spec writes them: the `_meta` envelope in the
 * body, and `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers that match it.
 */
import { post, type HttpAnswer } from "./faults/harness.js";

export const MODERN = "2026-07-28";

/** The body of a 2026-07-28 request (`id` fixed by default, so that answers compare as bytes). */
export function modernBody(
  method: string,
  params: { readonly [key: string]: unknown } = {},
  id: number | string = 1,
): object {
  return {
    jsonrpc: "2.0",
    id,
    method,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "zcp-test", version: "1.0.0" },
      },
    },
  };
}

/** The headers a 2026-07-28 client sends with `method` (and the tool or resource it names). */
export function modernHeaders(method: string, name?: string): { [header: string]: string } {
  return {
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": MODERN,
    "mcp-method": method,
    ...(name !== undefined ? { "mcp-name": name } : {}),
  };
}

/** One 2026-07-28 request to `url`; `headers` add to (or replace) the protocol's. */
export function modern(
  url: URL,
  method: string,
  params: { readonly [key: string]: unknown } = {},
  headers: { readonly [header: string]: string } = {},
): Promise<HttpAnswer> {
  const name =
    method === "tools/call" || method === "prompts/get"
      ? (params["name"] as string)
      : method === "resources/read"
        ? (params["uri"] as string)
        : undefined;
  return post(url, modernBody(method, params), { ...modernHeaders(method, name), ...headers });
}

/** A 2026-07-28 `tools/call`'s result. */
export async function modernCall(
  url: URL,
  name: string,
  args: { readonly [key: string]: unknown },
  headers: { readonly [header: string]: string } = {},
): Promise<{ content: { type: string; text?: string; uri?: string }[]; isError?: boolean }> {
  const answer = await modern(url, "tools/call", { name, arguments: args }, headers);
  const result = answer.messages[0]?.result;
  if (result === undefined) throw new Error(`tools/call ${name}: ${answer.status} ${answer.text}`);
  return result;
}

/**
 * One POST of `body` to a web-standard handler in process (no socket): its response, and the
 * JSON-RPC message of its body (JSON, or an SSE stream's first `data:` line; undefined when empty).
 */
export async function postTo(
  handler: { fetch(request: Request): Promise<Response> },
  url: string,
  body: unknown,
  headers: { readonly [header: string]: string } = {},
): Promise<{ response: Response; data: any }> {
  const response = await handler.fetch(
    new Request(url, {
      method: "POST",
      headers: {
        host: "127.0.0.1",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: JSON.stringify(body),
    }),
  );
  const text = await response.text();
  const line = /^(event|data):/.test(text)
    ? text
        .split("\n")
        .find((row) => row.startsWith("data:"))!
        .slice(5)
    : text;
  return { response, data: line === "" ? undefined : JSON.parse(line) };
}
