/**
 * What the gateway relies on in the v2 SDK client beyond its documented API (era.ts), each
 * checked against the installed SDK and real upstreams, so that an SDK upgrade that changes one
 * fails here, by name, not somewhere in a gateway test: that our child transport is probed as a
 * stdio one (a silent server is a 2025 one, not an outage), the wording of a probe whose child
 * exited, and of a 2025 result on a 2026 connection; and what a 2025 server on either SDK's
 * stateful transport answers a 2026 request (its request for a session, era.ts's evidence).
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import {
  Client,
  ProtocolError,
  SdkErrorCode,
  SdkHttpError,
  StreamableHTTPClientTransport,
  UnsupportedProtocolVersionError,
  type FetchLike,
  type PriorDiscovery,
} from "@modelcontextprotocol/client";
import { Server as V1Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport as V1Transport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  McpServer as V2Server,
  WebStandardStreamableHTTPServerTransport as V2Transport,
} from "@modelcontextprotocol/server";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ChildTransport } from "../src/gateway/child-transport.js";
import { openConnection, type Connection } from "../src/gateway/connection.js";
import { closedInProbe, eraMismatch } from "../src/gateway/era.js";
import { MCP_INITIALIZE } from "./faults/harness.js";
import { stdioEra } from "./gateway-module.js";

const require = createRequire(import.meta.url);
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});
const options = { maxAnswerBytes: 1 << 20, onError: () => undefined };
async function opened(connection: Promise<Connection>): Promise<Connection> {
  const each = await connection;
  closing.push(() => each.close());
  return each;
}

describe("the v2 SDK client, as the gateway relies on it", () => {
  it("is the version era.ts was checked against (2.4.0): on another, check this file's reliances and update it", () => {
    const main = require.resolve("@modelcontextprotocol/client");
    const manifest = path.join(path.dirname(main), "../package.json");
    expect((JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version).toBe(
      "2.4.0",
    );
  });

  it("takes ChildTransport for stdio (its stderr and pid): a probe left unanswered is a 2025 server", async () => {
    const started = Date.now();
    const connection = await opened(
      openConnection(stdioEra("silent"), { ...options, probeTimeoutMs: 500 }),
    );
    expect(connection.verdict).toEqual({ kind: "legacy" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });

  it("a 2026 server that starts slower than the probe's bound refuses initialize: probed again, with the connect timeout", async () => {
    const connection = await opened(
      openConnection(stdioEra("late"), { ...options, probeTimeoutMs: 500 }),
    );
    expect(connection.verdict.kind).toBe("modern");
  });

  it("rejects a probe in place whose child exited with the error closedInProbe knows", async () => {
    const client = new Client(
      { name: "t", version: "0" },
      { versionNegotiation: { mode: "auto" } },
    );
    const transport = new ChildTransport(stdioEra("exits"), 1 << 20);
    const error = await client.connect(transport).then(
      () => null,
      (rejected: unknown) => rejected,
    );
    await transport.close();
    expect(closedInProbe(error)).toBe(true);
    // And the gateway's connection takes the child for a 2025 server, on a new one.
    const connection = await opened(openConnection(stdioEra("exits"), options));
    expect(connection.verdict).toEqual({ kind: "legacy" });
  });

  it("rejects a 2025 result on a 2026 connection with the error eraMismatch knows as answered", async () => {
    const modern = await opened(openConnection(stdioEra("modern"), options));
    expect(modern.verdict.kind).toBe("modern");
    const stale = await opened(
      openConnection(stdioEra("legacy"), { ...options, prior: modern.verdict }),
    );
    const error = await stale.client.callTool({ name: "echo", arguments: { text: "x" } }).then(
      () => null,
      (rejected: unknown) => rejected,
    );
    expect(eraMismatch(error, "modern")).toBe("answered");
  });
});

describe("eraMismatch", () => {
  const http = (status: number, text: string) =>
    new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, {
      status,
      text,
    });
  const refusedBody = JSON.stringify({
    jsonrpc: "2.0",
    error: { code: -32022, message: "Unsupported protocol version: 2025-11-25" },
    id: 1,
  });

  it("a -32022 refuses either era; any other JSON-RPC error is no mismatch", () => {
    const unsupported = new UnsupportedProtocolVersionError({
      supported: ["2026-07-28"],
      requested: "2025-11-25",
    });
    expect(eraMismatch(unsupported, "legacy")).toBe("refused");
    expect(eraMismatch(unsupported, "modern")).toBe("refused");
    expect(eraMismatch(new ProtocolError(-32603, "boom"), "legacy")).toBeUndefined();
  });

  it("on a 2025 connection, an HTTP 400 refuses only when it names the protocol version", () => {
    expect(eraMismatch(http(400, refusedBody), "legacy")).toBe("refused");
    expect(
      eraMismatch(
        http(400, "Bad Request: Unsupported protocol version (supported versions: 2025-06-18)"),
        "legacy",
      ),
    ).toBe("refused");
    expect(eraMismatch(http(400, "Bad Request: no such tool"), "legacy")).toBeUndefined();
    expect(eraMismatch(http(500, refusedBody), "legacy")).toBeUndefined();
  });

  it("on a 2026 connection, a 400 refuses only as a 2025 server's request for its session, or naming the version", () => {
    const rpc = (message: string, code = -32000) =>
      JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null });
    for (const text of [
      rpc("Bad Request: Server not initialized"),
      rpc("Bad Request: Mcp-Session-Id header is required"),
      rpc("Bad Request: No valid session ID provided"),
      rpc("Bad Request: Missing session ID", -32600),
      refusedBody,
      "Bad Request: Unsupported protocol version: 2026-07-28 (supported versions: 2025-11-25)",
    ])
      expect(eraMismatch(http(400, text), "modern")).toBe("refused");
    for (const text of [
      "<html><body><h1>400 Request Header Or Cookie Too Large</h1></body></html>",
      rpc("Bad Request: invalid argument"),
      rpc("invalid argument: Bad Request: Server not initialized"),
      "",
    ])
      expect(eraMismatch(http(400, text), "modern")).toBeUndefined();
    expect(eraMismatch(http(404, "no such session"), "modern")).toBeUndefined();
    // On a 2025 connection (it has a session), a request for one is no era evidence.
    expect(eraMismatch(http(400, rpc("Bad Request: Server not initialized")), "legacy")).toBe(
      undefined,
    );
  });
});

/**
 * A 2025 server on an SDK's stateful transport (v1 1.32.2 or v2 2.4.0), as a fetch function:
 * `initialized`, its transport has had `initialize`, else it is new (as a server that makes a
 * transport per request without a known session).
 */
async function legacyServer(sdk: "v1" | "v2", initialized: boolean): Promise<FetchLike> {
  const transport =
    sdk === "v1"
      ? new V1Transport({ sessionIdGenerator: randomUUID })
      : new V2Transport({ sessionIdGenerator: randomUUID });
  if (sdk === "v1")
    await new V1Server({ name: "v1", version: "1" }, { capabilities: { tools: {} } }).connect(
      transport as V1Transport,
    );
  else await new V2Server({ name: "v2", version: "1" }).connect(transport as V2Transport);
  const handle = (request: Request) =>
    (transport as { handleRequest(request: Request): Promise<Response> }).handleRequest(request);
  if (initialized) {
    const answer = await handle(
      new Request("http://legacy.test/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(MCP_INITIALIZE),
      }),
    );
    expect(answer.status).toBe(200);
    await answer.body?.cancel();
  }
  return (url, init) => handle(new Request(url, init));
}

describe("2025 servers on the SDKs' stateful transports, asked in the 2026 era", () => {
  /** The modern verdict of a real 2026 upstream: a prior that sends no probe. */
  let prior: PriorDiscovery;
  beforeAll(async () => {
    const connection = await openConnection(stdioEra("modern"), options);
    prior = connection.verdict;
    await connection.close();
  });
  for (const sdk of ["v1", "v2"] as const)
    for (const [initialized, answer] of [
      [false, "Bad Request: Server not initialized"],
      [true, "Bad Request: Mcp-Session-Id header is required"],
    ] as const)
      it(`${sdk}, ${initialized ? "an initialized" : "a new"} transport: a 400 "${answer}", which eraMismatch knows as refused`, async () => {
        const client = new Client(
          { name: "t", version: "0" },
          { versionNegotiation: { mode: "auto" } },
        );
        closing.push(() => client.close());
        const fetch = await legacyServer(sdk, initialized);
        await client.connect(
          new StreamableHTTPClientTransport(new URL("http://legacy.test/mcp"), { fetch }),
          { prior },
        );
        const error = await client.callTool({ name: "echo", arguments: {} }).then(
          () => null,
          (rejected: unknown) => rejected,
        );
        expect(error).toBeInstanceOf(SdkHttpError);
        expect((error as SdkHttpError).status).toBe(400);
        expect(JSON.parse(String((error as SdkHttpError).data?.["text"]))).toMatchObject({
          error: { message: answer },
        });
        expect(eraMismatch(error, "modern")).toBe("refused");
      });
});
