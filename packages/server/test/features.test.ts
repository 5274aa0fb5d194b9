/**
 * Prompts, resources, completion and subscriptions over MCP, as the official v2 client sees
 * them, in both eras: the conformance fixture's generated features served in-process (so the
 * test can call `runtime.resourceUpdated`), over Streamable HTTP. Every error path sends the bad
 * request and checks the exact JSON-RPC error.
 */
import { PassThrough } from "node:stream";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createRuntime, type Runtime } from "@zcp/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import conformance from "../../../fixtures/conformance/src/zcp.gen/index.js";
import { serveStdio } from "../src/index.js";
import { serveHttp, type McpHttpServer } from "../src/node/index.js";
import { MAX_SUBSCRIPTIONS } from "../src/mcp/subscriptions.js";
import { modernBody } from "./modern-wire.js";

type Mode = "legacy" | { readonly pin: "2026-07-28" };
const MODES: readonly (readonly [string, Mode])[] = [
  ["2025-11-25", "legacy"],
  ["2026-07-28", { pin: "2026-07-28" }],
];

let runtime: Runtime;
let server: McpHttpServer;
let url: URL;
const failures: unknown[] = [];

beforeAll(async () => {
  runtime = createRuntime(conformance, { onFeatureError: (error) => failures.push(error) });
  ({ server, url } = await serveHttp(runtime, { pageSize: 2 }));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function connect(mode: Mode): Promise<Client> {
  const client = new Client(
    { name: "features-test", version: "1.0.0" },
    { versionNegotiation: { mode: mode as never } },
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

/** The JSON-RPC error a request is answered with: its code, message and data. */
async function refusal(request: Promise<unknown>): Promise<unknown> {
  try {
    await request;
  } catch (error) {
    const { code, message, data } = error as { code: number; message: string; data?: unknown };
    return { code, message: message.replace(/^MCP error -?\d+: /, ""), data };
  }
  throw new Error("the request was answered");
}

describe.each(MODES)("MCP %s", (_era, mode) => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(mode);
  });
  afterAll(() => client.close());

  it("declares prompts, completions and resource subscriptions", () => {
    expect(client.getServerCapabilities()).toMatchObject({
      prompts: {},
      completions: {},
      resources: { subscribe: true },
    });
  });

  it("lists prompts page by page, with their arguments", async () => {
    const first = await client.request({ method: "prompts/list", params: {} });
    expect(first.prompts.map((prompt) => prompt.name)).toEqual([
      "test_input_required_result_prompt",
      "test_prompt_with_arguments",
    ]);
    expect(first.prompts[1]!.arguments).toEqual([
      { name: "arg1", description: "First test argument", required: true },
      { name: "arg2", description: "Second test argument", required: true },
    ]);
    const second = await client.listPrompts({ cursor: first.nextCursor! });
    expect(second.prompts.map((prompt) => prompt.name)).toEqual([
      "test_prompt_with_embedded_resource",
      "test_prompt_with_image",
    ]);
    const third = await client.listPrompts({ cursor: second.nextCursor! });
    expect([third.prompts.map((prompt) => prompt.name), third.nextCursor]).toEqual([
      ["test_simple_prompt"],
      undefined,
    ]);
    expect(await refusal(client.listPrompts({ cursor: "bm9wZTox" }))).toMatchObject({
      code: -32602,
    });
  });

  it("gets a prompt, and refuses arguments its validator refuses or a prompt it lacks", async () => {
    const got = await client.getPrompt({
      name: "test_prompt_with_arguments",
      arguments: { arg1: "a", arg2: "b" },
    });
    expect(got.messages).toEqual([
      {
        role: "user",
        content: { type: "text", text: "Prompt with arguments: arg1='a', arg2='b'" },
      },
    ]);
    expect(
      await refusal(
        client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "a" } }),
      ),
    ).toEqual({ code: -32602, message: "missing:$.arg2 (expected string)", data: undefined });
    expect(
      await refusal(client.getPrompt({ name: "test_simple_prompt", arguments: { extra: "x" } })),
    ).toEqual({
      code: -32602,
      message: "invalid:$.extra (unknown property; expected no properties)",
      data: undefined,
    });
    expect(await refusal(client.getPrompt({ name: "nope" }))).toEqual({
      code: -32602,
      message: "Unknown prompt: nope",
      data: undefined,
    });
  });

  it("lists the static resources before handles, and the templates before the handles' one", async () => {
    const first = await client.request({ method: "resources/list", params: {} });
    expect(first.resources.map((resource) => resource.uri)).toEqual([
      "test://static-binary",
      "test://static-text",
    ]);
    const second = await client.listResources({ cursor: first.nextCursor! });
    expect([second.resources.map((resource) => resource.uri), second.nextCursor]).toEqual([
      ["test://watched-resource"],
      undefined,
    ]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      "test://template/{id}/data",
      "zcp://handle/{handle}",
    ]);
  });

  it("reads text, binary and templated resources; an unknown one is -32602 with its URI", async () => {
    expect((await client.readResource({ uri: "test://static-binary" })).contents).toEqual([
      {
        uri: "test://static-binary",
        mimeType: "image/png",
        blob: expect.stringMatching(/^iVBORw0KGgo/),
      },
    ]);
    expect((await client.readResource({ uri: "test://template/7/data" })).contents).toEqual([
      {
        uri: "test://template/7/data",
        mimeType: "application/json",
        text: '{"id":"7","templateTest":true,"data":"Data for ID: 7"}',
      },
    ]);
    expect(await refusal(client.readResource({ uri: "test://missing" }))).toEqual({
      code: -32602,
      message: "Resource not found: test://missing",
      data: { uri: "test://missing" },
    });
  });

  it("completes a prompt argument; an unknown argument or prompt is -32602", async () => {
    expect(
      await client.complete({
        ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
        argument: { name: "arg1", value: "par" },
      }),
    ).toMatchObject({
      completion: { values: ["paris", "park", "party"], total: 3, hasMore: false },
    });
    expect(
      await client.complete({
        ref: { type: "ref/resource", uri: "test://template/{id}/data" },
        argument: { name: "id", value: "1" },
      }),
    ).toMatchObject({ completion: { values: [], total: 0, hasMore: false } });
    expect(
      await refusal(
        client.complete({
          ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
          argument: { name: "arg9", value: "" },
        }),
      ),
    ).toEqual({ code: -32602, message: "Unknown argument: arg9", data: undefined });
    expect(
      await refusal(
        client.complete({
          ref: { type: "ref/resource", uri: "test://nope/{id}" },
          argument: { name: "id", value: "" },
        }),
      ),
    ).toEqual({
      code: -32602,
      message: "Unknown resource template: test://nope/{id}",
      data: undefined,
    });
  });
});

describe("subscriptions", () => {
  it("2025: resources/subscribe gets notifications/resources/updated until unsubscribed", async () => {
    const client = await connect("legacy");
    try {
      const updated: string[] = [];
      client.setNotificationHandler("notifications/resources/updated", (notification) => {
        updated.push(notification.params.uri);
      });
      await client.subscribeResource({ uri: "test://watched-resource" });
      await client.subscribeResource({ uri: "test://template/1/data" });
      runtime.resourceUpdated("test://watched-resource");
      runtime.resourceUpdated("test://static-text");
      runtime.resourceUpdated("test://template/1/data");
      await expect
        .poll(() => updated)
        .toEqual(["test://watched-resource", "test://template/1/data"]);
      await client.unsubscribeResource({ uri: "test://watched-resource" });
      runtime.resourceUpdated("test://watched-resource");
      runtime.resourceUpdated("test://template/1/data");
      await expect.poll(() => updated.length).toBe(3);
      expect(updated[2]).toBe("test://template/1/data");
      expect(await refusal(client.subscribeResource({ uri: "test://missing" }))).toEqual({
        code: -32602,
        message: "Resource not found: test://missing",
        data: { uri: "test://missing" },
      });
    } finally {
      await client.close();
    }
  });

  it(`2025: a session subscribes to at most ${MAX_SUBSCRIPTIONS} URIs`, async () => {
    const client = await connect("legacy");
    try {
      for (let i = 0; i < MAX_SUBSCRIPTIONS; i++)
        await client.subscribeResource({ uri: `test://template/${i}/data` });
      expect(await refusal(client.subscribeResource({ uri: `test://template/x/data` }))).toEqual({
        code: -32600,
        message: `Too many subscriptions: at most ${MAX_SUBSCRIPTIONS} per session; unsubscribe from one first`,
        data: undefined,
      });
      // Subscribing again to a URI already subscribed to is no new subscription.
      await client.subscribeResource({ uri: "test://template/0/data" });
    } finally {
      await client.close();
    }
  });

  it("2026-07-28: subscriptions/listen streams the updates of the URIs asked for", async () => {
    const client = await connect({ pin: "2026-07-28" });
    try {
      const updated: string[] = [];
      client.setNotificationHandler("notifications/resources/updated", (notification) => {
        updated.push(notification.params.uri);
      });
      const subscription = await client.listen({
        resourceSubscriptions: ["test://watched-resource"],
      });
      expect(subscription.honoredFilter).toEqual({
        resourceSubscriptions: ["test://watched-resource"],
      });
      runtime.resourceUpdated("test://static-text");
      runtime.resourceUpdated("test://watched-resource");
      await expect.poll(() => updated).toEqual(["test://watched-resource"]);
      await subscription.close();
    } finally {
      await client.close();
    }
  });

  it("2026-07-28 over stdio: the connection's listen streams get the updates of their URIs", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines: { method?: string; params?: { uri?: string } }[] = [];
    stdout.on("data", (chunk: Buffer) =>
      lines.push(
        ...chunk
          .toString()
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { method?: string }),
      ),
    );
    const served = await serveStdio(runtime, { stdin, stdout });
    const listen = modernBody("subscriptions/listen", {
      notifications: { resourceSubscriptions: ["test://watched-resource"] },
    });
    stdin.write(`${JSON.stringify(listen)}\n`);
    await expect
      .poll(() => lines.map((line) => line.method))
      .toContain("notifications/subscriptions/acknowledged");
    runtime.resourceUpdated("test://static-text");
    runtime.resourceUpdated("test://watched-resource");
    await expect
      .poll(() =>
        lines
          .filter((line) => line.method === "notifications/resources/updated")
          .map((line) => line.params?.uri),
      )
      .toEqual(["test://watched-resource"]);
    await served.close();
  });
});
