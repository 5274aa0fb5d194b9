/**
 * Content results (issue 30, item 1): a tool whose return type is one of the runtime's content
 * types (`Text`, `Image`, `Audio`, `EmbeddedResource`, `ResourceLink`) or an array of them gets
 * the kind in its definition, no output schema and the `scalar` mode; its MCP entry has no
 * `outputSchema`, its API text and generated result type say what a caller gets. Content
 * anywhere else, mixed with JSON values, or with `@output handle`/`auto` is refused.
 */
import fs from "node:fs";
import path from "node:path";
import { artifactSet, type Registry, type ToolDefinition } from "@zcp/runtime";
import { renderApi } from "@zcp/runtime/definition";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type CliResult,
  errorLines,
  generatedRegistry,
  runZcpAsync,
  STRICT_TSCONFIG,
  strictTsc,
  temporaryProjects,
} from "./helpers.js";

const IMPORTS = `import {
  content, image, resourceLink, text, audio, embeddedResource,
  type Audio, type Content, type EmbeddedResource, type Image, type ResourceLink, type Text,
} from "@zcp/runtime";
`;

/** One tool per kind, and the forms a content result may take (a promise, a readonly array). */
const TOOLS = `${IMPORTS}
/** Say hello. @tool c.text */
export function sayText(): Text { return text("hello"); }

/** Draw. @tool c.image */
export async function draw(): Promise<Image> { return image(new Uint8Array([1]), "image/png"); }

/** Play. @tool c.audio */
export function play(): Audio { return audio("AQ==", "audio/wav"); }

/** Embed. @tool c.resource */
export function embed(): EmbeddedResource { return embeddedResource({ uri: "a:b", text: "x" }); }

/** Link. @tool c.link */
export function link(): ResourceLink { return resourceLink({ uri: "a:b", name: "b" }); }

/** Mix. @tool c.mixed */
export function mix(): Content[] { return content("a", image("AQ==", "image/png")); }

/** Two of a kind. @tool c.pair */
export function pair(): readonly Image[] { return [image("AQ==", "image/png")]; }

/** Fixed. @tool c.tuple @output scalar */
export function tuple(): [Text, Image] { return [text("a"), image("AQ==", "image/png")]; }

/** A JSON value. @tool c.json @output scalar */
export function json(): { a: number } { return { a: 1 }; }
`;

/** Content where it cannot be: each tool is refused with its diagnostic. */
const REFUSED = `${IMPORTS}
/** Either. @tool r.either */
export function either(): Image | Audio { return image("AQ==", "image/png"); }

/** Maybe. @tool r.maybe */
export function maybe(): Image | string { return "no"; }

/** Mixed items. @tool r.items */
export function items(): (Image | string)[] { return []; }

/** Nested. @tool r.nested */
export function nested(): { picture: Image } { return { picture: image("AQ==", "image/png") }; }

/** Taken. @tool r.param */
export function param(picture: Image): string { return picture.mimeType; }

/** Kept. @tool r.handle @output handle */
export function kept(): Image { return image("AQ==", "image/png"); }

/** Maybe kept. @tool r.auto @output auto */
export function maybeKept(): Content[] { return []; }
`;

const { scratch } = temporaryProjects();
let dir: string;
let gen: CliResult;
let registry: Registry;
let refused: CliResult;

beforeAll(async () => {
  dir = scratch({
    "zcp.config.json": "{}",
    "tsconfig.json": STRICT_TSCONFIG,
    "src/tools.ts": TOOLS,
  });
  const bad = scratch({
    "zcp.config.json": "{}",
    "tsconfig.json": STRICT_TSCONFIG,
    "src/tools.ts": REFUSED,
  });
  [gen, refused] = await Promise.all([runZcpAsync(dir, ["gen"]), runZcpAsync(bad, ["gen"])]);
  registry = generatedRegistry(path.join(dir, "src/zcp.gen"));
});

const tool = (alias: string): ToolDefinition =>
  registry.tools.find((candidate) => candidate.alias === alias)!;

describe("a content return type", () => {
  it("is recorded as the tool's content kind, with no output schema, always inline", () => {
    expect(gen.stderr).toBe("");
    expect(gen.status).toBe(0);
    const kinds = Object.fromEntries(registry.tools.map((t) => [t.alias, t.content ?? null]));
    expect(kinds).toEqual({
      "c.audio": "audio",
      "c.image": "image",
      "c.json": null,
      "c.link": "resource_link",
      "c.mixed": "content",
      "c.pair": "content",
      "c.resource": "resource",
      "c.text": "text",
      "c.tuple": "content",
    });
    for (const t of registry.tools.filter((t) => t.content !== undefined))
      expect([t.outputSchema, t.outputMode, t.handleKind]).toEqual([null, "scalar", "generic"]);
    // A JSON-valued tool's definition has no `content` key: its hash is what it was before.
    expect(Object.keys(tool("c.json"))).not.toContain("content");
  });

  it("writes the golden definition of an image tool", () => {
    const { hash, ...definition } = tool("c.image");
    expect(hash).toMatch(/^[0-9a-f]{12}$/);
    expect(definition).toEqual({
      id: definition.id,
      alias: "c.image",
      name: "c_image",
      title: null,
      descriptionShort: "Draw.",
      description: "Draw.",
      inputSchema: { type: "object", properties: {}, required: [], additionalProperties: false },
      outputSchema: null,
      content: "image",
      outputMode: "scalar",
      handleKind: "generic",
      handleParams: {},
      defaults: {},
      flags: [],
      groups: [],
      stages: [],
      scopes: [],
      deprecated: null,
      call: { kind: "positional", params: [], context: null },
      dates: [],
      source: { file: "src/tools.ts", export: "draw" },
      planner: `TOOL @${definition.id} c.image() -> scalar -- "Draw."`,
      plannerBare: `TOOL @${definition.id} c.image() -> scalar`,
    });
  });

  it("lists no outputSchema on MCP, and says ContentBlock[] in the API text and never in ToolResults", () => {
    const mcp = artifactSet(registry, "mcp");
    expect(mcp[tool("c.mixed").id]).not.toHaveProperty("outputSchema");
    expect(mcp[tool("c.json").id]).toHaveProperty("outputSchema");
    const api = renderApi([tool("c.image"), tool("c.json")]);
    expect(api.types[0]).toBe(
      "/** An MCP content block: text, an image or audio (base64 data), a resource or a link. */\n" +
        'interface ContentBlock { type: "text" | "image" | "audio" | "resource" | "resource_link"; [field: string]: unknown }\n',
    );
    expect(api.tools.get("c.image")).toBe(
      "    /** Draw. */\n    image(args?: {}): Promise<ContentBlock[]>;",
    );
    const types = fs.readFileSync(path.join(dir, "src/zcp.gen/types.ts"), "utf8");
    expect(types).toContain('  "c.image": never;\n');
    expect(types).toContain('  "c.json": CJsonResult;\n');
  });

  it("type-checks with the generated files under strict settings", () => {
    const out = path.join(dir, "src/zcp.gen");
    const files = [
      path.join(dir, "src/tools.ts"),
      ...fs.readdirSync(out).map((f) => path.join(out, f)),
    ];
    const result = strictTsc(
      files.filter((file) => file.endsWith(".ts")),
      "nodenext",
    );
    expect(result.errors).toEqual([]);
  });
});

describe("content where a result cannot be content", () => {
  it("is refused, each tool with its diagnostic", () => {
    expect(errorLines(refused)).toEqual([
      'error ZCP1209: return type "Image | Audio" is one of several content types (return an array: Content[])',
      'error ZCP1209: return type "Image | string" is a content type in a union with other values (return one content type, or Content[])',
      'error ZCP1209: return type "(Image | string)[]" is an array that mixes content blocks and JSON values (make each item a block: text(…))',
      "error ZCP1209: content types (Image, Audio, EmbeddedResource, ResourceLink, Text) are only a tool's return type, or the items of the array it returns",
      "error ZCP1209: content types (Image, Audio, EmbeddedResource, ResourceLink, Text) are only a tool's return type, or the items of the array it returns",
      "error ZCP1210: @output handle: the tool returns content (image), which always goes out inline (an image a handle hid would never reach the model); remove the tag",
      "error ZCP1210: @output auto: the tool returns content (content), which always goes out inline (an image a handle hid would never reach the model); remove the tag",
    ]);
    expect(refused.status).toBe(1);
  });
});
