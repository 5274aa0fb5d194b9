/**
 * `@prompt` and `@resource` functions through the real `zcp gen` on a scratch project: the
 * generated `features.ts` passes the strictest tsc settings, the generated module serves the
 * prompts, resources and templates through `createRuntime` (validators' exact errors, completion
 * from literal types and from an author's function, bounded), and every misdeclaration is a
 * diagnostic that names it.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRuntime, MAX_COMPLETIONS, promptContext, type Runtime } from "@zcp/runtime";
import type { GeneratedModule } from "@zcp/runtime/codegen";
import { beforeAll, describe, expect, it } from "vitest";
import { runZcp, strictTsc, STRICT_TSCONFIG, temporaryProjects } from "./helpers.js";

const { scratch } = temporaryProjects();

const CONFIG = JSON.stringify({ include: ["src/**/*.ts"], outDir: "src/zcp.gen" });

const SOURCES = {
  "tsconfig.json": STRICT_TSCONFIG,
  "zcp.config.json": CONFIG,
  "src/tools.ts": `/** Echo. @tool t.echo */\nexport function echo(text: string): string {\n  return text;\n}\n`,
  "src/prompts.ts": `import type { PromptMessage } from "@zcp/runtime";

export enum Tone {
  Formal = "formal",
  Casual = "casual",
}

/**
 * Review a piece of code.
 *
 * @prompt code_review
 * @title Code review
 * @param code The code to review
 * @param language Its language
 * @param tone How to say it
 * @complete language languages
 */
export function review(code: string, language: string, tone?: Tone): PromptMessage[] {
  return [
    { role: "user", content: { type: "text", text: \`Review this \${language} (\${tone ?? "plain"}):\` } },
    { role: "user", content: { type: "resource", resource: { uri: "file:///code", text: code } } },
  ];
}

/** Every language there is, and more. */
export function languages(value: string): string[] {
  const all = Array.from({ length: 150 }, (_, i) => \`lang\${i}\`);
  return ["typescript", "python", ...all].filter((name) => name.startsWith(value));
}

/** Greet in a size. @prompt */
export const greetSomeone = (size: "small" | "large" = "small"): string => \`Hello, \${size} world\`;

/** Throws. @prompt broken */
export function broken(): string {
  throw new Error("secret detail");
}

/** Never answers. @prompt hangs */
export function hangs(): Promise<string> {
  return new Promise(() => undefined);
}

/** Returns no messages. @prompt shapeless */
export function shapeless(): string {
  return 42 as unknown as string;
}
`,
  "src/asking.ts": `import type { PromptContext } from "@zcp/runtime";

/** Greets by a name it asks for. @prompt ask_name */
export async function askName(greeting: string, ctx: PromptContext): Promise<string> {
  const answer = await ctx.elicit("Your name?", {
    properties: { name: { type: "string" } },
    required: ["name"],
  });
  return answer.action === "accept" ? \`\${greeting}, \${answer.content.name}\` : greeting;
}
`,
  "src/resources.ts": `/**
 * The notes.
 *
 * @resource notes://all
 */
export function notes(): string {
  return "all notes";
}

/**
 * Some bytes.
 *
 * @resource blob://one
 */
export async function bytes(): Promise<Uint8Array> {
  return new Uint8Array([1, 2, 3]);
}

/**
 * A note by folder and id.
 *
 * @resource notes://{folder}/{id}
 * @param folder The folder
 * @complete id noteIds
 */
export function note(folder: "inbox" | "archive", id: string): { folder: string; id: string } {
  return { folder, id };
}

export function noteIds(value: string, args: { readonly [name: string]: string | undefined }): string[] {
  return [\`\${args.folder ?? "none"}-1\`, \`\${value}-2\`];
}
`,
};

describe("prompts and resources from annotated TypeScript", () => {
  let dir: string;
  let runtime: Runtime;
  let errors: unknown[];

  beforeAll(async () => {
    dir = scratch(SOURCES);
    const gen = runZcp(dir, ["gen"]);
    expect([gen.status, gen.stderr]).toEqual([0, ""]);
    const generated = (await import(
      pathToFileURL(path.join(dir, "src/zcp.gen/index.ts")).href
    )) as {
      generated: GeneratedModule;
    };
    errors = [];
    runtime = createRuntime(generated.generated, {
      onFeatureError: (error) => errors.push(error),
    });
  });

  it("writes features.ts, which passes the strictest tsc settings (the sources need not)", () => {
    const files = ["index.ts", "features.ts", "dispatch.ts"].map((file) =>
      path.join(dir, "src/zcp.gen", file),
    );
    for (const settings of ["nodenext", "bundler"] as const)
      expect(
        strictTsc(files, settings).errors.filter((error) => error.includes("zcp.gen")),
      ).toEqual([]);
  });

  it("lists prompts, resources and templates with what their JSDoc and types say", () => {
    expect(runtime.features.prompts.map((p) => [p.name, p.title, p.arguments])).toEqual([
      [
        "ask_name",
        null,
        [{ name: "greeting", description: null, required: true, values: null, completer: false }],
      ],
      ["broken", null, []],
      [
        "code_review",
        "Code review",
        [
          {
            name: "code",
            description: "The code to review",
            required: true,
            values: null,
            completer: false,
          },
          {
            name: "language",
            description: "Its language",
            required: true,
            values: null,
            completer: true,
          },
          {
            name: "tone",
            description: "How to say it",
            required: false,
            values: ["formal", "casual"],
            completer: false,
          },
        ],
      ],
      [
        "greet_someone",
        null,
        [
          {
            name: "size",
            description: null,
            required: false,
            values: ["small", "large"],
            completer: false,
          },
        ],
      ],
      ["hangs", null, []],
      ["shapeless", null, []],
    ]);
    expect(runtime.features.resources.map((r) => [r.uri, r.name, r.mimeType])).toEqual([
      ["blob://one", "bytes", "application/octet-stream"],
      ["notes://all", "notes", "text/plain"],
    ]);
    expect(
      runtime.features.templates.map((t) => [
        t.uriTemplate,
        t.mimeType,
        t.variables.map((v) => v.name),
      ]),
    ).toEqual([["notes://{folder}/{id}", "application/json", ["folder", "id"]]]);
  });

  it("passes a prompt's trailing PromptContext, which asks through the surface's input", async () => {
    const asked: unknown[] = [];
    const context = promptContext(
      {
        offers: { elicitation: true, sampling: false, roots: false },
        ask: (key, request) => {
          asked.push([key, request]);
          return Promise.resolve({ action: "accept", content: { name: "Ada", extra: 1 } });
        },
      },
      new AbortController().signal,
    );
    expect(await runtime.features.getPrompt("ask_name", { greeting: "Hi" }, { context })).toEqual({
      ok: true,
      value: [{ role: "user", content: { type: "text", text: "Hi, Ada" } }],
    });
    expect(asked).toEqual([
      [
        "elicit-1",
        {
          method: "elicitation/create",
          params: {
            message: "Your name?",
            requestedSchema: {
              type: "object",
              properties: { name: { type: "string" } },
              required: ["name"],
            },
          },
        },
      ],
    ]);
    // Without a client, the question refuses: what the surface does not expect is reported.
    expect(await runtime.features.getPrompt("ask_name", { greeting: "Hi" })).toEqual({
      ok: false,
      error: "failed",
      message: "The prompt ask_name failed (details in the server's log)",
    });
    expect(errors.splice(0)).toEqual([
      expect.objectContaining({ code: "unsupported:elicitation" }),
    ]);
  });

  it("gets a prompt, checking its arguments with the generated validator", async () => {
    expect(
      await runtime.features.getPrompt("code_review", {
        code: "x",
        language: "ts",
        tone: "formal",
      }),
    ).toEqual({
      ok: true,
      value: [
        { role: "user", content: { type: "text", text: "Review this ts (formal):" } },
        {
          role: "user",
          content: { type: "resource", resource: { uri: "file:///code", text: "x" } },
        },
      ],
    });
    expect(await runtime.features.getPrompt("greet_someone")).toEqual({
      ok: true,
      value: [{ role: "user", content: { type: "text", text: "Hello, small world" } }],
    });
    const refused = await Promise.all([
      runtime.features.getPrompt("code_review", { code: "x" }),
      runtime.features.getPrompt("code_review", { code: "x", language: "ts", tone: "rude" }),
      runtime.features.getPrompt("code_review", { code: 1, language: "ts" }),
      runtime.features.getPrompt("code_review", { code: "x", language: "ts", extra: "y" }),
      runtime.features.getPrompt("nope", {}),
    ]);
    expect(refused).toEqual([
      { ok: false, error: "invalid", message: "missing:$.language (expected string)" },
      { ok: false, error: "invalid", message: "invalid:$.tone (expected one of: formal, casual)" },
      { ok: false, error: "invalid", message: "invalid:$.code (expected string)" },
      {
        ok: false,
        error: "invalid",
        message: "invalid:$.extra (unknown property; expected: code, language, tone)",
      },
      { ok: false, error: "not_found", message: "Unknown prompt: nope" },
    ]);
  });

  it("answers an author's throw or a value of the wrong shape as failed, with no detail", async () => {
    errors.length = 0;
    expect(await runtime.features.getPrompt("broken")).toEqual({
      ok: false,
      error: "failed",
      message: "The prompt broken failed (details in the server's log)",
    });
    expect(await runtime.features.getPrompt("shapeless")).toEqual({
      ok: false,
      error: "failed",
      message: "The prompt shapeless returned not a string or an array of messages",
    });
    expect(errors.map((error) => (error as Error).message)).toEqual([
      "secret detail",
      "prompt shapeless returned not a string or an array of messages",
    ]);
  });

  it("answers an author's function that does not settle in time as failed", async () => {
    const generated = (await import(
      pathToFileURL(path.join(dir, "src/zcp.gen/index.ts")).href
    )) as {
      generated: GeneratedModule;
    };
    const seen: unknown[] = [];
    const hurried = createRuntime(generated.generated, {
      timeoutMs: 50,
      onFeatureError: (error) => seen.push(error),
    });
    expect(await hurried.features.getPrompt("hangs")).toEqual({
      ok: false,
      error: "failed",
      message: "The prompt hangs did not answer in time",
    });
    expect(seen.map((error) => (error as Error).message)).toEqual([
      "prompt hangs did not answer within 50 ms",
    ]);
  });

  it("reads static resources and templates, validating a template's variables", async () => {
    expect(await runtime.features.read("notes://all")).toEqual({
      ok: true,
      value: { uri: "notes://all", mimeType: "text/plain", text: "all notes" },
    });
    expect(await runtime.features.read("blob://one")).toEqual({
      ok: true,
      value: { uri: "blob://one", mimeType: "application/octet-stream", blob: "AQID" },
    });
    expect(await runtime.features.read("notes://inbox/a%2Fb")).toEqual({
      ok: true,
      value: {
        uri: "notes://inbox/a%2Fb",
        mimeType: "application/json",
        text: '{"folder":"inbox","id":"a/b"}',
      },
    });
    expect(await runtime.features.read("notes://trash/1")).toEqual({
      ok: false,
      error: "invalid",
      message: "invalid:$.folder (expected one of: inbox, archive)",
    });
    for (const uri of [
      "notes://inbox",
      "notes://inbox/1/2",
      "notes://inbox/%E0",
      `notes://inbox/${"x".repeat(5000)}`,
    ])
      expect(await runtime.features.read(uri)).toEqual({
        ok: false,
        error: "not_found",
        message: `Resource not found: ${uri}`,
      });
  });

  it("completes from a literal type, and from an author's function, at most 100 values", async () => {
    const features = runtime.features;
    expect(await features.complete({ type: "prompt", name: "code_review" }, "tone", "f")).toEqual({
      ok: true,
      value: { values: ["formal"], total: 1, hasMore: false },
    });
    const many = await features.complete({ type: "prompt", name: "code_review" }, "language", "");
    expect(many.ok && [many.value.values.length, many.value.total, many.value.hasMore]).toEqual([
      MAX_COMPLETIONS,
      152,
      true,
    ]);
    expect(await features.complete({ type: "prompt", name: "code_review" }, "code", "x")).toEqual({
      ok: true,
      value: { values: [], total: 0, hasMore: false },
    });
    expect(
      await features.complete(
        { type: "template", uriTemplate: "notes://{folder}/{id}" },
        "id",
        "n",
        { folder: "inbox" },
      ),
    ).toEqual({ ok: true, value: { values: ["inbox-1", "n-2"], total: 2, hasMore: false } });
    expect(
      await features.complete(
        { type: "template", uriTemplate: "notes://{folder}/{id}" },
        "folder",
        "a",
      ),
    ).toEqual({
      ok: true,
      value: { values: ["archive"], total: 1, hasMore: false },
    });
    expect([
      await features.complete({ type: "prompt", name: "nope" }, "x", ""),
      await features.complete({ type: "template", uriTemplate: "x://{y}" }, "y", ""),
      await features.complete({ type: "prompt", name: "code_review" }, "nope", ""),
    ]).toEqual([
      { ok: false, error: "not_found", message: "Unknown prompt: nope" },
      { ok: false, error: "not_found", message: "Unknown resource template: x://{y}" },
      { ok: false, error: "not_found", message: "Unknown argument: nope" },
    ]);
  });

  it("tells subscribers of updates until they stop", () => {
    const seen: string[] = [];
    const stop = runtime.features.onUpdated((uri) => seen.push(uri));
    runtime.resourceUpdated("notes://all");
    stop();
    runtime.resourceUpdated("notes://all");
    expect(seen).toEqual(["notes://all"]);
    expect([
      runtime.features.has("notes://all"),
      runtime.features.has("notes://inbox/1"),
      runtime.features.has("x://"),
    ]).toEqual([true, true, false]);
  });
});

describe("misdeclared prompts and resources", () => {
  it("are diagnostics that name what is wrong, and are left out", () => {
    const dir = scratch({
      "tsconfig.json": STRICT_TSCONFIG,
      "zcp.config.json": CONFIG,
      "src/bad.ts": `import type { PromptContext } from "@zcp/runtime";

/** A number. @prompt counted */
export function counted(n: number): string {
  return String(n);
}

/** Twice. @prompt same */
export function one(): string {
  return "1";
}

/** Twice. @prompt same */
export function two(): string {
  return "2";
}

/** Not a template. @resource x://{a}{b} */
export function adjacent(a: string, b: string): string {
  return a + b;
}

/** Variables. @resource x://{a} */
export function mismatch(b: string): string {
  return b;
}

/** Completes. @prompt completes @complete q missing */
export function completes(q: string): string {
  return q;
}

/** A number. @prompt numeric */
export async function numeric(): Promise<number> {
  return 1;
}

/** Context first. @prompt early */
export function early(ctx: PromptContext, q: string): string {
  return q + String(ctx.clientOffers.roots);
}

/** A resource takes no context. @resource x://ctx */
export function withContext(ctx: PromptContext): string {
  return String(ctx.clientOffers.roots);
}

/** Hidden. @prompt hidden */
function hidden(): string {
  return "";
}
export const unused = hidden;
`,
    });
    const gen = runZcp(dir, ["gen"]);
    expect(gen.status).toBe(1);
    expect(
      gen.stderr
        .split("\n")
        .filter((line) => line.includes(" ZCP"))
        .map((line) => line.replace(/^.*?(error|warning) /, "$1 ")),
    ).toEqual([
      'error ZCP1801: parameter "n" is not a string or a union of string literals (MCP prompt arguments are strings)',
      'error ZCP1802: 2 prompts are named "same": one, two',
      'error ZCP1802: 2 prompts are named "same": one, two',
      'error ZCP1801: @resource: "x://{a}{b}" is not a URI or an RFC 6570 level-1 URI template',
      'error ZCP1801: parameter "b" is no variable of the URI template x://{a}',
      'error ZCP1801: the URI template\'s variable "a" is no parameter of mismatch',
      'error ZCP1801: @complete: "missing" is not a function this file exports',
      "error ZCP1801: prompt numeric must return a string or PromptMessage[] (or a promise of one)",
      "error ZCP1801: a PromptContext is the last parameter of a prompt, and only of a prompt",
      "error ZCP1801: a PromptContext is the last parameter of a prompt, and only of a prompt",
      'error ZCP1102: @prompt function "hidden" is not exported',
    ]);
    expect(fs.existsSync(path.join(dir, "src/zcp.gen/features.ts"))).toBe(false);
  });
});
