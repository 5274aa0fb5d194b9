/**
 * Content results over both surfaces of one `zcp-serve` (default worker isolation), on the
 * conformance fixture's content tools: the official v2 client, in the 2025 era and pinned to
 * 2026-07-28, gets each tool's blocks as MCP content blocks (an image is one image block, with
 * no `structuredContent` and no `outputSchema` in the listing), and the native surface answers
 * the same blocks as `{ok:true, content}`, which the typed native client reads as such.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { connectHttp } from "@zcp/client";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import type { ToolArgs, ToolResults } from "../../../fixtures/conformance/src/zcp.gen/types.js";
import { nativeSession, Processes, type HttpServed } from "./faults/harness.js";

const CONFORMANCE = "fixtures/conformance/src/zcp.gen/index.ts";
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const IMAGE = { type: "image", data: PNG, mimeType: "image/png" };
/** Each content tool's MCP name and the blocks it answers. */
const ANSWERS: Record<string, unknown[]> = {
  test_image_content: [IMAGE],
  // A WAV file: base64 of "RIFF", its size, "WAVE".
  test_audio_content: [
    { type: "audio", data: expect.stringMatching(/^UklGRiwAAABXQVZF/), mimeType: "audio/wav" },
  ],
  test_embedded_resource: [
    {
      type: "resource",
      resource: {
        uri: "test://embedded-resource",
        mimeType: "text/plain",
        text: "This is an embedded resource content.",
      },
    },
  ],
  test_multiple_content_types: [
    { type: "text", text: "Multiple content types test:" },
    IMAGE,
    {
      type: "resource",
      resource: {
        uri: "test://mixed-content-resource",
        mimeType: "application/json",
        text: '{"test":"data","value":123}',
      },
    },
  ],
};

const processes = new Processes();
let http: HttpServed;

beforeAll(async () => {
  http = await processes.http(["--registry", CONFORMANCE]);
}, 60_000);
afterAll(() => processes.cleanup());

describe.each([
  ["2025-11-25", "legacy"],
  ["2026-07-28", { pin: "2026-07-28" }],
] as const)("the official v2 client, era %s", (_era, mode) => {
  it("gets each content tool's blocks as they are, with no structuredContent or outputSchema", async () => {
    const client = new Client(
      { name: "content-test", version: "1.0.0" },
      { versionNegotiation: { mode: mode as never } },
    );
    await client.connect(new StreamableHTTPClientTransport(http.mcp));
    try {
      const { tools } = await client.listTools();
      for (const [name, blocks] of Object.entries(ANSWERS)) {
        const entry = tools.find((tool) => tool.name === name)!;
        expect(entry.outputSchema).toBeUndefined();
        const result = await client.callTool({ name, arguments: {} });
        expect(result.content).toEqual(blocks);
        expect(result.structuredContent).toBeUndefined();
        expect(result.isError).toBeUndefined();
      }
    } finally {
      await client.close();
    }
  });
});

describe("the native surface", () => {
  it("answers a content tool's blocks as {ok:true, content}, raw and through the typed client", async () => {
    const session = await nativeSession(http.native);
    for (const [name, blocks] of Object.entries(ANSWERS)) {
      const answer = await session.send({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name, arguments: {} },
      });
      expect(JSON.parse(answer.text)).toEqual({
        jsonrpc: "2.0",
        id: 1,
        result: { ok: true, content: blocks },
      });
    }
    const client = connectHttp<ToolArgs, ToolResults>(http.native);
    try {
      await client.initialize();
      const result = await client.call("test.multiple_content_types", {});
      expect(result).toEqual({ ok: true, content: ANSWERS.test_multiple_content_types });
      // The generated result type of a content tool is `never`: it answers content, never a value.
      if (result.ok && "value" in result) expectTypeOf(result.value).toEqualTypeOf<never>();
    } finally {
      await client.close();
    }
  });
});
