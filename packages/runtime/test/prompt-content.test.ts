import { describe, expect, it } from "vitest";
import { Features, type PromptContext } from "../src/index.js";
import type { GeneratedFeatures } from "../src/codegen/index.js";

const PNG = "iVBORw0KGgo=";

/** A runtime's features with one prompt, `shaped`, that returns `value`; what it reports is kept. */
function prompting(value: unknown) {
  const reported: string[] = [];
  const generated: GeneratedFeatures = {
    prompts: [
      {
        definition: {
          name: "shaped",
          title: null,
          description: "A prompt whose return is the test's.",
          arguments: [],
          source: { file: "src/prompts.ts", export: "shaped" },
        },
        validate: (args) => ({ ok: true, value: args }),
        get: () => value,
        complete: {},
      },
    ],
    resources: [],
    templates: [],
  };
  const features = new Features(
    generated,
    (error) => reported.push(String(error)),
    1_000,
    {} as PromptContext,
  );
  return { features, reported };
}

describe("a prompt's messages are checked as a tool's content blocks are", () => {
  it("copies each block's own fields", async () => {
    const { features } = prompting([
      { role: "user", content: { type: "image", data: PNG, mimeType: "image/png", extra: 1 } },
      {
        role: "assistant",
        content: {
          type: "resource",
          resource: { uri: "test://a", mimeType: "text/plain", text: "a" },
        },
      },
    ]);
    expect(await features.getPrompt("shaped")).toEqual({
      ok: true,
      value: [
        { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
        {
          role: "assistant",
          content: {
            type: "resource",
            resource: { uri: "test://a", mimeType: "text/plain", text: "a" },
          },
        },
      ],
    });
  });

  it.each([
    [
      { type: "image", data: "not base64!", mimeType: "image/png" },
      "message 0: data is not base64",
    ],
    [
      { type: "audio", data: PNG, mimeType: "image/png" },
      'message 0: mimeType "image/png" is not an audio type',
    ],
    [
      { type: "resource", resource: { uri: "no uri", text: "a" } },
      'message 0: uri "no uri" is not a URI (scheme:rest, no spaces)',
    ],
    [
      { type: "resource_link", uri: "test://a", name: "a" },
      "message 0: content type is not text, image, audio or resource",
    ],
    [{ type: "text" }, "message 0: text must be a string"],
  ])("refuses %j: %s", async (content, why) => {
    const { features, reported } = prompting([{ role: "user", content }]);
    const outcome = await features.getPrompt("shaped");
    expect(outcome.ok).toBe(false);
    expect(reported.join("\n")).toContain(why);
  });
});
