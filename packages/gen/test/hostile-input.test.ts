/**
 * Hostile input (issue 27, item 1 and the `__proto__` part of item 10). An upstream listing: a
 * `$defs` key that is code never becomes code, a pattern that is not a `u` regular expression
 * leaves its tool out with a diagnostic naming the tool and the schema path (ZCP1710), a schema
 * that does not compile likewise (ZCP1711). A declared `"__proto__"` property, from a listing or
 * a TypeScript type, is kept as an own property, in the definition and in the validator; so is
 * a tool id `__proto__` in the generated tables, and an export name that is a string is
 * dispatched as one.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { GeneratedModule } from "@zcp/runtime/codegen";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { Generator } from "../src/pipeline.js";
import type { Listing } from "../src/upstream/list.js";
import type { UpstreamTool } from "../src/upstream/tool.js";
import {
  type GatewayOutput,
  gatewayOutput,
  importGenerated,
  PAYLOADS,
  importTypeScript,
  scratchWithServer,
  SENTINEL,
  sentinelIsUnset,
} from "./generated-modules.js";
import { runZcp, scratchProject, STRICT_TSCONFIG } from "./helpers.js";
import { writeFakeUpstream } from "./upstream-fake.js";

const project = scratchWithServer();
afterAll(() => {
  Reflect.deleteProperty(globalThis, SENTINEL);
});

/** The exact `$defs` key of the issue, with a `$ref` to it. */
const ISSUE_KEY = "a(value,path){} globalThis.x=1; function b";

function listing(...tools: UpstreamTool[]): Listing {
  return { serverName: "evil", tools };
}

/** The errors of a run, as `zcp gen` prints them (without the place: always the config's line 1). */
function errors(out: GatewayOutput): string[] {
  return out.diagnostics
    .filter((d) => d.severity === "error")
    .map((d) => `${d.severity} ${d.code}: ${d.message}`);
}

function file(files: readonly { path: string; content: string }[], name: string): string {
  return files.find((f) => f.path === name)!.content;
}

describe("item 1: upstream strings reach generated code only as literals", () => {
  it("the issue's $defs key: a function name of its own, nothing runs on import, the validator still works", async () => {
    const out = gatewayOutput(
      listing({
        name: "t",
        description: "Takes an x.",
        inputSchema: {
          type: "object",
          properties: { x: { $ref: `#/$defs/${ISSUE_KEY}` } },
          $defs: { [ISSUE_KEY]: { type: "object", properties: { y: { type: "integer" } } } },
        },
      }),
    );
    expect(errors(out)).toEqual([]);
    const validators = file(out.files, "validators.js");
    expect(validators).not.toContain("globalThis.x=1;\n");
    expect(validators).toContain("function validate_evil_t$$0(value, path) {");
    expect(validators).toContain(`/** evil.t: $defs/${ISSUE_KEY} */`);
    const before = Object.hasOwn(globalThis, "x");
    const generated = await importGenerated(project, out.files);
    expect(Object.hasOwn(globalThis, "x")).toBe(before);
    const validate = generated.validators[out.definitions[0]!.id]!;
    expect(validate({ x: { y: "2" } })).toEqual({ ok: true, value: { x: { y: 2 } } });
    expect(validate({ x: { y: "two" } })).toEqual({
      ok: false,
      error: "invalid:$.x.y",
      hint: "expected integer",
    });
    expect(generated.registry.tools[0]!.inputSchema).toEqual(out.definitions[0]!.inputSchema);
  });

  it("two $defs keys that would sanitize alike get two functions", async () => {
    const out = gatewayOutput(
      listing({
        name: "t",
        inputSchema: {
          type: "object",
          properties: { a: { $ref: "#/$defs/a b" }, b: { $ref: "#/$defs/a_b" } },
          $defs: { "a b": { type: "string" }, a_b: { type: "integer" } },
        },
      }),
    );
    const generated = await importGenerated(project, out.files);
    const validate = generated.validators[out.definitions[0]!.id]!;
    expect(validate({ a: "x", b: "1" })).toEqual({ ok: true, value: { a: "x", b: 1 } });
    expect(validate({ a: 1 })).toMatchObject({ ok: false, error: "invalid:$.a" });
  });

  it("a pattern that is not a u regular expression leaves only its tool out (ZCP1710)", async () => {
    const out = gatewayOutput(
      listing(
        {
          name: "open",
          inputSchema: { type: "object", properties: { q: { type: "string", pattern: "(" } } },
        },
        {
          name: "trailing",
          inputSchema: {
            type: "object",
            properties: {
              m: { type: "object", patternProperties: { "abc\\": { type: "string" } } },
            },
          },
        },
        {
          name: "fine",
          description: "Still generated.",
          inputSchema: { type: "object", properties: { q: { type: "string", pattern: "^a/b$" } } },
        },
      ),
    );
    expect(errors(out)).toEqual([
      'error ZCP1710: the upstream tool "open" declares the pattern "(" at #/properties/q/pattern of its input schema, which is not a regular expression with the u flag (Invalid regular expression: /(/u: Unterminated group); the tool is left out',
      'error ZCP1710: the upstream tool "trailing" declares the pattern "abc\\\\" at #/properties/m/patternProperties/abc\\ of its input schema, which is not a regular expression with the u flag (Invalid regular expression: /abc\\/u: \\ at end of pattern); the tool is left out',
    ]);
    expect(out.diagnostics.every((d) => d.file === "/project/zcp.config.json")).toBe(true);
    expect(out.definitions.map((tool) => tool.alias)).toEqual(["evil.fine"]);
    expect(file(out.files, "validators.js")).toContain('= pattern("^a/b$");');
    const generated = await importGenerated(project, out.files);
    const validate = generated.validators[out.definitions[0]!.id]!;
    expect(validate({ q: "a/b" })).toEqual({ ok: true, value: { q: "a/b" } });
    expect(validate({ q: "a/c" })).toMatchObject({ ok: false, error: "invalid:$.q" });
  });

  it("a schema the validators cannot compile leaves only its tool out (ZCP1711)", () => {
    const out = gatewayOutput(
      listing(
        { name: "typed", inputSchema: { type: "object", properties: { a: { type: "text" } } } },
        { name: "empty", inputSchema: { type: "object", properties: { a: { type: [] } } } },
        {
          name: "format",
          inputSchema: {
            type: "object",
            properties: { a: { type: "string", format: "constructor" } },
          },
        },
      ),
    );
    expect(errors(out)).toEqual([
      'error ZCP1711: the input schema of the upstream tool "typed" cannot be compiled into a validator: the type "text" is not a JSON Schema type (evil.typed); the tool is left out',
      'error ZCP1711: the input schema of the upstream tool "empty" cannot be compiled into a validator: an empty type list is not a JSON Schema type (evil.empty); the tool is left out',
    ]);
    // An unknown format checks nothing (as before), even one named like an Object method.
    expect(out.definitions.map((tool) => tool.alias)).toEqual(["evil.format"]);
    expect(file(out.files, "validators.js")).not.toContain("native code");
  });

  it("every listed string is in the registry exactly and nowhere else as code", async () => {
    const strings = PAYLOADS;
    const properties = Object.fromEntries(
      strings.map((text) => [
        text,
        { type: "string", enum: [text, `${text}!`], description: text, title: text, default: text },
      ]),
    );
    const out = gatewayOutput(
      listing({
        name: strings[0]!,
        title: strings[1]!,
        description: strings[3]!,
        inputSchema: { type: "object", properties, required: [strings[4]!] },
      }),
    );
    expect(errors(out)).toEqual([]);
    const generated = await importGenerated(project, out.files);
    const [tool] = generated.registry.tools;
    expect(tool).toEqual(out.definitions[0]);
    expect(Object.keys((tool!.inputSchema as { properties: object }).properties)).toEqual(strings);
    const args = Object.fromEntries(strings.map((text) => [text, text]));
    expect(generated.validators[tool!.id]!(JSON.parse(JSON.stringify(args)))).toEqual({
      ok: true,
      value: args,
    });
    expect(sentinelIsUnset()).toBe(true);
  });
});

/** An object schema whose deepest object or array is nested `depth` levels down (the schema at 0). */
function nestedSchema(depth: number): { [keyword: string]: unknown } {
  // Each wrap adds two levels (the `properties` object, then the property's schema); an `enum`
  // array adds the last one of an odd depth.
  let schema: { [keyword: string]: unknown } =
    depth % 2 === 0 ? { type: "string" } : { type: "string", enum: ["x"] };
  for (let i = 0; i < Math.floor(depth / 2); i++)
    schema = { type: "object", properties: { a: schema } };
  return schema;
}

describe("item 1 (review): one listing cannot fail the others by crafted names or depth", () => {
  it("two patterns whose 32-bit hash prefixes agree both generate and both check", async () => {
    // Both hash to cc4db91e in their first 8 hex digits: once one constant name, a failed run.
    const tool = (name: string, pattern: string) => ({
      name,
      inputSchema: { type: "object", properties: { q: { type: "string", pattern } } },
    });
    const out = gatewayOutput(listing(tool("first", "^a20021$"), tool("second", "^a170039$")));
    expect(errors(out)).toEqual([]);
    const generated = await importGenerated(project, out.files);
    const [first, second] = out.definitions.map((tool) => generated.validators[tool.id]!);
    expect(first!({ q: "a20021" })).toEqual({ ok: true, value: { q: "a20021" } });
    expect(first!({ q: "a170039" })).toMatchObject({ ok: false, error: "invalid:$.q" });
    expect(second!({ q: "a170039" })).toEqual({ ok: true, value: { q: "a170039" } });
    expect(second!({ q: "a20021" })).toMatchObject({ ok: false, error: "invalid:$.q" });
  });

  it("two named types whose 32-bit hash prefixes agree get two functions", async () => {
    // A pair of types titled alike whose SHA-256 prefixes agree, found as a listing could find
    // it (a birthday search over one varying bound: some 10^5 hashes). Type i takes n >= -i.
    const typed = (i: number) => ({
      title: "T",
      type: "object",
      properties: { n: { type: "integer", minimum: -i } },
      required: ["n"],
    });
    const seen = new Map<string, number>();
    let pair: [number, number] | undefined;
    for (let i = 0; pair === undefined; i++) {
      const prefix = createHash("sha256")
        .update(JSON.stringify(typed(i)))
        .digest("hex")
        .slice(0, 8);
      const before = seen.get(prefix);
      if (before === undefined) seen.set(prefix, i);
      else pair = [before, i];
    }
    const tool = (name: string, i: number) => ({
      name,
      inputSchema: { type: "object", properties: { t: typed(i) } },
    });
    const out = gatewayOutput(listing(tool("first", pair[0]), tool("second", pair[1])));
    expect(errors(out)).toEqual([]);
    const generated = await importGenerated(project, out.files);
    // Each tool checks its own bound: one function for both would get one of them wrong.
    out.definitions.forEach((definition, k) => {
      const validate = generated.validators[definition.id]!;
      const low = -pair[k]!;
      expect(validate({ t: { n: String(low) } })).toEqual({ ok: true, value: { t: { n: low } } });
      expect(validate({ t: { n: low - 1 } })).toMatchObject({ ok: false, error: "invalid:$.t.n" });
    });
  });

  it("a schema nested 1,500 levels leaves only its tool out (ZCP1715)", () => {
    const out = gatewayOutput(
      listing(
        { name: "deep", inputSchema: nestedSchema(1500) },
        {
          name: "deep_output",
          inputSchema: { type: "object" },
          outputSchema: nestedSchema(1500),
        },
        { name: "fine", inputSchema: { type: "object", properties: { a: { type: "string" } } } },
      ),
    );
    expect(errors(out)).toEqual([
      'error ZCP1715: the input schema of the upstream tool "deep" is nested deeper than 64 levels; the tool is left out',
      'error ZCP1715: the output schema of the upstream tool "deep_output" is nested deeper than 64 levels; the tool is left out',
    ]);
    expect(out.definitions.map((tool) => tool.alias)).toEqual(["evil.fine"]);
  });

  it("64 levels generate, 65 do not", async () => {
    const out = gatewayOutput(
      listing(
        { name: "at_64", inputSchema: nestedSchema(64) },
        { name: "at_65", inputSchema: nestedSchema(65) },
      ),
    );
    // OpenAI's own limit (10 levels) costs at_64 its OpenAI entries only (ZCP1502).
    expect(errors(out)).toEqual([
      'error ZCP1715: the input schema of the upstream tool "at_65" is nested deeper than 64 levels; the tool is left out',
      "error ZCP1502: evil.at_64: its OpenAI schema exceeds the provider's limits: 32 levels of nesting (limit 10); it has no OpenAI entries",
    ]);
    expect(out.definitions.map((tool) => tool.alias)).toEqual(["evil.at_64"]);
    const generated = await importGenerated(project, out.files);
    const validate = generated.validators[out.definitions[0]!.id]!;
    const deepest = (leaf: unknown) => {
      let value: unknown = leaf;
      for (let i = 0; i < 32; i++) value = { a: value };
      return value;
    };
    expect(validate(deepest("s"))).toEqual({ ok: true, value: deepest("s") });
    expect(validate(deepest(1))).toMatchObject({ ok: false, error: `invalid:$${".a".repeat(32)}` });
  });
});

describe("item 1 (review): a pattern this Node cannot compile never fails the module's load", () => {
  it("fails the values it checks, and nothing else", async () => {
    const out = gatewayOutput(
      listing(
        {
          name: "newer",
          inputSchema: {
            type: "object",
            properties: { q: { type: "string", pattern: "^INJECTED$" }, n: { type: "integer" } },
          },
        },
        { name: "other", inputSchema: { type: "object", properties: { q: { type: "string" } } } },
      ),
    );
    // What a Node older than zcp gen's sees in syntax it does not read (as Node 22 sees a
    // modifier group such as "(?i:a)"): a source its RegExp throws on.
    const files = out.files.map((f) =>
      f.path === "validators.js"
        ? { ...f, content: f.content.replace('pattern("^INJECTED$")', 'pattern("(")') }
        : f,
    );
    expect(file(files, "validators.js")).toContain('pattern("(")');
    const generated = await importGenerated(project, files);
    const [newer, other] = out.definitions.map((tool) => generated.validators[tool.id]!);
    expect(newer!({ q: "INJECTED" })).toMatchObject({ ok: false, error: "invalid:$.q" });
    expect(newer!({ n: "2" })).toEqual({ ok: true, value: { n: 2 } });
    expect(newer!({ n: "two" })).toMatchObject({ ok: false, error: "invalid:$.n" });
    expect(other!({ q: "INJECTED" })).toEqual({ ok: true, value: { q: "INJECTED" } });
  });
});

describe("item 1 end to end: zcp gen --from-mcp against a hostile upstream", () => {
  it("writes the tools that compile, refuses the bad pattern and the deep schema, and the output loads inertly", async () => {
    const dir = scratchWithServer();
    writeFakeUpstream(dir, [
      {
        name: "injected",
        description: "The issue's payload.",
        inputSchema: {
          type: "object",
          properties: { x: { $ref: `#/$defs/${ISSUE_KEY}` } },
          $defs: { [ISSUE_KEY]: { type: "string" } },
        },
      },
      {
        name: "broken",
        description: "A pattern that is not one.",
        inputSchema: { type: "object", properties: { q: { type: "string", pattern: "abc\\" } } },
      },
      { name: "deep", description: "Nested 1,500 levels.", inputSchema: nestedSchema(1500) },
    ]);
    const run = runZcp(dir, ["gen", "--from-mcp", "node fake-server.mjs", "--reporter", "json"]);
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as {
      diagnostics: { severity: string; code: string; message: string }[];
      written: string[];
    };
    const errors = report.diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => `${d.code}: ${d.message}`)).toEqual([
      'ZCP1710: the upstream tool "broken" declares the pattern "abc\\\\" at #/properties/q/pattern of its input schema, which is not a regular expression with the u flag (Invalid regular expression: /abc\\/u: \\ at end of pattern); the tool is left out',
      'ZCP1715: the input schema of the upstream tool "deep" is nested deeper than 64 levels; the tool is left out',
    ]);
    expect(report.written).toContain("validators.js");
    const before = Object.hasOwn(globalThis, "x");
    const generated = (await import(pathToFileURL(path.join(dir, "zcp.gen/index.js")).href)) as {
      generated: GeneratedModule;
    };
    expect(Object.hasOwn(globalThis, "x")).toBe(before);
    expect(generated.generated.registry.tools.map((tool) => tool.alias)).toEqual([
      "fake_server.injected",
    ]);
  });
});

describe('item 10: a declared "__proto__" property is kept', () => {
  const listed = JSON.parse(
    '{"name": "p", "inputSchema": {"type": "object", "properties": {"__proto__": {"type": "integer", "default": 3}, "b": {"type": "string"}}, "required": ["__proto__"], "additionalProperties": false}}',
  ) as UpstreamTool;

  it("in the definition, the planner line, the types and the validator", async () => {
    const out = gatewayOutput(listing(listed));
    expect(errors(out)).toEqual([]);
    const [tool] = out.definitions;
    expect(Object.keys((tool!.inputSchema as { properties: object }).properties)).toEqual([
      "__proto__",
      "b",
    ]);
    expect(Object.hasOwn(tool!.defaults, "__proto__")).toBe(true);
    expect(tool!.planner).toBe(`TOOL @${tool!.id} evil.p(__proto__:int=3, b:str?) -> auto`);
    expect(file(out.files, "types.d.ts")).toContain("  __proto__: number;\n  b?: string;\n");
    expect(file(out.files, "validators.js")).toContain('const v1 = own(input, "__proto__");');

    const generated = await importGenerated(project, out.files);
    const loaded = generated.registry.tools[0]!;
    expect(Object.keys((loaded.inputSchema as { properties: object }).properties)).toEqual([
      "__proto__",
      "b",
    ]);
    const validate = generated.validators[loaded.id]!;
    const accepted = validate(JSON.parse('{"__proto__": "5", "b": "x"}'));
    expect(accepted.ok).toBe(true);
    const value = (accepted as { value: object }).value;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toBe(5);
    expect(validate({ b: "x" })).toEqual({
      ok: false,
      error: "missing:$.__proto__",
      hint: "expected integer",
    });
    expect(validate(JSON.parse('{"__proto__": "five"}'))).toEqual({
      ok: false,
      error: "invalid:$.__proto__",
      hint: "expected integer",
    });
    expect(validate(JSON.parse('{"__proto__": 1, "c": 1}'))).toMatchObject({
      ok: false,
      error: "invalid:$.c",
    });
  });
});

describe('item 10: a TypeScript property named "__proto__" is kept', () => {
  const SOURCE = `export interface Weird {
  /** Kept as a property. */
  "__proto__": number;
  name?: string;
}

/**
 * Takes the prototype key.
 * @tool proto.take
 * @id __proto__
 */
export function take(weird: Weird): number {
  return weird["__proto__"] + 1;
}

/**
 * Echoes.
 * @tool proto.echo
 */
function echo(text: string): string {
  return text;
}
export { echo as "echo text" };
`;

  it("in the schema, the validator, and the tables under the id __proto__", async () => {
    const dir = scratchProject({
      "zcp.config.json": JSON.stringify({ include: ["src/**/*.ts"], outDir: "zcp.gen" }),
      "tsconfig.json": STRICT_TSCONFIG,
      "src/tools.ts": SOURCE,
    });
    const result = await new Generator(loadConfig(dir).config!).generate();
    expect(result.diagnostics).toEqual([]);
    const take = result.registry.tools.find((tool) => tool.alias === "proto.take")!;
    expect(take.id).toBe("__proto__");
    expect(take.inputSchema).toEqual({
      type: "object",
      properties: {
        ["__proto__"]: { type: "number", description: "Kept as a property." },
        name: { type: "string" },
      },
      required: ["__proto__"],
      additionalProperties: false,
    });
    expect(Object.keys((take.inputSchema as { properties: object }).properties)).toEqual([
      "__proto__",
      "name",
    ]);
    const files = new Map(result.files.map((file) => [file.path, file.content]));
    expect(files.get("dispatch.ts")).toContain(`["__proto__"]: call_proto_take }`);
    expect(files.get("dispatch.ts")).toContain(`return tools["echo text"](`);
    expect(files.get("validators.ts")).toContain(`["__proto__"]: validate_proto_take`);

    const generated = await importTypeScript(dir, result.files);
    expect(Object.hasOwn(generated.dispatch, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(generated.dispatch)).toBe(Object.prototype);
    const checked = generated.validators["__proto__"]!(JSON.parse('{"__proto__": "41"}'));
    expect(checked.ok).toBe(true);
    const value = (checked as { value: { [key: string]: unknown } }).value;
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toBe(41);
    expect(generated.validators["__proto__"]!({ name: "x" })).toEqual({
      ok: false,
      error: "missing:$.__proto__",
      hint: "expected number",
    });
    expect(await generated.dispatch["__proto__"]!(value, {} as never)).toBe(42);
    const echo = result.registry.tools.find((tool) => tool.alias === "proto.echo")!;
    expect(echo.source.export).toBe("echo text");
    expect(await generated.dispatch[echo.id]!({ text: "hi" }, {} as never)).toBe("hi");
  });
});
