/**
 * The runtime's built-in tools as one table: for each, its forms (definition and provider
 * entries), when and where a view lists it, and how a call of it runs. Sessions, views and the
 * call pipeline consult the table; none of them names a built-in.
 *
 * Order of the table = order in a view: among the built-ins a view lists first (before the
 * registry's tools) and among those it lists after them, they come in table order.
 */
import type { CallOptions, Pending } from "./call.js";
import { callTool, runCallTool } from "./call-tool.js";
import { codeTool, runCodeTool } from "./code-tool.js";
import type { FindOptions, FoundTool } from "./find/find.js";
import { findTool, fixedFindTool, runFindTool } from "./find-tool.js";
import { handleToolFor, runHandleCall } from "./handle-tool.js";
import type { Caller, FindFormat, SessionHost } from "./host.js";
import type { ToolDefinition } from "./registry.js";
import type { CallResult } from "./result.js";
import type { BuiltinTool, View } from "./view.js";

/** What decides which built-ins a view lists. */
interface ViewRules {
  /** The surface's exposure is a `discover` profile: the session finds its tools. */
  readonly discover: boolean;
  /** The session is fixed (the stateless form): its view never changes. */
  readonly fixed: boolean;
  /** The exposure policy's `find`: every view lists `zcp.find_tools`. */
  readonly find: boolean;
  /** The runtime has a `CodeRunner`. */
  readonly code: boolean;
  /** A tool the view lets the client call (listed, or through `zcp.call_tool`) makes or takes handles. */
  readonly handles: boolean;
}

/**
 * What a built-in's `run` sees of the session that calls it. Not the session itself: `invoke`
 * calls a tool the view does not list, which only a built-in may ask for.
 */
export interface BuiltinCaller {
  /** The session, as approval and error hooks see it. */
  readonly caller: Caller;
  readonly host: SessionHost;
  /** The session's exposed view, as it is now. */
  readonly exposed: View;
  readonly fixed: boolean;
  readonly findFormat: FindFormat;
  /** Aborts when the session closes. */
  readonly closing: AbortSignal;
  /** Whether `find` may return `tool` in the session's stage: the tools `zcp.call_tool` may call. */
  findable(tool: ToolDefinition): boolean;
  find(query: string, options: FindOptions): FoundTool[];
  /** Adds found tools to a discover view (see `Session.expose`): how many became exposed. */
  expose(tools: readonly ToolDefinition[]): number;
  /**
   * `Session.call`, made by the built-in for the model: the name resolved and checked against
   * the exposed view; a tool that declares `x-mcp-header` answers `forbidden:<alias>`, since
   * only a direct call carries its headers (`header-params.ts`).
   */
  call(name: string, args: unknown, options: CallOptions): Promise<CallResult>;
  /**
   * A call of `tool` past the exposure check, made by the built-in for the model: a tool that
   * declares `x-mcp-header` answers `forbidden:<alias>`, as in `call`; else the concurrency
   * limit, then the call runs.
   */
  invoke(tool: ToolDefinition, args: unknown, options: CallOptions): Promise<CallResult>;
}

export interface Builtin {
  /** The id of every form (`zf`, `zc`, `zr`, `zh`). */
  readonly id: string;
  /** The form names resolve to (`Runtime.tool`); a view may list another form of it. */
  readonly tool: BuiltinTool;
  /** The form a view under `rules` lists, and whether before the registry's tools; undefined: not listed. */
  list(rules: ViewRules): { readonly tool: BuiltinTool; readonly first: boolean } | undefined;
  /**
   * Whether a call holds one of the session's call slots (`maxConcurrentCalls`) while it runs;
   * false for one that answers at once or whose work is another call (which holds its own).
   */
  readonly slot: boolean;
  run(session: BuiltinCaller, args: unknown, options: CallOptions): CallResult | Pending;
}

/**
 * The built-ins of a runtime whose handle store states `retention` (`HandleStore.retention`),
 * in view order: `zcp.find_tools`, `zcp.call_tool`, `zcp.run`, `zcp.handle`.
 */
export function builtinTable(retention: string | undefined): readonly Builtin[] {
  const handle = handleToolFor(retention);
  return [
    {
      id: findTool.definition.id,
      tool: findTool,
      // First in a discover view, so that the tools found are only ever appended after it;
      // a fixed discover view lists the form that says how to call what it finds.
      list: (rules) =>
        rules.discover
          ? { tool: rules.fixed ? fixedFindTool : findTool, first: true }
          : rules.find
            ? { tool: findTool, first: false }
            : undefined,
      slot: false,
      run: runFindTool,
    },
    {
      id: callTool.definition.id,
      tool: callTool,
      list: (rules) =>
        rules.discover && rules.fixed ? { tool: callTool, first: true } : undefined,
      slot: false,
      run: runCallTool,
    },
    {
      id: codeTool.definition.id,
      tool: codeTool,
      list: (rules) => (rules.code ? { tool: codeTool, first: rules.discover } : undefined),
      slot: true,
      run: runCodeTool,
    },
    {
      id: handle.definition.id,
      tool: handle,
      list: (rules) => (rules.handles ? { tool: handle, first: false } : undefined),
      slot: true,
      run: runHandleCall,
    },
  ];
}

/** The forms a view under `rules` lists before and after the registry's tools, in table order. */
export function listedBuiltins(
  table: readonly Builtin[],
  rules: ViewRules,
): { readonly first: BuiltinTool[]; readonly after: BuiltinTool[] } {
  const first: BuiltinTool[] = [];
  const after: BuiltinTool[] = [];
  for (const builtin of table) {
    const listed = builtin.list(rules);
    if (listed) (listed.first ? first : after).push(listed.tool);
  }
  return { first, after };
}
