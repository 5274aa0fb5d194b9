/**
 * The nesting limit of a call's arguments, checked before defaults, validators or tools read
 * them: generated validators recurse, so arguments nested 100,000 levels deep must be refused
 * first. The walk keeps its own stack: depth costs loop turns, never call-stack frames.
 */
import { member } from "../codegen/validator-helpers.js";

/** An object or array met on the walk, with how it was reached (for its path). */
interface Node {
  readonly value: object;
  readonly depth: number;
  readonly parent: Node | null;
  readonly key: string | number;
}

/**
 * The path (`$.a.b[0]`, the validators' notation) of the first object or array, in document
 * order, nested deeper than `max` levels in `args` (which is at depth 0: a parameter's value is
 * at depth 1), or null when there is none.
 */
export function tooDeepAt(args: object, max: number): string | null {
  const stack: Node[] = [{ value: args, depth: 0, parent: null, key: "" }];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.depth > max) return pathOf(node);
    const value = node.value as { [key: string]: unknown };
    const push = (item: unknown, key: string | number) => {
      if (typeof item === "object" && item !== null)
        stack.push({ value: item, depth: node!.depth + 1, parent: node!, key });
    };
    // Children go on the stack last first, so that they come off it in document order.
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) push(value[i], i);
    } else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) push(value[keys[i]!], keys[i]!);
    }
  }
  return null;
}

function pathOf(node: Node): string {
  const segments: string[] = [];
  for (let at: Node | null = node; at?.parent; at = at.parent)
    segments.push(typeof at.key === "number" ? `[${at.key}]` : member(at.key));
  return `$${segments.reverse().join("")}`;
}
