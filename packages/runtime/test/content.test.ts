/**
 * Content results through the public API: the helpers a tool author builds blocks with (and
 * every argument they refuse), and the call pipeline on the conformance fixture's content tools,
 * which answers `{ok:true, content}` for the kind the definition records, refuses a value that
 * is not that kind, bounds it, and never makes it a handle.
 */
import { describe, expect, it } from "vitest";
import conformance from "../../../fixtures/conformance/src/zcp.gen/index.js";
import {
  audio,
  content,
  ContentError,
  createRuntime,
  embeddedResource,
  encodeResult,
  formatReturn,
  image,
  MAX_MEDIA_BYTES,
  resourceLink,
  text,
  type GeneratedModule,
  type RuntimeOptions,
  type ToolDefinition,
} from "../src/index.js";

const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
const PNG = "iVBORw==";

describe("the content helpers", () => {
  it("make MCP's blocks, bytes as base64, and nothing more", () => {
    expect(text("hi")).toEqual({ type: "text", text: "hi" });
    expect(image(PNG_BYTES, "image/png")).toEqual({
      type: "image",
      data: PNG,
      mimeType: "image/png",
    });
    expect(image(PNG, "image/svg+xml")).toEqual({
      type: "image",
      data: PNG,
      mimeType: "image/svg+xml",
    });
    // A view into a larger buffer encodes only its own bytes.
    const view = new Uint8Array([0, ...PNG_BYTES, 0]).subarray(1, 5);
    expect(audio(view, "audio/wav")).toEqual({ type: "audio", data: PNG, mimeType: "audio/wav" });
    expect(embeddedResource({ uri: "file:///a.txt", text: "a" })).toEqual({
      type: "resource",
      resource: { uri: "file:///a.txt", text: "a" },
    });
    expect(
      embeddedResource({ uri: "file:///a.png", mimeType: "image/png", blob: PNG_BYTES }),
    ).toEqual({
      type: "resource",
      resource: { uri: "file:///a.png", mimeType: "image/png", blob: PNG },
    });
    expect(
      resourceLink({
        uri: "file:///a.txt",
        name: "a.txt",
        mimeType: "text/plain; charset=utf-8",
        size: 1,
      }),
    ).toEqual({
      type: "resource_link",
      uri: "file:///a.txt",
      name: "a.txt",
      mimeType: "text/plain; charset=utf-8",
      size: 1,
    });
    expect(content("a", image(PNG, "image/png"))).toEqual([
      { type: "text", text: "a" },
      { type: "image", data: PNG, mimeType: "image/png" },
    ]);
  });

  it.each([
    [() => image(PNG, "text/plain"), 'image: mimeType "text/plain" is not an image type'],
    [() => audio(PNG, "image/png"), 'audio: mimeType "image/png" is not an audio type'],
    [() => image(PNG, "png"), 'image: mimeType "png" is not a media type (type/subtype)'],
    [() => image("not base64!", "image/png"), "image: data is not base64"],
    [() => image("iVBORw=", "image/png"), "image: data is not base64"],
    [
      () => image(new Uint8Array(MAX_MEDIA_BYTES + 1), "image/png"),
      `image: ${MAX_MEDIA_BYTES + 1} bytes; at most ${MAX_MEDIA_BYTES}`,
    ],
    [
      () => embeddedResource({ uri: "no scheme", text: "a" }),
      'resource: uri "no scheme" is not a URI (scheme:rest, no spaces)',
    ],
    [
      () => embeddedResource({ uri: "a:b", text: "a", blob: PNG } as never),
      "resource: a resource has a text or a blob, one of them",
    ],
    [
      () => resourceLink({ uri: "a:b", name: "b", size: -1 }),
      "resource_link: size must be a whole number of bytes",
    ],
    [() => resourceLink({ uri: "a:b", name: 3 } as never), "resource_link: name must be a string"],
    [
      () => resourceLink({ uri: `a:${"b".repeat(8192)}`, name: "b" }),
      "resource_link: uri has 8194 characters; at most 8192",
    ],
  ])("refuse a bad argument (%#) with a ContentError", (make, message) => {
    expect(make).toThrow(new ContentError(message));
    expect(make).toThrow(ContentError);
  });
});

const idOf = (alias: string) => conformance.registry.tools.find((tool) => tool.alias === alias)!.id;

/** The conformance module with one tool's function (and, optionally, its definition) replaced. */
function withTool(
  alias: string,
  fn: () => unknown,
  change: Partial<ToolDefinition> = {},
): GeneratedModule {
  const id = idOf(alias);
  const tools = conformance.registry.tools.map((tool) =>
    tool.id === id ? { ...tool, ...change } : tool,
  );
  return {
    ...conformance,
    registry: { ...conformance.registry, tools },
    dispatch: { ...conformance.dispatch, [id]: fn },
  };
}

async function call(generated: GeneratedModule, alias: string, options: RuntimeOptions = {}) {
  const reported: unknown[] = [];
  const runtime = createRuntime(generated, {
    onToolError: (error) => reported.push(error),
    ...options,
  });
  return { result: await runtime.session().call(alias, {}), reported };
}

describe("a content tool's call", () => {
  it("answers its blocks as content, not as a value", async () => {
    const { result } = await call(conformance, "test.embedded_resource");
    expect(result).toEqual({
      ok: true,
      content: [
        {
          type: "resource",
          resource: {
            uri: "test://embedded-resource",
            mimeType: "text/plain",
            text: "This is an embedded resource content.",
          },
        },
      ],
    });
    expect(encodeResult(result)).toBe(
      '{"ok":true,"content":[{"type":"resource","resource":{"uri":"test://embedded-resource","mimeType":"text/plain","text":"This is an embedded resource content."}}]}',
    );
    expect(formatReturn("c1", result)).toBe(
      'RET c1 [{"type":"resource","resource":{"uri":"test://embedded-resource","mimeType":"text/plain","text":"This is an embedded resource content."}}]',
    );
  });

  it("copies only the fields of each block", async () => {
    const generated = withTool("test.image_content", () => ({
      type: "image",
      data: PNG,
      mimeType: "image/png",
      secret: "kept on the server",
    }));
    expect((await call(generated, "test.image_content")).result).toEqual({
      ok: true,
      content: [{ type: "image", data: PNG, mimeType: "image/png" }],
    });
  });

  it.each([
    [
      "test.image_content",
      () => ({ type: "audio", data: PNG, mimeType: "audio/wav" }),
      'image: expected a block of type "image"',
    ],
    ["test.image_content", () => "a string", "image: expected a content block"],
    [
      "test.image_content",
      () => ({ type: "image", data: "%%%%", mimeType: "image/png" }),
      "image: data is not base64",
    ],
    [
      "test.multiple_content_types",
      () => ({ type: "text", text: "a" }),
      "content: expected an array of blocks",
    ],
    [
      "test.multiple_content_types",
      () => [
        { type: "text", text: "a" },
        { type: "video", data: PNG },
      ],
      'content[1]: unknown block type "video"',
    ],
    [
      "test.multiple_content_types",
      () => Array.from({ length: 1025 }, () => ({ type: "text", text: "" })),
      "content: 1025 blocks; at most 1024",
    ],
  ])(
    "of %s refuses a value that is not its kind (%#): exec:error, reported",
    async (alias, fn, why) => {
      const { result, reported } = await call(withTool(alias, fn), alias);
      expect(result).toEqual({
        ok: false,
        error: "exec:error",
        hint: `the tool's content is not valid: ${why}`,
      });
      expect(reported).toEqual([new ContentError(why)]);
    },
  );

  it("is held to maxResultBytes like any result", async () => {
    const { result } = await call(conformance, "test.image_content", { maxResultBytes: 64 });
    expect(result).toEqual({
      ok: false,
      error: "exec:too_large",
      hint: "the result is 145 bytes; at most 64",
    });
  });

  it("is never a handle, whatever the definition's output mode", async () => {
    const generated = withTool("test.image_content", () => image(PNG, "image/png"), {
      outputMode: "handle",
    });
    const { result } = await call(generated, "test.image_content", { maxResultTokens: 1 });
    expect(result).toEqual({
      ok: true,
      content: [{ type: "image", data: PNG, mimeType: "image/png" }],
    });
  });
});
