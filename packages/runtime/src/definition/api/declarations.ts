/**
 * The API text: the TypeScript declarations of a view's tools as a program calls them
 * (`tools.<alias>(args)`, nested by the alias's dots), for a model that writes code against the
 * tools (`zcp.run`). Layout and decisions are in docs/code-mode.md ("API text").
 */
import { firstSentence } from "../planner/sentence.js";
import type { SourceLocation, ToolDefinition } from "../registry.js";
import { printKey, width } from "./print.js";
import { pascalCase, TypePrinter, type SchemaNode } from "./printer.js";

/** The alias of the built-in that runs programs: never part of the API text (programs run inside it). */
export const CODE_TOOL_ALIAS = "zcp.run";

/**
 * Names a declared type never takes: `Handle`, `ContentBlock`, and the global types of JavaScript a program or
 * the text itself names (a shape titled `Date` would merge with the global `Date` interface): a
 * shape with one of these TypeScript names is declared as `Date2`.
 */
const RESERVED_NAMES = [
  "Handle",
  "ContentBlock",
  "Array",
  "Boolean",
  "Date",
  "Error",
  "Function",
  "JSON",
  "Map",
  "Math",
  "Number",
  "Object",
  "Promise",
  "Record",
  "RegExp",
  "Set",
  "String",
  "Symbol",
];

/** The name of the global object a program reaches the tools through. */
const TOOLS_GLOBAL = "tools";

const HANDLE_DOC =
  "/** A result kept on the server: pass it (or its handle id) where a Handle is taken; read it with tools.zcp.handle. */\n";
const HANDLE_INTERFACE = "interface Handle { handle: string; summary: string; count?: number }\n";
const CONTENT_DOC =
  "/** An MCP content block: text, an image or audio (base64 data), a resource or a link. */\n";
const CONTENT_INTERFACE =
  'interface ContentBlock { type: "text" | "image" | "audio" | "resource" | "resource_link"; [field: string]: unknown }\n';

/**
 * What the API text reads of a tool: a `ToolDefinition`, or one as a `tools/list` `json`
 * listing carries it (without `source`).
 */
export type DeclaredTool = Omit<ToolDefinition, "source"> & { readonly source?: SourceLocation };

export interface DeclarationOptions {
  /** false: no documentation comments (the bare declarations). Default true. */
  readonly docs?: boolean;
}

/** The API text and its parts, for reports that count them separately. */
export interface ApiText {
  /** The whole text: the named types, then `declare const tools: {...};`. Ends with a newline. */
  readonly text: string;
  /** The named types' declarations in text order (`Handle` first when any tool uses handles). */
  readonly types: readonly string[];
  /**
   * Each tool's declaration as it appears in the text (its doc comment and signature lines,
   * indentation included, without the final newline), by alias, in text order.
   */
  readonly tools: ReadonlyMap<string, string>;
}

/** A namespace of the `tools` object: its members by segment, and the tool at its own alias, if any. */
interface Namespace {
  tool?: DeclaredTool;
  readonly children: Map<string, Namespace>;
}

/**
 * The API text of `tools` (see `renderApi`): the declarations a program written against them
 * reads. Deterministic: equal tool lists give equal texts.
 *
 * ```ts
 * const text = renderDeclarations(registry.tools);
 * // interface WriteResult { sheet: string; ... }
 * // declare const tools: { excel: { write_data_to_excel(args: {...}): Promise<WriteResult>; ... } };
 * ```
 */
export function renderDeclarations(
  tools: readonly DeclaredTool[],
  options: DeclarationOptions = {},
): string {
  return renderApi(tools, options).text;
}

/**
 * The API text of `tools` with its parts. Tools nest by the dots of their aliases
 * (`tools.excel.write_data_to_excel(args)`), in the order given; `zcp.run` is skipped. Each tool
 * is a method taking one argument object, inline, and answering a `Promise` of its value:
 * typed from `outputSchema` (`void` without one, `unknown` for a runtime built-in), `Handle`
 * for a `handle`-mode tool, `ContentBlock[]` for a content tool. Object shapes with a TypeScript name and `$defs` are declared once,
 * before `tools`; `Handle` first when a tool takes or answers handles.
 */
export function renderApi(
  tools: readonly DeclaredTool[],
  options: DeclarationOptions = {},
): ApiText {
  const docs = options.docs !== false;
  const printer = new TypePrinter({ style: "declarations", docs });
  for (const name of RESERVED_NAMES) printer.reserve(name, "shape");
  const root: Namespace = { children: new Map() };
  for (const tool of tools) {
    if (tool.alias === CODE_TOOL_ALIAS) continue;
    let node = root;
    for (const segment of tool.alias.split(".")) {
      let child = node.children.get(segment);
      if (child === undefined) node.children.set(segment, (child = { children: new Map() }));
      node = child;
    }
    node.tool ??= tool;
  }
  const byAlias = new Map<string, string>();
  let handles = false;
  let content = false;

  const signature = (tool: DeclaredTool, head: string, indent: string): string => {
    const input = tool.inputSchema as SchemaNode;
    const base = pascalCase(tool.alias);
    printer.defs(input, base);
    const optional = ((input.required ?? []) as unknown[]).length === 0 ? "?" : "";
    const prefix = `${head}(args${optional}: `;
    const args = printer.objectLiteral(
      input,
      `${base}Args`,
      indent,
      width(indent) + width(prefix),
      tool.handleParams,
    );
    let result: string;
    if (tool.content !== undefined) {
      // A program gets a content tool's blocks, always as an array.
      content = true;
      result = "ContentBlock[]";
    } else if (tool.outputMode === "handle") {
      handles = true;
      result = "Handle";
    } else if (tool.outputSchema === null) {
      // The `zcp.` namespace is the runtime's built-ins' (ZCP1404): their answers have no schema.
      result = tool.alias.startsWith("zcp.") ? "unknown" : "void";
    } else {
      printer.defs(tool.outputSchema as SchemaNode, `${base}Result`);
      result = printer.type(tool.outputSchema as SchemaNode, `${base}Result`);
    }
    const deprecated =
      tool.deprecated === null
        ? ""
        : `@deprecated${tool.deprecated === "" ? "" : ` ${firstSentence(tool.deprecated)}`}`;
    const sentence = printer.jsDoc(tool.description, indent);
    const comment =
      deprecated === "" || !docs
        ? sentence
        : sentence === ""
          ? `${indent}/** ${deprecated.replace(/\*\//g, "*\\/")} */\n`
          : sentence.replace(/ \*\/\n$/, ` ${deprecated.replace(/\*\//g, "*\\/")} */\n`);
    const text = `${comment}${indent}${prefix}${args}): Promise<${result}>;`;
    byAlias.set(tool.alias, text);
    return text;
  };

  const body = (node: Namespace, indent: string): string => {
    const lines: string[] = [];
    if (node.tool !== undefined) lines.push(signature(node.tool, "", indent));
    for (const [segment, child] of node.children) {
      const key = printKey(segment);
      if (child.children.size === 0 && child.tool !== undefined) {
        lines.push(signature(child.tool, key, indent));
      } else {
        lines.push(`${indent}${key}: ${body(child, `${indent}  `)};`);
      }
    }
    return lines.length === 0 ? "{}" : `{\n${lines.join("\n")}\n${indent.slice(2)}}`;
  };

  const declared = `declare const ${TOOLS_GLOBAL}: ${body(root, "  ")};\n`;
  const types = [
    ...(handles || printer.usesHandles ? [`${docs ? HANDLE_DOC : ""}${HANDLE_INTERFACE}`] : []),
    ...(content ? [`${docs ? CONTENT_DOC : ""}${CONTENT_INTERFACE}`] : []),
    ...printer.declarations,
  ];
  return { text: [...types, declared].join(""), types, tools: byAlias };
}
