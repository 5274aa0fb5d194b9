/**
 * upstream: an upstream's listing → `ToolDefinition`s, as the model stage makes them for
 * TypeScript tools: alias `<name>.<tool>` (or the override's), id and provider name derived
 * from it, the description and title as listed, the input schema as listed (without
 * `$schema`), the output schema when the upstream declares one, output mode `auto` unless the
 * override says otherwise, flags from the MCP annotations unless the override names them, and
 * `source: { file: "mcp:<name>", export: "<tool>" }`. A declared `$schema` dialect is
 * honoured (`dialect.ts`: the schemas become draft 2020-12); a tool whose schema nests deeper
 * than the runtime's argument limit (`depth.ts`) is left out first; a tool whose schema does not
 * compile is left out, and what its validator leaves to the upstream is a warning
 * (`check.ts`). Every diagnostic points at the configuration file, where the overrides are.
 */
import {
  deriveId,
  HINT_FLAGS,
  providerName,
  type JsonSchema,
  type JsonValue,
  type ToolDefinition,
  type ToolFlag,
} from "@zcp/runtime/definition";
import { DEFAULT_MAX_ARGUMENT_DEPTH, tooDeepAt } from "@zcp/runtime";
import { diagnostic, type Code, type Diagnostic } from "../diagnostics.js";
import { completeDefinition, shortDescription } from "../model/define.js";
import { BUILTIN_IDS, type Site } from "../model/index.js";
import { schemaProblems, type SchemaProblem } from "../compile/schema-problems.js";
import { toDraft2020 } from "./dialect.js";
import type { Listing } from "./list.js";
import type { Describe } from "../config.js";
import type { FromMcp, ToolOverride } from "./options.js";
import { malformedMessage, type UpstreamTool } from "./tool.js";

/**
 * The deepest a listed schema may nest (the schema at depth 0), as a call's arguments may: the
 * first check on an upstream tool, walked without recursion, since every later step (the
 * dialect, the planner line, the validator compiler) recurses into the schemas.
 */
const MAX_SCHEMA_DEPTH = DEFAULT_MAX_ARGUMENT_DEPTH;

export interface UpstreamModel {
  /** The alias prefix the tools got. */
  readonly name: string;
  readonly definitions: ToolDefinition[];
  readonly sites: ReadonlyMap<ToolDefinition, Site>;
  readonly diagnostics: Diagnostic[];
}

/** `configFile` is where the diagnostics point (line 1: JSON has no positions to keep). */
export function modelUpstream(
  listing: Listing,
  options: FromMcp,
  configFile: string,
  describe: Describe = "first",
): UpstreamModel {
  const site: Site = { file: configFile, line: 1, column: 1 };
  const report = (severity: "error" | "warning", code: Code, message: string) =>
    diagnostics.push(diagnostic(severity, code, message, site));
  const diagnostics: Diagnostic[] = [];
  const name = options.name ?? aliasPrefix(listing.serverName);
  const overrides = options.tools ?? {};
  // Own entries only: a tool named "constructor" or "__proto__" has no override of Object's.
  const overrideOf = (tool: string): ToolOverride | undefined =>
    Object.hasOwn(overrides, tool) ? overrides[tool] : undefined;
  const listed = new Set(listing.tools.map((tool) => tool.name));
  // A malformed tool is listed all the same: its override is not a stale name, and an
  // `exclude` of it says the gateway does without it, so it is not reported either.
  for (const tool of listing.malformed ?? []) {
    if (tool.name !== null) listed.add(tool.name);
    if (tool.name === null || !overrideOf(tool.name)?.exclude)
      report("error", "ZCP1714", malformedMessage(tool));
  }
  for (const tool of Object.keys(overrides))
    if (!listed.has(tool))
      report(
        "warning",
        "ZCP1705",
        `"fromMcp"."tools" names "${tool}", which the upstream does not list`,
      );

  const drafts: { tool: UpstreamTool; alias: string; override: ToolOverride }[] = [];
  const seen = new Set<string>();
  for (const tool of listing.tools) {
    if (seen.has(tool.name)) {
      report(
        "error",
        "ZCP1402",
        `the upstream lists the tool "${tool.name}" twice; the second is left out`,
      );
      continue;
    }
    seen.add(tool.name);
    const override = overrideOf(tool.name) ?? {};
    if (override.exclude) continue;
    drafts.push({ tool, override, alias: override.alias ?? `${name}.${aliasSegment(tool.name)}` });
  }

  // Unique aliases, ids and provider names, and the built-ins' namespace, as for TypeScript tools.
  const rejected = new Set<string>();
  for (const draft of drafts)
    if (/^zcp[._]/.test(draft.alias) || BUILTIN_IDS.includes(deriveId(draft.alias))) {
      rejected.add(draft.alias);
      report(
        "error",
        "ZCP1404",
        `the alias "${draft.alias}" of the upstream tool "${draft.tool.name}" is reserved for the runtime's built-in tools; give it an "alias"`,
      );
    }
  const unique = (key: (alias: string) => string, code: Code, what: string) => {
    const byKey = new Map<string, string[]>();
    for (const { alias } of drafts)
      byKey.set(key(alias), [...(byKey.get(key(alias)) ?? []), alias]);
    for (const [value, aliases] of byKey) {
      if (aliases.length < 2) continue;
      for (const alias of aliases) rejected.add(alias);
      report(
        "error",
        code,
        `${what} "${value}" is shared by the aliases ${aliases.map((a) => `"${a}"`).join(" and ")}; give one an "alias" in "fromMcp"."tools"`,
      );
    }
  };
  unique((alias) => alias, "ZCP1402", "duplicate tool alias");
  unique(deriveId, "ZCP1401", "duplicate tool id");
  unique(providerName, "ZCP1403", "provider tool name");

  const sites = new Map<ToolDefinition, Site>();
  const definitions: ToolDefinition[] = [];
  for (const draft of drafts) {
    if (rejected.has(draft.alias)) continue;
    const toolName = JSON.stringify(draft.tool.name);
    const deep = (["input", "output"] as const).find((which) => {
      const schema = draft.tool[`${which}Schema`];
      return schema !== undefined && tooDeepAt(schema, MAX_SCHEMA_DEPTH) !== null;
    });
    if (deep !== undefined) {
      report(
        "error",
        "ZCP1715",
        `the ${deep} schema of the upstream tool ${toolName} is nested deeper than ${MAX_SCHEMA_DEPTH} levels; the tool is left out`,
      );
      continue;
    }
    const input = toDraft2020(draft.tool.inputSchema);
    const output = draft.tool.outputSchema
      ? toDraft2020(draft.tool.outputSchema)
      : { schema: null };
    const unknownDialect = (which: string, declared: string) =>
      report(
        "error",
        "ZCP1713",
        `the ${which} schema of the upstream tool ${toolName} declares the $schema ${declared}, which is not a JSON Schema dialect zcp reads (2020-12, 2019-09, draft-07, draft-06); the tool is left out`,
      );
    if ("unknown" in input) {
      unknownDialect("input", input.unknown);
      continue;
    }
    if ("unknown" in output) {
      unknownDialect("output", output.unknown);
      continue;
    }
    const definition = defineUpstreamTool(
      draft.tool,
      draft.alias,
      name,
      options,
      describe,
      draft.override,
      {
        input: input.schema,
        output: output.schema,
      },
    );
    const problems = schemaProblems(definition);
    for (const problem of problems) {
      const [severity, code, message] = problemMessage(problem, toolName);
      report(severity, code, message);
    }
    if (problems.some((problem) => problem.kind !== "unchecked")) continue;
    if (definition.description === "")
      report("warning", "ZCP1305", `the upstream tool "${draft.tool.name}" has no description`);
    definitions.push(definition);
    sites.set(definition, site);
  }
  definitions.sort((a, b) => (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0));
  return { name, definitions, sites, diagnostics };
}

/** The diagnostic of a schema problem of the upstream tool `toolName` (a JSON string). */
function problemMessage(
  problem: SchemaProblem,
  toolName: string,
): ["error" | "warning", Code, string] {
  if (problem.kind === "pattern")
    return [
      "error",
      "ZCP1710",
      `the upstream tool ${toolName} declares the pattern ${JSON.stringify(problem.source)} at ${problem.path} of its input schema, which is not a regular expression with the u flag (${problem.error}); the tool is left out`,
    ];
  if (problem.kind === "compile")
    return [
      "error",
      "ZCP1711",
      `the input schema of the upstream tool ${toolName} cannot be compiled into a validator: ${problem.error}; the tool is left out`,
    ];
  const inner =
    problem.inner === null
      ? ""
      : ` (it holds ${JSON.stringify(problem.inner.keyword)} at ${problem.inner.path})`;
  return [
    "warning",
    "ZCP1712",
    `the generated validator of the upstream tool ${toolName} does not check ${JSON.stringify(problem.keyword)} at ${problem.path} of its input schema${inner}; the upstream enforces it`,
  ];
}

/** One upstream tool's definition, with its schemas in draft 2020-12. */
function defineUpstreamTool(
  tool: UpstreamTool,
  alias: string,
  name: string,
  options: FromMcp,
  describe: Describe,
  override: ToolOverride,
  schemas: { readonly input: JsonSchema; readonly output: JsonSchema | null },
): ToolDefinition {
  const inputSchema = schemas.input;
  const properties = (inputSchema.properties ?? {}) as { [name: string]: { default?: JsonValue } };
  const defaults = Object.fromEntries(
    Object.entries(properties)
      .filter(([, property]) => typeof property === "object" && property?.default !== undefined)
      .map(([param, property]) => [param, property.default!]),
  );
  const description = tool.description?.trim() ?? "";
  const title = tool.title ?? tool.annotations?.title;
  const draft: Omit<ToolDefinition, "hash" | "planner" | "plannerBare"> = {
    id: deriveId(alias),
    alias,
    name: providerName(alias),
    title: typeof title === "string" && title !== "" ? title : null,
    descriptionShort: describe === "full" ? description : shortDescription(description),
    description,
    inputSchema,
    outputSchema: schemas.output,
    outputMode: override.output ?? "auto",
    handleKind: "generic",
    handleParams: {},
    defaults,
    flags: override.flags ? [...override.flags] : annotationFlags(tool.annotations),
    groups: [...new Set([...(options.groups ?? []), ...(override.groups ?? [])])],
    stages: [...(override.stages ?? [])],
    scopes: [...(override.scopes ?? [])],
    deprecated: null,
    // The dispatch forwards `(args, context)`: the context's signal cancels the upstream request.
    call: { kind: "object", context: 1 },
    dates: [],
    source: { file: `mcp:${name}`, export: tool.name },
  };
  return completeDefinition(draft, describe === "full");
}

/**
 * The flags MCP's annotations state: each hint true as its flag (`openWorldHint` as
 * `openworld`), each explicit false as `!flag`, so that the gateway's entry says what the
 * upstream's said (a false matters where MCP's default is true: destructive, open world). An
 * absent hint stays absent. `destructiveHint: true` beside `readOnlyHint: true` is dropped: MCP
 * gives it meaning only for tools that are not read-only.
 */
function annotationFlags(annotations: UpstreamTool["annotations"]): ToolFlag[] {
  const flags: ToolFlag[] = [];
  for (const [flag, hint] of Object.entries(HINT_FLAGS) as [keyof typeof HINT_FLAGS, Hint][]) {
    const stated: unknown = annotations?.[hint];
    if (stated === false) flags.push(`!${flag}`);
    else if (stated === true && !(flag === "destructive" && annotations?.readOnlyHint === true))
      flags.push(flag);
  }
  return flags;
}

type Hint = (typeof HINT_FLAGS)[keyof typeof HINT_FLAGS];

/** `serverInfo.name` as an alias prefix: `@scope/memory-server` → `memory_server`. */
function aliasPrefix(serverName: string): string {
  const base = serverName.replace(/^@[^/]*\//, "");
  const safe = base
    .replace(/[^A-Za-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
  if (safe === "") return "upstream";
  return /^[0-9]/.test(safe) ? `_${safe}` : safe;
}

/** An upstream tool name as the last segment of an alias. */
function aliasSegment(tool: string): string {
  const safe = tool.replace(/[^A-Za-z0-9_-]/g, "_");
  return /^[A-Za-z_]/.test(safe) ? safe : `_${safe}`;
}
