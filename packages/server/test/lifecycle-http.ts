/**
 * The servers and sessions of the lifecycle tests (lifecycle*.test.ts): an HTTP server on a
 * fixture, raw MCP and native sessions and their POSTs, a tool that runs until its signal
 * aborts, and what each test leaves to close (`cleanup`, run by each file's `afterEach`).
 */
import { createRuntime, type GeneratedModule } from "@zcp/runtime";
import { expect } from "vitest";
import kitchenSink from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import { serveHttp, type McpHttpServer } from "../src/node/index.js";
import { INITIALIZE, POST_HEADERS } from "./checks.js";

export const NATIVE_INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize" });
export const SESSION_NOT_FOUND = {
  jsonrpc: "2.0",
  error: { code: -32001, message: "Session not found" },
  id: null,
};

/** What the running test leaves to close, last first. */
export const cleanup: (() => Promise<unknown> | unknown)[] = [];
export async function runCleanup(): Promise<void> {
  for (const step of cleanup.splice(0).reverse()) await step();
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A tool that runs until its signal aborts (it records that), in place of kitchen-sink's tables.load. */
export function waitingForAbort() {
  const tool = { started: 0, aborted: 0 };
  const id = kitchenSink.registry.tools.find((entry) => entry.alias === "tables.load")!.id;
  const generated = {
    ...kitchenSink,
    dispatch: {
      ...kitchenSink.dispatch,
      [id]: (_args: unknown, context: { signal: AbortSignal }) =>
        new Promise((resolve) => {
          tool.started++;
          context.signal.addEventListener("abort", () => {
            tool.aborted++;
            resolve([]);
          });
        }),
    },
  } as GeneratedModule;
  return { tool, generated };
}

export async function serve(
  generated: GeneratedModule,
  options: Parameters<typeof serveHttp>[1] = {},
): Promise<{ server: McpHttpServer; url: URL }> {
  const served = await serveHttp(createRuntime(generated, { approve: () => true }), options);
  cleanup.push(() => new Promise((resolve) => served.server.close(() => resolve(undefined))));
  return served;
}

/** A raw MCP session (no GET stream): initialize and initialized; the headers of its requests. */
export async function mcpSession(
  url: URL,
  headers: { readonly [name: string]: string } = {},
): Promise<{ [name: string]: string }> {
  const opened = await fetch(url, {
    method: "POST",
    headers: { ...POST_HEADERS, ...headers },
    body: JSON.stringify(INITIALIZE),
  });
  expect(opened.status).toBe(200);
  await opened.text();
  const session = {
    ...POST_HEADERS,
    ...headers,
    "mcp-session-id": opened.headers.get("mcp-session-id")!,
    "mcp-protocol-version": "2025-11-25",
  };
  const initialized = await post(url, session, {
    jsonrpc: "2.0",
    method: "notifications/initialized",
  });
  expect(initialized.status).toBe(202);
  return session;
}

export async function post(
  url: URL,
  headers: { readonly [name: string]: string },
  body: unknown,
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The JSON-RPC messages of an SSE body. */
export function events(text: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as unknown);
}

export async function nativeSession(
  url: URL,
  headers: { readonly [name: string]: string } = {},
): Promise<{ [name: string]: string }> {
  const opened = await post(
    url,
    { "content-type": "application/json", ...headers },
    NATIVE_INITIALIZE,
  );
  expect(opened.status).toBe(200);
  await opened.text();
  return {
    "content-type": "application/json",
    ...headers,
    "zcp-session-id": opened.headers.get("zcp-session-id")!,
  };
}

export const nativeCall = (id: number, name: string, args: unknown) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});
