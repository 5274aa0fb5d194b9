/**
 * The contract of the generated dispatch table (`dispatch.ts`, written by `zcp gen`): a function
 * per tool id that calls the real, statically imported tool function. The runtime calls it with
 * validated arguments (handle ids already resolved to `Handle` objects) and the call's context.
 */
import type { ToolContext } from "./context.js";

export type ToolArguments = { readonly [name: string]: unknown };

export type Dispatcher = (args: ToolArguments, context: ToolContext) => unknown;

export type DispatchTable = { readonly [toolId: string]: Dispatcher };

/**
 * A copy of `value` with the ISO strings at `paths` turned into `Date`s (see
 * `ToolDefinition.dates`): dotted paths, `""` for the value itself, `[]` for every array item,
 * `*` for every map value. Values that are not strings, or absent, are left as they are.
 */
export function reviveDates(value: unknown, paths: readonly string[]): unknown {
  let out = value;
  for (const path of paths) out = reviveAt(out, path === "" ? [] : path.split("."));
  return out;
}

function reviveAt(value: unknown, segments: readonly string[]): unknown {
  if (segments.length === 0) return typeof value === "string" ? new Date(value) : value;
  if (value === null || typeof value !== "object") return value;
  const [segment, ...rest] = segments as [string, ...string[]];
  if (segment === "[]")
    return Array.isArray(value) ? value.map((item) => reviveAt(item, rest)) : value;
  if (segment === "*") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, reviveAt(item, rest)]),
    );
  }
  const tuple = /^\[(\d+)\]$/.exec(segment);
  if (tuple && Array.isArray(value)) {
    const index = Number(tuple[1]);
    return value.map((item, i) => (i === index ? reviveAt(item, rest) : item));
  }
  const record = value as { [key: string]: unknown };
  if (!(segment in record)) return value;
  return { ...record, [segment]: reviveAt(record[segment], rest) };
}
