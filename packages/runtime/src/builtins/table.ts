/**
 * The runtime's built-in tools as one table: for each, its forms (definition and provider
 * entries), when and where a view lists it, and how a call of it runs. Sessions, views and the
 * call pipeline consult the table; none of them names a built-in. (What a built-in is, and what it
 * sees of its session, are session/host.ts's `Builtin` and `BuiltinCaller`.)
 *
 * Order of the table = order in a view: among the built-ins a view lists first (before the
 * registry's tools) and among those it lists after them, they come in table order.
 */
import { callTool, runCallTool } from "./call-tool.js";
import { codeTool, runCodeTool } from "./code-tool.js";
import { findTool, fixedFindTool, runFindTool } from "./find-tool.js";
import { handleToolFor, runHandleCall } from "./handle-tool.js";
import type { Builtin } from "../session/host.js";

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
