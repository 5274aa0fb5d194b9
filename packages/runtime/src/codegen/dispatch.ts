/**
 * The contract of the generated dispatch table (`dispatch.ts`, written by `zcp gen`): a function
 * per tool id that calls the real, statically imported tool function. The runtime calls it with
 * validated arguments (handle ids already resolved to `Handle` objects) and the call's context.
 */
import type { ToolContext } from "./context.js";
import type { Handle } from "../definition/brands.js";

export type ToolArguments = { readonly [name: string]: unknown };

export type Dispatcher = (args: ToolArguments, context: ToolContext) => unknown;

export type DispatchTable = { readonly [toolId: string]: Dispatcher };

/**
 * The dispatch table of a generated module, as the runtime calls it. Each generated dispatcher
 * takes its own tool's arguments (`ToolArgs[alias]` of `types.ts`, handles resolved: see
 * `WithHandles`), so that tsc checks every argument against the tool function's parameter; a
 * dispatcher of any argument type fits here (a parameter of type `never`).
 */
export function dispatchTable(table: {
  readonly [toolId: string]: (args: never, context: ToolContext) => unknown;
}): DispatchTable {
  // The one place where arguments of type unknown meet a dispatcher's argument type. It holds
  // because the runtime dispatches only arguments that passed the tool's generated validator,
  // printed from the same input schema as the type, with handle ids resolved to `Handle`s.
  return table as DispatchTable;
}

/**
 * `A`, a tool's arguments as sent (`types.ts`: a handle is its id), as its dispatcher receives
 * them: each parameter named in `H` is a `Handle` of the kind given there (`string`: any kind).
 * A handle's value is whatever the tool that made it returned, which no schema describes: it is
 * `never` here, so that the receiving function's own claim (`Handle<"table", Row[]>`) stands.
 */
export type WithHandles<A, H extends { readonly [name: string]: string }> = {
  [K in keyof A]: K extends keyof H ? Handle<H[K], never> : A[K];
};

/**
 * `value`, which passed the validator of a parameter declared `D` (the call gives `D`), as a `D`,
 * where the parameter's schema, and so the type `types.ts` prints from it, cannot state `D`
 * exactly: a string enum (nominal), a template literal type (a pattern), an array type with
 * members of its own, an object with symbol or template keys. tsc checks that the two types are
 * comparable, as it checks a cast between typed values: one is assignable to the other. That
 * catches a parameter whose type changed after `zcp gen`, not one that only narrowed.
 */
export function asDeclared<D, S>(value: S & NoInfer<Comparable<S, D>>): D {
  return value as unknown as D;
}

/** `unknown` when one of `S` and `D` is assignable to the other, else `never`. */
type Comparable<S, D> = [S] extends [D] ? unknown : [D] extends [S] ? unknown : never;

/**
 * `T` with the strings at `P` (paths of `reviveDates`, a union) as `Date`s: the type
 * `reviveDates` returns, which a generated dispatcher passes on to its tool function.
 */
type Revived<T, P extends string> = [P] extends [never]
  ? T
  : "" extends P
    ? T extends string
      ? Date
      : T
    : T extends readonly unknown[]
      ? { [I in keyof T]: Revived<T[I], Step<P, "[]"> | Step<P, `[${I & string}]`>> }
      : T extends object
        ? {
            [K in keyof T]: Revived<
              T[K],
              string extends K ? Step<P, "*"> : Step<P, K & string> | Step<P, "*">
            >;
          }
        : T;

/** The rest of each path in `P` whose first segment (up to a dot) is `S`; `""` if it is all of it. */
type Step<P extends string, S extends string> = P extends `${infer H}.${infer R}`
  ? H extends S
    ? R
    : never
  : P extends S
    ? ""
    : never;

/**
 * A copy of `value` with the ISO strings at `paths` turned into `Date`s (see
 * `ToolDefinition.dates`): dotted paths, `""` for the value itself, `[]` for every array item,
 * `*` for every map value. Values that are not strings, or absent, are left as they are.
 */
export function reviveDates<T, const P extends readonly string[]>(
  value: T,
  paths: P,
): Revived<T, P[number]>;
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
