import type { HANDLE_BRAND } from "../definition/brands.js";
import type { ToolDefinition } from "../definition/registry.js";

/**
 * A handle reference parameter. The model passes a handle id such as `"#T1"`; before the call,
 * the runtime looks the id up in the caller's session, checks its kind and expiry, and passes
 * this resolved object to the tool. `zcp gen` recognises the type by its brand property and
 * gives the parameter a handle-id string schema.
 *
 * @example
 * export function sumColumn(rows: Handle<"table", Row[]>, column: string): number
 */
export interface Handle<K extends string = string, T = unknown> {
  /** Brand that marks handle parameters for `zcp gen`: the expected kind. */
  readonly [HANDLE_BRAND]: K;
  readonly id: string;
  readonly kind: K;
  readonly value: T;
}

// A number that must be an integer: `zcp gen` emits `"type": "integer"` for it. (A line
// comment on purpose: a type alias's JSDoc text becomes the description of every use.)
/** @type integer */
export type Integer = number;

/**
 * Whether a view of `tools` needs `zcp.handle`: one of them produces handles (an `auto` tool
 * does not when `inlineMaxBytes` is infinite: every result is inline) or takes them.
 */
export function makesOrTakesHandles(
  tools: readonly ToolDefinition[],
  inlineMaxBytes: number,
): boolean {
  const autoMakesHandles = Number.isFinite(inlineMaxBytes);
  return tools.some(
    (tool) =>
      tool.outputMode === "handle" ||
      (tool.outputMode === "auto" && autoMakesHandles) ||
      Object.keys(tool.handleParams).length > 0,
  );
}
