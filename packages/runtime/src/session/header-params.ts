/**
 * `x-mcp-header` (MCP 2026-07-28, SEP-2243): a tool whose MCP input schema marks a parameter
 * `x-mcp-header: "Region"` has its clients mirror that argument into the HTTP header
 * `Mcp-Param-Region` of the `tools/call` request, so that intermediaries route and police on it
 * without reading the body; `@zcp/server` refuses a request whose headers and body disagree.
 *
 * Only a direct `tools/call` of such a tool carries its headers: a call made inside another
 * tool (`zcp.call_tool`, a `zcp.run` program) has the outer tool's request, whose schema declares
 * none, so an intermediary would see nothing. A session therefore calls such a tool only
 * directly (`calledOnlyDirectly` answers the others), and a fixed discover view lists it.
 *
 * The declarations are read as the server checks them: each `x-mcp-header` reached from the
 * schema root through `properties` keys alone whose value is an HTTP token (RFC 9110 `1*tchar`).
 * One anywhere else (under `items`, `oneOf`, `$ref`, ...) names no single value and makes the
 * tool invalid for clients, which leave it out: it declares nothing. (The MCP entry's input
 * schema is the definition's own, `artifacts/mcp.ts`.)
 */
import type { ToolDefinition } from "../definition/registry.js";
import { failure, type CallError } from "../results/result.js";

/** One `x-mcp-header` a client mirrors: the header's name and the argument's path. */
export interface HeaderDeclaration {
  /** `Mcp-Param-{Name}`, as declared. */
  readonly header: string;
  /** Property names from `arguments` to the value. */
  readonly path: readonly string[];
}

/** RFC 9110 section 5.1 `token`: what `x-mcp-header` must be (and a header name can be). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Each schema's declarations (definitions are never changed): a schema is walked once, and the
 * map holds no schema longer than its registry does.
 */
const DECLARATIONS = new WeakMap<object, readonly HeaderDeclaration[]>();

/** The `x-mcp-header` declarations of an input schema, in schema order (none for a non-object). */
export function headerDeclarations(schema: unknown): readonly HeaderDeclaration[] {
  if (!isObject(schema)) return [];
  let found = DECLARATIONS.get(schema);
  if (found === undefined) {
    const declarations: HeaderDeclaration[] = [];
    collect(schema, [], declarations);
    DECLARATIONS.set(schema, (found = declarations));
  }
  return found;
}

/** Whether `tool`'s parameters travel in HTTP headers too: a call of it must be direct. */
export function declaresHeaders(tool: ToolDefinition): boolean {
  return headerDeclarations(tool.inputSchema).length > 0;
}

/** The answer to a call of `tool` (one that `declaresHeaders`) made inside another tool. */
export function calledOnlyDirectly(tool: ToolDefinition): CallError {
  return failure(
    `forbidden:${tool.alias}`,
    "its parameters travel in HTTP headers (x-mcp-header), which only a direct call of it carries: call it directly",
  );
}

/** Adds the declarations under `schema`, reached through `path` (`properties` keys only). */
function collect(schema: unknown, path: readonly string[], into: HeaderDeclaration[]): void {
  if (!isObject(schema)) return;
  const name = schema["x-mcp-header"];
  if (path.length > 0 && typeof name === "string" && TOKEN.test(name))
    into.push({ header: `Mcp-Param-${name}`, path });
  const properties = schema["properties"];
  if (!isObject(properties)) return;
  for (const [key, child] of Object.entries(properties)) collect(child, [...path, key], into);
}

function isObject(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
