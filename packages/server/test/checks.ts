/**
 * What every MCP transport must do with the fixtures, checked through the official SDK `Client`:
 * shared by the stdio and the Streamable HTTP tests.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";

/** An MCP `initialize` request (id 1), as a raw client over HTTP sends it. */
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "raw", version: "0" },
  },
};

/** The headers of an MCP POST over Streamable HTTP. */
export const POST_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

export const WEATHER_TOOLS = [
  "math_average",
  "math_subtract",
  "unit_celsius_to_fahrenheit",
  "weather_get_current",
];

/** The servers under test list 3 tools per page. */
export const PAGE_SIZE = 3;

/** Pages through `tools/list`; expects pages of PAGE_SIZE tools. */
export async function listAllTools(client: Client): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    expect(page.tools.length).toBeLessThanOrEqual(PAGE_SIZE);
    if (page.nextCursor !== undefined) expect(page.tools).toHaveLength(PAGE_SIZE);
    names.push(...page.tools.map((tool) => tool.name));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return names;
}

export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export function text(result: CallToolResult, index = 0): string {
  const block = result.content[index] as ContentBlock | undefined;
  if (block?.type !== "text")
    throw new Error(`content[${index}] is not text: ${JSON.stringify(block)}`);
  return block.text;
}

/** Rejects with a JSON-RPC error of `code`. */
export async function expectRpcError(
  promise: Promise<unknown>,
  code: number,
  message?: RegExp,
): Promise<void> {
  const error = (await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  )) as { code?: number; message?: string } | undefined;
  expect(error, "expected a JSON-RPC error").toBeDefined();
  expect(error!.code).toBe(code);
  if (message) expect(error!.message).toMatch(message);
}

/** The weather fixture end to end: list (paginated), every tool, a tool error, an unknown tool, ping. */
export async function checkWeather(client: Client): Promise<void> {
  expect(client.getServerCapabilities()).toMatchObject({
    tools: { listChanged: true },
    resources: {},
  });
  expect(await listAllTools(client)).toEqual(WEATHER_TOOLS);
  const first = await client.listTools();
  const weather =
    first.nextCursor === undefined
      ? undefined
      : (await client.listTools({ cursor: first.nextCursor })).tools[0];
  expect(weather?.inputSchema.required).toEqual(["city"]);
  expect(weather?.outputSchema?.required).toContain("temperature");
  await expectRpcError(client.listTools({ cursor: "not-a-cursor" }), -32602, /Invalid cursor/);

  const average = await call(client, "math_average", { numbers: [18, 22, 28] });
  expect(text(average)).toBe(JSON.stringify((18 + 22 + 28) / 3));
  expect(average.structuredContent).toBeUndefined();
  expect(average.isError).toBeFalsy();
  expect(text(await call(client, "math_subtract", { a: 5, b: 7.5 }))).toBe("-2.5");
  expect(text(await call(client, "unit_celsius_to_fahrenheit", { celsius: 21 }))).toBe("69.8");

  const shanghai = await call(client, "weather_get_current", { city: "Shanghai" });
  const value = {
    city: "Shanghai",
    temperature: 22,
    unit: "celsius",
    condition: "cloudy",
    humidity: 71,
  };
  expect(shanghai.structuredContent).toEqual(value);
  expect(text(shanghai)).toBe(JSON.stringify(value)); // compact JSON, the structured content serialized
  const beijing = await call(client, "weather_get_current", {
    city: "Beijing",
    unit: "fahrenheit",
  });
  expect(beijing.structuredContent).toMatchObject({
    city: "Beijing",
    temperature: 64,
    unit: "fahrenheit",
  });

  const paris = await call(client, "weather_get_current", { city: "Paris" });
  expect(paris.isError).toBe(true);
  expect(JSON.parse(text(paris))).toEqual({
    ok: false,
    error: "invalid:$.city",
    hint: "expected one of: Shanghai, Beijing, Shenzhen, Hangzhou",
  });
  const missing = await call(client, "math_subtract", { a: 1 });
  expect(missing.isError).toBe(true);
  expect(JSON.parse(text(missing))).toMatchObject({ error: "missing:$.b" });

  await expectRpcError(
    call(client, "weather_get_forecast", {}),
    -32602,
    /Unknown tool: weather_get_forecast/,
  );
  expect(await client.ping()).toEqual({});
}

/**
 * The kitchen-sink `tables.load` handle: text and `resource_link`, readable through
 * `resources/read`, listed in `resources/list`, usable by `zcp_handle` and `tables_sum`.
 * Returns the handle's URI.
 */
export async function checkHandle(client: Client): Promise<string> {
  const names = await listAllTools(client);
  expect(names).toContain("tables_load");
  expect(names.at(-1)).toBe("zcp_handle");
  const templates = await client.listResourceTemplates();
  expect(templates.resourceTemplates.map((template) => template.uriTemplate)).toEqual([
    "zcp://handle/{handle}",
  ]);

  const loaded = await call(client, "tables_load", { name: "orders" });
  expect(loaded.isError).toBeFalsy();
  expect(loaded.structuredContent).toBeUndefined();
  const summary = JSON.parse(text(loaded)) as {
    ok: boolean;
    handle: string;
    summary: string;
    meta: { kind: string; count: number };
  };
  expect(summary).toMatchObject({ ok: true, handle: "#T1", meta: { kind: "table", count: 3 } });
  const link = loaded.content[1];
  if (link?.type !== "resource_link")
    throw new Error(`expected a resource_link, got ${JSON.stringify(link)}`);
  expect(link).toMatchObject({
    name: "#T1",
    mimeType: "application/json",
    description: summary.summary,
  });
  // The URI names the handle alone: no session id, nothing that grants access anywhere.
  expect(link.uri).toBe("zcp://handle/%23T1");

  const read = await client.readResource({ uri: link.uri });
  expect(read.contents).toHaveLength(1);
  const contents = read.contents[0] as { uri: string; mimeType?: string; text: string };
  expect(contents.mimeType).toBe("application/json");
  expect(JSON.parse(contents.text)).toEqual([
    { sku: "orders-0", qty: 0 },
    { sku: "orders-1", qty: 1 },
    { sku: "orders-2", qty: 2 },
  ]);
  expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([
    link.uri,
  ]);

  expect(
    JSON.parse(text(await call(client, "zcp_handle", { op: "count", handle: "#T1" }))),
  ).toEqual({ count: 3 });
  expect(text(await call(client, "tables_sum", { rows: "#T1", column: "qty" }))).toBe("3");

  // A handle tool whose value type has an output schema: the listing drops that schema, so the
  // SDK client accepts a handle result without structured content. (The client checks results
  // against the schemas of the last page it listed only: list up to the tool's page.)
  let page = await client.listTools();
  while (!page.tools.some((tool) => tool.name === "people_find"))
    page = await client.listTools({ cursor: page.nextCursor! });
  expect(page.tools.find((tool) => tool.name === "people_find")).not.toHaveProperty("outputSchema");
  const people = await call(client, "people_find", {
    filter: {},
    weights: {},
    byLevel: { low: 1, high: 2 },
  });
  expect(people.isError).toBeFalsy();
  expect(people.content[1]).toMatchObject({ type: "resource_link", name: "#P2" });

  await expectRpcError(
    client.readResource({ uri: link.uri.replace("%23T1", "%23T9") }),
    -32602,
    /Resource not found/,
  );
  await expectRpcError(client.readResource({ uri: "file:///etc/passwd" }), -32602);
  return link.uri;
}

/** `zcp_handle` release: the resource is gone from the listing and from `resources/read`. */
export async function checkRelease(client: Client, uri: string): Promise<void> {
  expect(text(await call(client, "zcp_handle", { op: "release", handle: "#T1" }))).toBe(
    '{"released":"#T1"}',
  );
  expect((await client.listResources()).resources.map((resource) => resource.uri)).not.toContain(
    uri,
  );
  await expectRpcError(client.readResource({ uri }), -32602, /Resource not found/);
}

/**
 * Runs `busy` (a call that keeps the server's tools or programs spinning) while polling
 * `healthz` every 50 ms; answers what `busy` answered and every poll's latency in ms (each poll
 * must answer 200).
 */
export async function whilePolling<T>(
  healthz: URL,
  busy: () => Promise<T>,
): Promise<{ readonly answer: T; readonly latencies: readonly number[] }> {
  const latencies: number[] = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const started = performance.now();
      const response = await fetch(healthz);
      expect(response.status).toBe(200);
      await response.body?.cancel();
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  try {
    return { answer: await busy(), latencies };
  } finally {
    polling = false;
    await poller;
  }
}
