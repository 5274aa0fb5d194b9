/**
 * `mcp-search-execute`, the second code-mode anchor: Cloudflare's design for large APIs, two
 * tools, `search` (the model writes a program that filters the API's spec and returns only what
 * it needs) and `execute` (a program that calls the API), as Cloudflare's MCP server for its own
 * API serves it (github.com/cloudflare/mcp, src/tools/search.ts and execute.ts; announced in
 * "Code Mode: give agents an entire API in 1,000 tokens", blog.cloudflare.com). It is built with
 * `openApiMcpServer` from `@cloudflare/codemode` 0.5.6, Cloudflare's own packaging of that design:
 * its tool descriptions, its sandbox wrapper (`codemode.spec()` with `$ref`s resolved,
 * `codemode.request()`), and its result text, unchanged. What it needs from us:
 *
 * - the spec: the plain MCP server's listing as an OpenAPI document (`catalogSpec`), one `POST
 *   /tools/<name>` operation per tool: its description, the first sentence as the summary, the
 *   alias's first segment as its tag, the `inputSchema` as the JSON request body, the
 *   `outputSchema` (when listed) as the 200 response;
 * - `request`: a `POST /tools/<name>` is a `tools/call` of that tool on the plain MCP server, its
 *   result unwrapped as `codeMcpServer` unwraps one (an error throws in the program);
 * - an executor: our sandbox, as for the other code surfaces (codemode.ts, `codemodeExecutor`).
 *
 * How the agent searches (`searchCalls`, `detailCalls`), as the search tool's own examples do:
 * one `search` program per round lists, for each query, the five operations that score best
 * (`{ method, path, summary }`), then one more reads the chosen operations' description and
 * request body. The score is the one a short program can compute: the query's words found in an
 * operation's path, summary and description, each weighted by how rare it is among operations.
 */
import type { McpTool as Tool } from "./mcp-listing.ts";
import type { Runtime } from "@zcp/runtime";
import { firstSentence, providerName } from "@zcp/runtime/definition";
import type { Call } from "./spec.ts";

/** The path of a tool's operation in the spec. */
const operationPath = (name: string) => `/tools/${name}`;
const PATH_PREFIX = operationPath("");

/** A JSON pointer's token (`/` and `~` escaped). */
const token = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * `schema` placed at `pointer` in the spec: its local `$ref`s (`#/...`, relative to the tool's
 * schema) rewritten to point into the spec, where the spec's resolver looks them up.
 */
function rebase(schema: unknown, pointer: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => rebase(item, pointer));
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === "$ref" && typeof value === "string" && value.startsWith("#")
        ? `#${pointer}${value.slice(1)}`
        : rebase(value, pointer),
    ]),
  );
}

/** The plain MCP server's tools as an OpenAPI 3.1 document, one POST operation each. */
export function catalogSpec(tools: readonly Tool[], runtime: Runtime): Record<string, unknown> {
  const paths = Object.fromEntries(
    tools.map((tool) => {
      const description = tool.description ?? "";
      const at = `/paths/${token(operationPath(tool.name))}/post`;
      const json = `content/${token("application/json")}/schema`;
      return [
        operationPath(tool.name),
        {
          post: {
            operationId: tool.name,
            summary: firstSentence(description),
            description,
            tags: [runtime.tool(tool.name)!.alias.split(".")[0]!],
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: rebase(tool.inputSchema, `${at}/requestBody/${json}`),
                },
              },
            },
            responses: {
              "200": {
                description: "The tool's result.",
                ...(tool.outputSchema
                  ? {
                      content: {
                        "application/json": {
                          schema: rebase(tool.outputSchema, `${at}/responses/200/${json}`),
                        },
                      },
                    }
                  : {}),
              },
            },
          },
        },
      ];
    }),
  );
  return { openapi: "3.1.0", info: { title: "MCP tools", version: "1.0.0" }, paths };
}

/** What `codemode.request` options carry (the subset a tool call uses). */
interface RequestOptions {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
}

/** A `CallToolResult` as the program reads it: as `codeMcpServer` unwraps one (an error throws). */
function unwrap(answer: unknown): unknown {
  const result = answer as { isError?: boolean; structuredContent?: unknown; content?: unknown };
  const blocks = (result.content ?? []) as { type: string; text?: string }[];
  const text = blocks
    .filter((block) => block.type === "text")
    .map((block) => block.text ?? "")
    .join("\n");
  if (result.isError === true) throw new Error(text || "Tool call failed");
  if (result.structuredContent != null) return result.structuredContent;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `openApiMcpServer`'s `request`: a POST of a tool's operation calls that tool through `callTool`. */
export const toolRequest =
  (callTool: (params: { name: string; arguments: Record<string, unknown> }) => Promise<unknown>) =>
  async (options: RequestOptions): Promise<unknown> => {
    if (options.method !== "POST" || !options.path.startsWith(PATH_PREFIX))
      throw new Error(
        `no operation ${options.method} ${options.path}: tools are POST /tools/<name>`,
      );
    const name = options.path.slice(PATH_PREFIX.length);
    return unwrap(
      await callTool({ name, arguments: (options.body ?? {}) as Record<string, unknown> }),
    );
  };

/** The five operations each query scores best on, as the model's `search` program finds them. */
const LIST_PROGRAM = (queries: readonly string[]) => `async () => {
  const spec = await codemode.spec();
  const queries = ${JSON.stringify(queries)};
  const words = (text) => new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 2));
  const ops = [];
  for (const [path, methods] of Object.entries(spec.paths))
    for (const [method, op] of Object.entries(methods))
      ops.push({ method: method.toUpperCase(), path, summary: op.summary, words: words(path + " " + op.summary + " " + op.description) });
  const df = new Map();
  for (const op of ops) for (const w of op.words) df.set(w, (df.get(w) ?? 0) + 1);
  return queries.map((query) => {
    const ws = [...words(query)];
    return ops
      .map((op) => ({ op, score: ws.reduce((s, w) => s + (op.words.has(w) ? Math.log(ops.length / df.get(w)) : 0), 0) }))
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, 5)
      .map(({ op }) => ({ method: op.method, path: op.path, summary: op.summary }));
  });
}`;

/** The description and request body of each chosen operation. */
const DETAIL_PROGRAM = (paths: readonly string[]) => `async () => {
  const spec = await codemode.spec();
  return ${JSON.stringify(paths)}.map((path) => {
    const op = spec.paths[path].post;
    return { path, description: op.description, body: op.requestBody.content["application/json"].schema };
  });
}`;

/** The tool names of the operations a `search` result lists (the paths it answered). */
export function foundNames(value: unknown): string[] {
  const paths = JSON.stringify(value ?? null).match(/"path": ?"\/tools\/[^"]+"/g) ?? [];
  return paths.map((entry) => entry.slice(entry.indexOf(PATH_PREFIX) + PATH_PREFIX.length, -1));
}

/** One round of searches: one `search` program for all of the round's queries. */
export const searchCalls = (queries: readonly string[]): Call[] => [
  { alias: "search", args: { code: LIST_PROGRAM(queries) } },
];

/** After the searches, the one `search` that reads what the chosen tools take. */
export const detailCalls = (names: readonly string[]): Call[] => [
  { alias: "search", args: { code: DETAIL_PROGRAM(names.map(operationPath)) } },
];

/**
 * How the case's program is written for `execute` (programs.ts): an async arrow function, as the
 * tool's description asks, with a one-line helper that POSTs a tool's operation, so that each
 * call reads `await op("/tools/<name>")({ ... })`.
 */
export const EXECUTE_FORM = {
  tool: "execute",
  name: (alias: string) => `op(${JSON.stringify(operationPath(providerName(alias)))})`,
  code: (body: string) =>
    `async () => {\nconst op = (path) => (body) => codemode.request({ method: "POST", path, body });\n${body}\n}`,
};
