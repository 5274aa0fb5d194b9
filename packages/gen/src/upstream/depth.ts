/**
 * upstream: the nesting limit of a listed schema, the first check on an upstream tool. Everything
 * after it (the dialect, the planner line, the validator compiler) walks schemas by recursion, so
 * a listing nested thousands of levels deep would overflow the call stack and end the whole run;
 * this walk keeps its own stack (no longer than the listing has values), so depth costs it loop
 * turns, never frames. The limit is the one the runtime sets on a call's arguments
 * (`DEFAULT_MAX_ARGUMENT_DEPTH`), counted the same way.
 */
import { DEFAULT_MAX_ARGUMENT_DEPTH } from "@zcp/runtime";

/** The deepest a listed schema may nest: the schema is at depth 0, its `properties` at 1... */
export const MAX_SCHEMA_DEPTH = DEFAULT_MAX_ARGUMENT_DEPTH;

/** Whether some object or array in `value` (at depth 0) is nested deeper than `max` levels. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: { readonly value: unknown; readonly depth: number }[] = [{ value, depth: 0 }];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (typeof node.value !== "object" || node.value === null) continue;
    if (node.depth > max) return true;
    for (const item of Object.values(node.value))
      stack.push({ value: item, depth: node.depth + 1 });
  }
  return false;
}
