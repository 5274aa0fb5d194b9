/**
 * The real-world tool listings in fixtures/corpus (see its SOURCE.md), read as registries of
 * MCP tools `{name, description, inputSchema}`. BFCL's Python-flavoured schema types are mapped
 * to JSON Schema (`dict` → object, `float` → number, `tuple` → array, `any` → no type).
 */
import fs from "node:fs";
import path from "node:path";

export type JsonSchema = { readonly [keyword: string]: unknown };

export interface McpTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

export interface Registry {
  readonly name: string;
  /** Where it comes from, for the report. */
  readonly source: string;
  /** Listings: one for an MCP server or API suite; one per question for BFCL live-simple. */
  readonly listings: readonly (readonly McpTool[])[];
}

const BFCL_TYPES: Record<string, string | undefined> = {
  dict: "object",
  float: "number",
  tuple: "array",
  any: undefined,
};

/** A BFCL parameter schema as JSON Schema: its own type names mapped, recursively. */
export function bfclToJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(bfclToJsonSchema);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "type" && typeof value === "string" && value in BFCL_TYPES) {
      const mapped = BFCL_TYPES[value];
      if (mapped !== undefined) out.type = mapped;
    } else if (key === "properties" && typeof value === "object" && value !== null) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [name, bfclToJsonSchema(property)]),
      );
    } else if (
      key === "items" ||
      key === "additionalProperties" ||
      key === "anyOf" ||
      key === "oneOf"
    ) {
      out[key] = bfclToJsonSchema(value);
    } else out[key] = value;
  }
  return out;
}

function mcpTool(raw: {
  name: string;
  description?: string | null;
  inputSchema?: JsonSchema | null;
}): McpTool {
  return {
    name: raw.name,
    description: raw.description ?? "",
    inputSchema: raw.inputSchema ?? { type: "object" },
  };
}

function bfclTool(raw: { name: string; description?: string; parameters?: unknown }): McpTool {
  return {
    name: raw.name,
    description: raw.description ?? "",
    inputSchema: bfclToJsonSchema(raw.parameters ?? { type: "dict" }) as JsonSchema,
  };
}

const jsonLines = (file: string): unknown[] =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);

interface LiveMcpServer {
  readonly name: string;
  readonly tools: Record<string, { tools: Parameters<typeof mcpTool>[0][] }>;
}

/** Every registry of the corpus, in report order. */
export function loadCorpus(dir: string): Registry[] {
  const registries: Registry[] = [];
  const github = JSON.parse(
    fs.readFileSync(path.join(dir, "github-mcp-server-tools.json"), "utf8"),
  ) as { tools: Parameters<typeof mcpTool>[0][] };
  registries.push({
    name: "github-mcp-server",
    source: "github/github-mcp-server tool snapshots",
    listings: [github.tools.map(mcpTool)],
  });

  const servers = JSON.parse(
    fs.readFileSync(path.join(dir, "livemcptool-tools.json"), "utf8"),
  ) as LiveMcpServer[];
  registries.push({
    name: "LiveMCPBench servers",
    source: "icip-cas/LiveMCPBench LiveMCPTool, one listing per server",
    listings: servers
      .map((server) => Object.values(server.tools).flatMap((entry) => entry.tools.map(mcpTool)))
      .filter((tools) => tools.length > 0),
  });

  const suites = path.join(dir, "bfcl-multi-turn-func-doc");
  for (const file of fs
    .readdirSync(suites)
    .filter((name) => name.endsWith(".json"))
    .sort()) {
    const tools = jsonLines(path.join(suites, file)).map((raw) =>
      bfclTool(raw as Parameters<typeof bfclTool>[0]),
    );
    registries.push({
      name: `BFCL ${file.replace(/\.json$/, "")}`,
      source: "BFCL v4 multi-turn function docs",
      listings: [tools],
    });
  }

  const questions = jsonLines(path.join(dir, "bfcl-v4-live-simple.json")) as {
    function: Parameters<typeof bfclTool>[0][];
  }[];
  registries.push({
    name: "BFCL live-simple",
    source: "BFCL v4 live simple, one listing per question",
    listings: questions.map((q) => q.function.map(bfclTool)),
  });
  return registries;
}
