/**
 * The load `bench:scale` sends: one caller per simulated client, each calling `math_subtract` of
 * the weather fixture and checking the answer, every request to the next replica of its route
 * (a load balancer without stickiness), over Node's `fetch` (keep-alive) either way.
 *
 * - native: a `ZcpClient` session (`initialize` once); its state travels as the token in
 *   `zcp-session-id`, which the client's transport keeps, so any replica serves any request.
 * - MCP 2026-07-28: raw `tools/call` POSTs as the spec writes them (the `_meta` envelope and the
 *   `MCP-Protocol-Version` / `Mcp-Method` / `Mcp-Name` headers), answered as JSON; no handshake
 *   and no session, so nothing travels from one request to the next.
 */
import { httpTransport, ZcpClient } from "@zcp/client";

/** The replicas a caller's requests go to, in turn; `urls` may be replaced (a replica killed). */
export interface Route {
  urls: readonly URL[];
  next: number;
}

export interface Caller {
  /** `math_subtract(a, 1)`; rejects unless it answered `a - 1`. */
  subtract(a: number): Promise<void>;
  close(): Promise<void>;
}

const nextUrl = (route: Route): URL => route.urls[route.next++ % route.urls.length]!;

/** A native session on `route`, initialized. */
export async function nativeCaller(route: Route): Promise<Caller> {
  const client = new ZcpClient(
    httpTransport(route.urls[0]!, { fetch: (_url, init) => fetch(nextUrl(route), init) }),
  );
  await client.initialize();
  return {
    async subtract(a) {
      const result = await client.call("math.subtract", { a, b: 1 });
      if (!result.ok || !("value" in result) || result.value !== a - 1)
        throw new Error(`native math.subtract(${a}, 1) answered ${JSON.stringify(result)}`);
    },
    close: () => client.close(),
  };
}

const MODERN = "2026-07-28";
const TOOL = "math_subtract";
const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": MODERN,
  "mcp-method": "tools/call",
  "mcp-name": TOOL,
};
const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bench-scale", version: "1.0.0" },
};

interface ToolsCallAnswer {
  readonly result?: { readonly content?: readonly { readonly text?: string }[]; isError?: boolean };
}

/** A 2026-07-28 MCP client on `route`: nothing to open or close. */
export function mcpCaller(route: Route): Caller {
  let id = 0;
  return {
    async subtract(a) {
      const response = await fetch(nextUrl(route), {
        method: "POST",
        headers: HEADERS,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: ++id,
          method: "tools/call",
          params: { name: TOOL, arguments: { a, b: 1 }, _meta: META },
        }),
      });
      const text = await response.text();
      const type = response.headers.get("content-type") ?? "";
      const answer = (
        type.startsWith("application/json") ? JSON.parse(text) : {}
      ) as ToolsCallAnswer;
      if (
        !response.ok ||
        answer.result?.isError === true ||
        answer.result?.content?.[0]?.text !== String(a - 1)
      )
        throw new Error(
          `MCP ${TOOL}(${a}, 1) answered ${response.status} ${type}: ${text.slice(0, 200)}`,
        );
    },
    close: () => Promise.resolve(),
  };
}
