/**
 * Hand-written input schemas (`@inputSchema ./file.json`, issue 30 item 5): the file's schema is
 * the tool's `inputSchema` as written (`$schema` kept, keywords in the canonical order), the
 * arguments object is the tool's one parameter, top-level `default`s are its defaults, and the
 * file is one of the run's inputs (editing it makes the output stale). A file that cannot be
 * read or is not an object schema (ZCP1309), a signature that does not take one object
 * (ZCP1205), and a schema the generated validator would not check whole (ZCP1310) are refused.
 * What the generated validator enforces is tested through the runtime, on the conformance
 * fixture's hand-written tool (packages/runtime/test/input-schema.test.ts).
 */
import fs from "node:fs";
import path from "node:path";
import type { Registry } from "@zcp/runtime";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type CliResult,
  errorLines,
  generatedRegistry,
  runZcpAsync,
  STRICT_TSCONFIG,
  temporaryProjects,
} from "./helpers.js";

const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    kind: { enum: ["a", "b"], default: "a" },
    value: { type: "string" },
  },
  if: { properties: { kind: { const: "b" } } },
  then: { required: ["value"] },
  additionalProperties: false,
};

const TOOLS = `import type { ToolContext } from "@zcp/runtime";

/**
 * Pick.
 * @tool pick
 * @inputSchema ./pick.schema.json
 * @output scalar
 */
export function pick(args: { kind: "a" | "b"; value?: string }, ctx: ToolContext): string {
  return ctx.sessionId + args.kind;
}
`;

/** Each refused tool, with the file it names (written beside it when given). */
const REFUSED: [string, string, string | null][] = [
  ["notRelative", "pick.schema.json", null],
  ["missing", "./missing.json", null],
  ["notJson", "./not.json", "{ nope"],
  ["notObject", "./array.json", '{ "type": "array" }'],
  [
    "dialect",
    "./draft7.json",
    '{ "$schema": "http://json-schema.org/draft-07/schema#", "type": "object" }',
  ],
  [
    "deep",
    "./deep.json",
    `{ "type": "object", "properties": { "a": ${'{ "items": '.repeat(70)}{}${" }".repeat(70)} } }`,
  ],
  [
    "dynamic",
    "./dynamic.json",
    '{ "type": "object", "properties": { "a": { "$dynamicRef": "#x" } } }',
  ],
  [
    "badPattern",
    "./pattern.json",
    '{ "type": "object", "properties": { "a": { "pattern": "\\\\p{Nope}" } } }',
  ],
  [
    "dangling",
    "./dangling.json",
    '{ "type": "object", "properties": { "a": { "$ref": "#/$defs/none" } } }',
  ],
  ["twoParams", "./pick.schema.json", null],
];

const refusedSource = REFUSED.map(
  ([name, file]) => `
/**
 * Refused.
 * @tool r.${name}
 * @inputSchema ${file}
 */
export function ${name}(args: object${name === "twoParams" ? ", more: string" : ""}): string {
  return String(args);
}
`,
).join("");

const { scratch } = temporaryProjects();
let dir: string;
let gen: CliResult;
let registry: Registry;
let refused: CliResult;

beforeAll(async () => {
  const json = JSON.stringify(SCHEMA, null, 2);
  dir = scratch({
    "zcp.config.json": "{}",
    "tsconfig.json": STRICT_TSCONFIG,
    "src/tools.ts": TOOLS,
    "src/pick.schema.json": json,
  });
  const files: Record<string, string> = {
    "zcp.config.json": "{}",
    "tsconfig.json": STRICT_TSCONFIG,
    "src/tools.ts": refusedSource,
    "src/pick.schema.json": json,
  };
  for (const [, file, text] of REFUSED) if (text !== null) files[`src/${file.slice(2)}`] = text;
  [gen, refused] = await Promise.all([
    runZcpAsync(dir, ["gen"]),
    runZcpAsync(scratch(files), ["gen"]),
  ]);
  registry = generatedRegistry(path.join(dir, "src/zcp.gen"));
});

describe("@inputSchema", () => {
  it("makes the file's schema the tool's input schema, the arguments its one parameter", () => {
    expect([gen.status, gen.stderr]).toEqual([0, ""]);
    const [tool] = registry.tools;
    expect(tool!.inputSchema).toEqual(SCHEMA);
    // `$schema` first, then the canonical order; the author's property order is kept.
    expect(Object.keys(tool!.inputSchema)).toEqual([
      "$schema",
      "type",
      "properties",
      "additionalProperties",
      "if",
      "then",
    ]);
    expect(tool!.call).toEqual({ kind: "object", context: 1 });
    expect(tool!.defaults).toEqual({ kind: "a" });
    expect(tool!.planner).toBe(
      `TOOL @${tool!.id} pick(kind:a|b=a, value:str?) -> scalar -- "Pick."`,
    );
  });

  it("reads the file as an input: editing it makes the output stale", async () => {
    const file = path.join(dir, "src/pick.schema.json");
    const before = fs.readFileSync(file, "utf8");
    fs.writeFileSync(
      file,
      before.replace('"additionalProperties": false', '"additionalProperties": true'),
    );
    try {
      const check = await runZcpAsync(dir, ["gen", "--check"]);
      expect(check.status).toBe(1);
      expect(check.stdout + check.stderr).toContain("registry.ts");
    } finally {
      fs.writeFileSync(file, before);
    }
  });

  it("refuses a file, a signature or a schema it cannot take, each with its diagnostic", () => {
    expect(errorLines(refused)).toEqual([
      'error ZCP1301: @inputSchema: expected the path of a .json file, relative to this file ("./args.schema.json"), got "pick.schema.json"',
      "error ZCP1309: @inputSchema ./missing.json: cannot be read (ENOENT)",
      expect.stringMatching(/^error ZCP1309: @inputSchema \.\/not\.json: is not JSON \(.+\)$/),
      'error ZCP1309: @inputSchema ./array.json: must describe the arguments object: "type": "object" at its root',
      'error ZCP1309: @inputSchema ./draft7.json: declares "http://json-schema.org/draft-07/schema#"; write draft 2020-12 ("https://json-schema.org/draft/2020-12/schema") or no $schema',
      expect.stringMatching(
        /^error ZCP1309: @inputSchema \.\/deep\.json: nests deeper than 64 levels at \$\.properties\.a/,
      ),
      'error ZCP1310: the @inputSchema of r.dynamic: it cannot be compiled into a validator: generated validators do not support "$dynamicRef" (r.dynamic); the tool is left out',
      expect.stringMatching(
        /^error ZCP1310: the @inputSchema of r\.badPattern: the pattern "\\\\p\{Nope\}" at #\/properties\/a\/pattern is not a regular expression with the u flag \(.+\); the tool is left out$/,
      ),
      'error ZCP1310: the @inputSchema of r.dangling: it cannot be compiled into a validator: generated validators do not support "$ref" (r.dangling); the tool is left out',
      "error ZCP1205: @inputSchema: the tool must take the arguments object as its one parameter (besides a ToolContext); it has 2",
    ]);
    expect(refused.status).toBe(1);
  });
});
