/**
 * Artifact conformance: the provider artifacts of every fixture (as the runtime derives them from
 * the generated registry, `artifactSet`) follow their provider's rules
 * (the checkers in ./checkers), agree with the registry (one entry per tool, the same names,
 * entries missing only where the compiler said so), and are accepted by the official SDKs'
 * own code: the MCP SDK's zod `ToolSchema`, the OpenAI SDK's strict-schema transformer (a
 * strict entry is already strict: the transformer leaves it as it is) and the Anthropic SDK's
 * strict transformer (nothing of a schema is outside its subset). The checkers are shown to
 * fail too, on deliberately broken entries, in checkers.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { transformJSONSchema } from "@anthropic-ai/sdk/lib/transform-json-schema";
import { ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import { toStrictJsonSchema } from "openai/lib/transform";
import {
  ARTIFACT_PROVIDERS,
  artifactSet,
  type ArtifactProvider,
  type JsonSchema,
  type Registry,
  type ToolDefinition,
} from "@zcp/runtime";
import { firstSentence } from "@zcp/runtime/definition";
import { afterAll, describe, expect, it } from "vitest";
import {
  ajv,
  FIXTURES,
  generatedRegistry,
  runZcp,
  scratchProject,
  STRICT_TSCONFIG,
} from "../helpers.js";
import { CHECKERS } from "./checkers/index.js";
import { isObject, type Obj } from "./checkers/shared.js";

const NAMES = ["weather", "kitchen-sink", "diagnostics", "workbench"];

type Sets = { [P in ArtifactProvider]: { [toolId: string]: Obj } };

/** Registry and artifacts (full, or the lean sets) of a generated output folder (`src/zcp.gen` of a project). */
function loadOutput(project: string, lean = false): { registry: Registry; sets: Sets } {
  const registry = generatedRegistry(path.join(project, "src/zcp.gen"));
  const sets = {} as Sets;
  for (const provider of ARTIFACT_PROVIDERS)
    sets[provider] = artifactSet(registry, provider, { lean }) as unknown as Sets[typeof provider];
  return { registry, sets };
}

/** Aliases the diagnostics fixture's golden output names with `code` (ZCP15xx lines name the alias first). */
function diagnosed(code: string): string[] {
  const golden = fs.readFileSync(
    path.join(FIXTURES, "diagnostics/expected-diagnostics.txt"),
    "utf8",
  );
  return [
    ...golden.matchAll(new RegExp(`^\\S+ - (?:error|warning) ${code}: ([A-Za-z0-9_.-]+): `, "gm")),
  ]
    .map((match) => match[1]!)
    .sort();
}

/** A tool whose input schema refers to itself: only `$defs` (and `$ref`) can write it. */
function isRecursive(tool: ToolDefinition): boolean {
  return JSON.stringify(tool.inputSchema).includes('"$ref"');
}

/**
 * Whether OpenAI strict mode can express a schema at all, judged on the registry's canonical
 * schema: not with an open-ended object (a schema or `true` as additionalProperties) or a
 * value of any type (a node with no type, enum, const, union or reference).
 */
function strictExpressible(schema: JsonSchema): boolean {
  return !someNode(
    schema,
    (node) =>
      (node.additionalProperties !== undefined && node.additionalProperties !== false) ||
      anyValue(node),
  );
}

/** A node that takes a value of any type: no type, enum, const, union or reference. */
function anyValue(node: Obj): boolean {
  return !["type", "enum", "const", "anyOf", "oneOf", "allOf", "$ref"].some((key) => key in node);
}

/** Whether `test` holds for some node of the schema (properties, $defs, unions, items). */
function someNode(schema: JsonSchema, test: (node: Obj) => boolean): boolean {
  let found = false;
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isObject(value)) return;
    if (test(value)) found = true;
    for (const key of ["properties", "$defs"])
      if (isObject(value[key])) Object.values(value[key] as Obj).forEach(visit);
    for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"])
      if (Array.isArray(value[key])) visit(value[key]);
    if (isObject(value.items)) visit(value.items);
  };
  visit(schema);
  return found;
}

/** `$`-paths where `ours` and `theirs` differ. */
function differences(ours: unknown, theirs: unknown, at = "$"): string[] {
  if (isDeepStrictEqual(ours, theirs)) return [];
  if (isObject(ours) && isObject(theirs)) {
    return [...new Set([...Object.keys(ours), ...Object.keys(theirs)])].flatMap((key) =>
      differences(ours[key], theirs[key], `${at}.${key}`),
    );
  }
  if (Array.isArray(ours) && Array.isArray(theirs) && ours.length === theirs.length)
    return ours.flatMap((item, i) => differences(item, theirs[i], `${at}[${i}]`));
  return [`${at}: ours ${JSON.stringify(ours)}, SDK ${JSON.stringify(theirs)}`];
}

/**
 * What the Anthropic SDK's strict transformer changes without loss of meaning, undone so the
 * comparison shows only real differences: it drops `type` beside `enum`/`const`, and it closes
 * every object (`additionalProperties: false`), which the compiler deliberately does not do for
 * open-ended objects (non-strict tool use keeps them open).
 */
function anthropicBenign(ours: unknown, theirs: unknown): unknown {
  if (Array.isArray(ours) && Array.isArray(theirs))
    return theirs.map((item, i) => anthropicBenign(ours[i], item));
  if (!isObject(ours) || !isObject(theirs)) return theirs;
  const out: { [key: string]: unknown } = {};
  for (const [key, value] of Object.entries(theirs)) out[key] = anthropicBenign(ours[key], value);
  if ("type" in ours && !("type" in theirs) && ("enum" in ours || "const" in ours))
    out.type = ours.type;
  if (isObject(ours.additionalProperties) && theirs.additionalProperties === false)
    out.additionalProperties = ours.additionalProperties;
  // An object of any shape (the object branch of an `unknown` value): strict mode would close it.
  if (ours.type === "object" && !("properties" in ours) && !("additionalProperties" in ours)) {
    delete out.properties;
    delete out.additionalProperties;
  }
  return out;
}

/**
 * A `$ref` without its siblings. The Anthropic SDK's strict transformer keeps a `$ref` alone
 * and drops the rest (a description beside it); JSON Schema 2020-12, which non-strict tool use
 * takes, allows siblings, so that is a known difference rather than a rule broken.
 */
function withoutRefSiblings(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutRefSiblings);
  if (!isObject(schema)) return schema;
  if ("$ref" in schema) return { $ref: schema.$ref };
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, withoutRefSiblings(value)]),
  );
}

function checkerViolations(sets: Sets, provider: ArtifactProvider): string[] {
  return Object.entries(sets[provider]).flatMap(([id, entry]) =>
    CHECKERS[provider](entry, id).map((violation) => `${provider} ${violation}`),
  );
}

/** The MCP SDK's zod `ToolSchema` accepts every entry, and strips nothing (it knows every field). */
function mcpSdkProblems(sets: Sets): string[] {
  return Object.entries(sets.mcp).flatMap(([id, entry]) => {
    const parsed = ToolSchema.safeParse(entry);
    if (!parsed.success)
      return parsed.error.issues.map(
        (issue) => `mcp ${id} $.${issue.path.join(".")}: ${issue.message}`,
      );
    return differences(entry, parsed.data).map((difference) => `mcp ${id} ${difference}`);
  });
}

/** The OpenAI SDK's `toStrictJsonSchema` takes every strict schema as it is. */
function openaiSdkProblems(sets: Sets): string[] {
  return Object.entries(sets["openai-responses"]).flatMap(([id, entry]) => {
    if (entry.strict !== true) return [];
    const parameters = entry.parameters as Parameters<typeof toStrictJsonSchema>[0];
    try {
      return differences(parameters, toStrictJsonSchema(parameters)).map(
        (difference) => `openai ${id} ${difference}`,
      );
    } catch (error) {
      return [`openai ${id}: toStrictJsonSchema throws: ${(error as Error).message}`];
    }
  });
}

/** The Anthropic SDK's strict `transformJSONSchema` moves nothing into descriptions and drops nothing. */
function anthropicSdkProblems(sets: Sets): string[] {
  return Object.entries(sets.anthropic).flatMap(([id, entry]) => {
    const schema = entry.input_schema as Parameters<typeof transformJSONSchema>[0];
    try {
      return differences(
        withoutRefSiblings(schema),
        anthropicBenign(schema, transformJSONSchema(schema)),
      ).map((difference) => `anthropic ${id} ${difference}`);
    } catch (error) {
      return [`anthropic ${id}: transformJSONSchema throws: ${(error as Error).message}`];
    }
  });
}

/** Every JSON Schema listed (OpenAI, Anthropic, MCP) compiles under Ajv, draft 2020-12, strict. */
function ajvProblems(sets: Sets): string[] {
  const schemas: [string, unknown][] = [
    ...Object.entries(sets["openai-responses"]).map(([id, entry]): [string, unknown] => [
      `openai-responses ${id}`,
      entry.parameters,
    ]),
    ...Object.entries(sets.anthropic).map(([id, entry]): [string, unknown] => [
      `anthropic ${id}`,
      entry.input_schema,
    ]),
    ...Object.entries(sets.mcp).flatMap(([id, entry]): [string, unknown][] => [
      [`mcp ${id} input`, entry.inputSchema],
      ...(entry.outputSchema
        ? [[`mcp ${id} output`, entry.outputSchema] as [string, unknown]]
        : []),
    ]),
  ];
  const validator = ajv();
  return schemas.flatMap(([where, schema]) => {
    try {
      validator.compile(schema as object);
      return [];
    } catch (error) {
      return [`${where}: ${(error as Error).message}`];
    }
  });
}

/** Every schema node of a value (properties, items, branches, definitions), with its path. */
function schemaNodes(schema: unknown, at: string, out: [string, Obj][] = []): [string, Obj][] {
  if (!isObject(schema)) return out;
  out.push([at, schema]);
  for (const key of ["properties", "$defs"])
    if (isObject(schema[key]))
      for (const [name, sub] of Object.entries(schema[key] as Obj))
        schemaNodes(sub, `${at}.${key}.${name}`, out);
  for (const key of ["items", "additionalProperties"])
    schemaNodes(schema[key], `${at}.${key}`, out);
  for (const key of ["anyOf", "oneOf", "prefixItems"])
    if (Array.isArray(schema[key]))
      (schema[key] as unknown[]).forEach((sub, i) => schemaNodes(sub, `${at}.${key}[${i}]`, out));
  return out;
}

const CONSTRAINTS = [
  "pattern",
  "format",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "propertyNames",
  "examples",
  "title",
];

/**
 * What makes a set lean: no constraint keyword on any schema node (a tuple made an array keeps
 * its length bounds, its arity; Anthropic's kept `minItems` 0/1 is a bound too, so none either),
 * none described instead (`{minLength: 1}` notes), and single-sentence descriptions.
 */
function leanProblems(sets: Sets): string[] {
  const problems: string[] = [];
  const schemas: [string, unknown][] = [
    ...Object.entries(sets["openai-responses"]).map(([id, entry]): [string, unknown] => [
      `openai-responses ${id}`,
      entry.parameters,
    ]),
    ...Object.entries(sets.anthropic).map(([id, entry]): [string, unknown] => [
      `anthropic ${id}`,
      entry.input_schema,
    ]),
    ...Object.entries(sets.gemini).map(([id, entry]): [string, unknown] => [
      `gemini ${id}`,
      entry.parameters,
    ]),
    ...Object.entries(sets.mcp).flatMap(([id, entry]): [string, unknown][] => [
      [`mcp ${id} input`, entry.inputSchema],
      [`mcp ${id} output`, entry.outputSchema],
    ]),
  ];
  for (const [where, schema] of schemas) {
    for (const [at, node] of schemaNodes(schema, "$")) {
      const tuple =
        (typeof node.description === "string" && node.description.includes("{tuple: ")) ||
        Array.isArray(node.prefixItems);
      for (const key of CONSTRAINTS) {
        if (!(key in node) || (tuple && (key === "minItems" || key === "maxItems"))) continue;
        if (key === "title" && where.startsWith("mcp") && at === "$") continue;
        problems.push(`lean ${where} ${at}: has ${key}`);
      }
      const described = tuple
        ? /\{(pattern|format|minLength|maxLength|minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf|uniqueItems): /
        : /\{(pattern|format|minLength|maxLength|minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf|minItems|maxItems|uniqueItems): /;
      if (typeof node.description === "string" && described.test(node.description)) {
        problems.push(`lean ${where} ${at}: describes a constraint: ${node.description}`);
      }
    }
  }
  for (const provider of ARTIFACT_PROVIDERS) {
    for (const [id, entry] of Object.entries(sets[provider])) {
      const written = (
        provider === "openai-chat" ? (entry.function as Obj).description : entry.description
      ) as string;
      // An MCP entry says a tool is deprecated in a paragraph of its own, before the sentence.
      const description =
        provider === "mcp" ? written.replace(/^Deprecated(?:\.|: [^\n]*)\n\n/, "") : written;
      if (description !== firstSentence(description))
        problems.push(`lean ${provider} ${id}: description is not one sentence: ${description}`);
    }
  }
  return problems;
}

for (const [name, lean] of NAMES.flatMap(
  (name) =>
    [
      [name, false],
      [name, true],
    ] as const,
)) {
  describe(`${lean ? "lean " : ""}artifacts of fixture ${name}`, () => {
    const { registry, sets } = loadOutput(path.join(FIXTURES, name), lean);
    const byId = new Map(registry.tools.map((tool) => [tool.id, tool]));
    const ids = registry.tools.map((tool) => tool.id);
    const aliasesOf = (toolIds: string[]) => toolIds.map((id) => byId.get(id)!.alias).sort();
    const missing = (provider: ArtifactProvider) =>
      aliasesOf(ids.filter((id) => !(id in sets[provider])));

    it("has one set per provider, an object of entries by registry tool id", () => {
      for (const provider of ARTIFACT_PROVIDERS) {
        expect(isObject(sets[provider]), provider).toBe(true);
        expect(
          Object.keys(sets[provider]).filter((id) => !byId.has(id)),
          `${provider}: ids not in the registry`,
        ).toEqual([]);
      }
      expect(registry.tools.length).toBeGreaterThan(0);
    });

    for (const provider of ARTIFACT_PROVIDERS) {
      it(`${provider}: every entry passes the provider's checker`, () => {
        expect(checkerViolations(sets, provider)).toEqual([]);
      });
    }

    if (lean) {
      it("is lean: no constraint keywords, none described instead, one-sentence descriptions", () => {
        expect(leanProblems(sets)).toEqual([]);
      });

      it("lists the tools the full sets list, by the same names", () => {
        const full = loadOutput(path.join(FIXTURES, name)).sets;
        for (const provider of ARTIFACT_PROVIDERS) {
          expect(Object.keys(sets[provider]), provider).toEqual(Object.keys(full[provider]));
          const names = (set: Sets[ArtifactProvider]) =>
            Object.values(set).map((entry) =>
              provider === "openai-chat" ? (entry.function as Obj).name : entry.name,
            );
          expect(names(sets[provider]), provider).toEqual(names(full[provider]));
        }
      });
    }

    it("has an Anthropic and an MCP entry for every tool", () => {
      expect(missing("anthropic")).toEqual([]);
      expect(missing("mcp")).toEqual([]);
    });

    it("leaves out OpenAI entries only for tools over OpenAI's limits (ZCP1502)", () => {
      const expected = name === "diagnostics" ? diagnosed("ZCP1502") : [];
      if (name === "diagnostics") expect(expected).toEqual(["providers.deep"]);
      expect(missing("openai-responses")).toEqual(expected);
      expect(missing("openai-chat")).toEqual(expected);
    });

    it("leaves out Gemini entries only for recursive tools and values of any type (ZCP1503)", () => {
      // Gemini's schema subset has neither references nor a value without a type.
      const inexpressible = aliasesOf(
        ids.filter((id) => {
          const tool = byId.get(id)!;
          return isRecursive(tool) || someNode(tool.inputSchema, anyValue);
        }),
      );
      expect(missing("gemini")).toEqual(inexpressible);
      if (name === "diagnostics") {
        expect(diagnosed("ZCP1503")).toEqual([
          "providers.tree",
          "untyped.explicit",
          "untyped.implicit",
        ]);
        expect(missing("gemini")).toEqual(diagnosed("ZCP1503"));
      }
    });

    it("marks OpenAI entries strict: false only where strict mode cannot express the tool (ZCP1501)", () => {
      const loose = (provider: "openai-responses" | "openai-chat") =>
        aliasesOf(
          Object.entries(sets[provider])
            .filter(
              ([, entry]) =>
                (provider === "openai-chat" ? (entry.function as Obj).strict : entry.strict) ===
                false,
            )
            .map(([id]) => id),
        );
      const inexpressible = aliasesOf(
        ids.filter(
          (id) => id in sets["openai-responses"] && !strictExpressible(byId.get(id)!.inputSchema),
        ),
      );
      expect(loose("openai-responses")).toEqual(inexpressible);
      expect(loose("openai-chat")).toEqual(inexpressible);
      if (name === "diagnostics") expect(loose("openai-responses")).toEqual(diagnosed("ZCP1501"));
    });

    it("gives the Chat Completions entry the same function as the Responses entry", () => {
      for (const [id, entry] of Object.entries(sets["openai-responses"])) {
        const { type, ...fn } = entry;
        expect(sets["openai-chat"][id], id).toEqual({ type, function: fn });
      }
    });

    it("names every entry with the registry's provider name, which the registry maps back to the alias", () => {
      for (const provider of ARTIFACT_PROVIDERS) {
        for (const [id, entry] of Object.entries(sets[provider])) {
          const tool = byId.get(id)!;
          const entryName = provider === "openai-chat" ? (entry.function as Obj).name : entry.name;
          expect(entryName, `${provider} ${id}`).toBe(tool.name);
          expect(registry.names[tool.name], `${provider} ${id}`).toBe(tool.alias);
        }
      }
      expect(Object.keys(registry.names).sort()).toEqual(
        registry.tools.map((tool) => tool.name).sort(),
      );
    });

    it("MCP: every entry is accepted, unchanged, by the MCP SDK's ToolSchema", () => {
      expect(mcpSdkProblems(sets)).toEqual([]);
    });

    it("OpenAI: the SDK's strict transformer leaves every strict schema unchanged", () => {
      expect(openaiSdkProblems(sets)).toEqual([]);
    });

    it("Anthropic: the SDK's strict transformer finds nothing outside its subset", () => {
      expect(anthropicSdkProblems(sets)).toEqual([]);
    });

    it("compiles every JSON Schema it lists (OpenAI, Anthropic, MCP) under Ajv 2020-12, strict", () => {
      expect(ajvProblems(sets)).toEqual([]);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Beyond the fixtures: types the fixtures do not declare, compiled by the real `zcp gen` in a
// scratch project and held to the same checkers and SDK oracles.

const TRICKY = `
export interface Leaf { kind: "leaf"; value: number }
export interface Branch { kind: "branch"; items: Node[] }
export type Node = Leaf | Branch;

/**
 * Optional and nullable literals.
 * @tool probe.literals
 * @output scalar
 */
export function literals(one?: 1, mixed?: 1 | "a", flag?: true, level?: 1 | 2 | null, color?: "red" | "blue" | null, on?: boolean | null): number {
  return 0;
}

/**
 * A recursive union.
 * @tool probe.recursive_union
 * @output scalar
 */
export function recursiveUnion(node: Node, extra?: Node): number {
  return 0;
}

/**
 * Nullable arrays, tuples, readonly arrays, nested objects, Partial of a Record.
 * @tool probe.arrays
 * @output scalar
 */
export function arrays(tags: string[] | null, pair?: [number, string], list?: readonly number[], nested?: { inner: { at?: Date }[] } | null, partial?: Partial<Record<"a" | "b", number>>): number {
  return 0;
}

/**
 * Formats and constraints some providers do not take.
 * @tool probe.formats
 * @output scalar
 */
export function formats(
  /** @format uri */ site: string,
  /** @minItems 2 @maxItems 5 */ ids: string[],
  /** @minimum 1 @maximum 9 */ n: number,
  /** @format date */ day?: string,
  either?: string | { name: string },
): number {
  return 0;
}
`;

const UNKNOWN = `
/**
 * A value of any JSON type, and a map of them.
 * @tool probe.unknown_value
 * @output scalar
 */
export function unknownValue(value: unknown, meta?: Record<string, unknown>): number {
  return meta ? 1 : value ? 2 : 0;
}
`;

describe("artifacts of types beyond the fixtures", () => {
  const scratch: string[] = [];
  afterAll(() => {
    for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
  });
  const problems = (source: string): string[] => {
    const dir = scratchProject({
      "zcp.config.json": JSON.stringify({
        include: ["src/**/*.ts"],
        outDir: "src/zcp.gen",
      }),
      "tsconfig.json": STRICT_TSCONFIG,
      "src/probe.ts": source,
    });
    scratch.push(dir);
    const result = runZcp(dir, ["gen"]);
    expect(result.status, result.stderr + result.stdout).toBe(0);
    return [false, true].flatMap((lean) => {
      const { sets } = loadOutput(dir, lean);
      const problems = [
        ...ARTIFACT_PROVIDERS.flatMap((provider) => checkerViolations(sets, provider)),
        ...mcpSdkProblems(sets),
        ...openaiSdkProblems(sets),
        ...anthropicSdkProblems(sets),
        ...ajvProblems(sets),
      ];
      return lean
        ? [...problems.map((problem) => `lean ${problem}`), ...leanProblems(sets)]
        : problems;
    });
  };

  it("literals, recursive unions, nullable arrays, tuples, formats: every artifact conforms", () => {
    expect(problems(TRICKY)).toEqual([]);
  });

  // An `unknown` value: Anthropic gets an anyOf of every JSON type (every node needs a type,
  // anyOf, $ref, const or enum); Gemini cannot declare it, so the tool has no Gemini entry.
  const unknownProblems = (providers: RegExp) =>
    problems(UNKNOWN).filter((problem) => providers.test(problem));
  it("an unknown value: the OpenAI (strict: false) and MCP artifacts conform", () => {
    expect(unknownProblems(/^(openai|mcp)/)).toEqual([]);
  });
  it("an unknown value: the Anthropic and Gemini artifacts conform (Gemini leaves the tool out)", () => {
    expect(unknownProblems(/^(anthropic|gemini)/)).toEqual([]);
  });
});
