/**
 * compile: the generated validators (`validators.ts`), as code (`code.ts`) for emit to lay out.
 * Each tool's input schema becomes one specialised function, `validate_<name>(input)` (the tool's
 * name part, `toolNames`: `validate_weather_get_current`), that checks the arguments with plain
 * code (no schema is read at run time) and returns the value to call the tool with or the first
 * error (the `ValidationResult` contract of `@zcp/runtime`). Recursive types (`$defs`) become one
 * function each (`validate_<name>$Name`); a named object type (an interface: a schema with a
 * `title`) becomes one function shared by all its uses (`shared.ts`: `check$Address$<sha256>`);
 * schemas nested deeper than a few levels move to functions of their own (`validate_<name>$1`),
 * so that lines stay short. A tool's code depends on its definition and name only, a shared
 * type's on its schema only: watch mode reuses both (the pipeline's memo).
 *
 * Semantics are JSON Schema 2020-12's (the keywords of `schema.ts`; an upstream's other keywords
 * are left out by `reduce.ts`), plus two documented coercions: a string holding a JSON number
 * becomes that number where the schema allows a number and not a string, and "true"/"false"
 * become booleans where it allows a boolean and not a string, except inside the tests whose
 * outcome alone counts (`not`, `if`, `oneOf`, `contains`: `conditions.ts`), which see the value
 * as it is. Coerced values are copied on write; the input is never mutated.
 *
 * Errors are `missing:<path>` or `invalid:<path>` with a `$`-rooted path (`$.rows[2].qty`,
 * `$["a b"]`); the first error is reported: within an object, its properties in schema order
 * (missing or invalid), then its other keys in input order; within an array, its length, then
 * its items in order; `anyOf` reports at its own path when no branch fits. The helpers the code
 * calls (`invalid`, `isObject`, `toNumber`...) are imported from `@zcp/runtime/codegen`.
 *
 * One module per concern: `node.ts` (any schema), `scalars.ts`, `arrays.ts`, `objects.ts`,
 * `any-of.ts`, `conditions.ts` (each kind's keywords), `coercion.ts`, `hints.ts`, `shared.ts`,
 * `builder.ts`, `walk.ts` (where schemas hold schemas), `reduce.ts`.
 */
import type { JsonValue, ToolDefinition } from "@zcp/runtime/definition";
import { toolNames } from "../../model/index.js";
import { CodeBuilder, ROOT, RETURN } from "./builder.js";
import type { FunctionCode, ValidatorCode, ValidatorSet } from "./code.js";
import { settleDefCoercion } from "./coercion.js";
import { node } from "./node.js";
import { reduce } from "./reduce.js";
import { isSchema, type Schema } from "./schema.js";
import { unit, validatorCode, type Def, type Unit } from "./unit.js";
import { pointerToken, refsIn, resolveRef } from "./walk.js";

export type { FunctionCode, Part, Statement, ValidatorCode, ValidatorSet } from "./code.js";

/** The per-tool and per-type work of `compileValidators`: pure functions, memoized in watch mode. */
export interface ValidatorSteps {
  tool(tool: ToolDefinition, fn: string): ValidatorCode;
  shared(name: string, schema: Schema): ValidatorCode;
}

export const VALIDATOR_STEPS: ValidatorSteps = {
  tool: compileToolValidator,
  shared: compileSharedValidator,
};

/**
 * Every tool's validator (in tool order) and the functions of the shared types they reach. A
 * shared type's function name holds the whole hash of its schema (`shared.ts`): one name is one
 * type, compiled once.
 */
export function compileValidators(
  tools: readonly ToolDefinition[],
  steps: ValidatorSteps = VALIDATOR_STEPS,
  config: JsonValue | null = null,
): ValidatorSet {
  const names = toolNames(tools);
  const compiled = tools.map((tool) => {
    const fn = `validate_${names.get(tool)!}`;
    return { id: tool.id, fn, code: steps.tool(tool, fn) };
  });
  // Tool names have no `$`: the configuration's function is named apart from every tool's.
  const configCode = config && {
    fn: CONFIG_VALIDATOR,
    code: compileSchemaValidator(config, CONFIG_VALIDATOR, "server configuration"),
  };
  const shared = new Map<string, ValidatorCode>();
  const queue: ValidatorCode[] = compiled.map((entry) => entry.code);
  if (configCode) queue.push(configCode.code);
  for (let i = 0; i < queue.length; i++) {
    for (const [name, schema] of queue[i]!.shared) {
      if (shared.has(name)) continue;
      const code = steps.shared(name, schema);
      shared.set(name, code);
      queue.push(code);
    }
  }
  return { tools: compiled, shared, ...(configCode ? { config: configCode } : {}) };
}

/** The function that validates the server configuration (`ToolContext<Config>`). */
const CONFIG_VALIDATOR = "validate$config";

/**
 * A tool's validator, `fn` (`validate_<name>`), then a function per `$defs` entry
 * (`defFunctionName`: `validate_<name>$Name`) and per other schema a `$ref` points at
 * (`validate_<name>$$<n>`), then its outlined functions (`validate_<name>$1`...), then the
 * strict variants of referenced functions that strict tests call (`<function>$strict`). Tool
 * names have no `$`; `$defs` names in function names have none either. A listed schema (an
 * upstream tool's, `mcp:` source) is compiled as `reduce` leaves it, the upstream model warning
 * of what it left out; in a TypeScript tool's schema, which extract writes, a keyword the
 * compiler does not check is an error.
 */
export function compileToolValidator(tool: ToolDefinition, fn: string): ValidatorCode {
  const { schema: root, dropped } = reduce(tool.inputSchema as JsonValue);
  if (dropped.length > 0 && !tool.source.file.startsWith("mcp:"))
    throw new Error(
      `zcp gen: generated validators do not support "${dropped[0]!.keyword}" (${tool.alias})`,
    );
  return compileRoot(root, fn, tool.alias);
}

/**
 * The validator `fn` of an object schema that extract wrote for something other than a tool (a
 * prompt's arguments, a template's variables: `owner` names it in comments).
 */
export function compileSchemaValidator(
  schema: Schema | JsonValue,
  fn: string,
  owner: string,
): ValidatorCode {
  const { schema: root, dropped } = reduce(schema as JsonValue);
  if (dropped.length > 0)
    throw new Error(
      `zcp gen: generated validators do not support "${dropped[0]!.keyword}" (${owner})`,
    );
  return compileRoot(root, fn, owner);
}

function compileRoot(root: JsonValue, fn: string, owner: string): ValidatorCode {
  const state = unit(fn, owner);
  referencedFunctions(state, fn, root);
  settleDefCoercion(state);
  const main = new CodeBuilder(state, node);
  const result = node(main, root, "input", ROOT, RETURN, { root: true });
  main.line(`return { ok: true, value: ${result} };`);
  const functions: FunctionCode[] = [{ name: fn, doc: owner, params: "input", body: main.body }];
  for (const def of new Set(state.defs.values()))
    functions.push(pathFunction(state, def.fn, def.schema, def.doc));
  outlinedFunctions(state, functions);
  // A strict variant's code can call further ones: the map grows while it is walked.
  for (const [def, strictFn] of state.strictDefs)
    functions.push(pathFunction(state, strictFn, def.schema, `${def.doc} (strict)`, false, true));
  return validatorCode(state, functions);
}

/**
 * The functions of the schemas `root`'s references point at, in `state.defs` by `$ref` text:
 * every `$defs` entry (referenced or not), then each other target once (texts that point at
 * one schema share its function). A reference that points nowhere is an error.
 */
function referencedFunctions(state: Unit, fn: string, root: JsonValue): void {
  const bySchema = new Map<JsonValue, Def>();
  let index = 0;
  const defs = isSchema(root) && isSchema(root.$defs) ? root.$defs : {};
  for (const name in defs) {
    const def: Def = {
      fn: defFunctionName(fn, name, index++),
      schema: defs[name]!,
      doc: `${state.owner}: $defs/${name}`,
      coerces: false,
    };
    state.defs.set(`#/$defs/${pointerToken(name)}`, def);
    if (isSchema(def.schema)) bySchema.set(def.schema, def);
  }
  for (const ref of refsIn(root)) {
    if (state.defs.has(ref)) continue;
    const target = resolveRef(root, ref);
    if (target === undefined)
      throw new Error(`zcp gen: cannot resolve ${JSON.stringify(ref)} (${state.owner})`);
    let def = isSchema(target) ? bySchema.get(target) : undefined;
    if (def === undefined) {
      def = {
        fn: `${fn}$$${index++}`,
        schema: target,
        doc: `${state.owner}: ${ref}`,
        coerces: false,
      };
      if (isSchema(target)) bySchema.set(target, def);
    }
    state.defs.set(ref, def);
  }
}

/** A plain identifier part: a `$defs` name that can be part of a function name as it is. */
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The function of the `index`-th `$defs` entry `name` of the tool validated by `fn`: the one way
 * a `$defs` name (which an upstream listing controls) becomes part of an identifier.
 * `<fn>$<name>` for a plain name, else `<fn>$$<index>`: never equal for two names (a plain name
 * has no `$`; indexes differ), nor equal to an outlined function (`<fn>$<n>`: a plain name
 * does not start with a digit).
 */
function defFunctionName(fn: string, name: string, index: number): string {
  return PLAIN_NAME.test(name) ? `${fn}$${name}` : `${fn}$$${index}`;
}

/** The function of a named object type, used wherever the type occurs, and its outlined ones. */
export function compileSharedValidator(name: string, schema: Schema): ValidatorCode {
  const state = unit(name, name);
  state.settled = true;
  const functions = [
    pathFunction(state, name, schema, typeof schema.title === "string" ? schema.title : null, true),
  ];
  outlinedFunctions(state, functions);
  return validatorCode(state, functions);
}

function outlinedFunctions(state: Unit, out: FunctionCode[]): void {
  for (let i = 0; i < state.outlined.length; i++)
    out.push(pathFunction(state, state.outlined[i]!.fn, state.outlined[i]!.schema, null));
}

/** A function `(value, path)` checking `schema`, for `$defs`, shared and outlined schemas. */
function pathFunction(
  state: Unit,
  fn: string,
  schema: JsonValue,
  doc: string | null,
  root = false,
  strict = false,
): FunctionCode {
  const w = new CodeBuilder(state, node);
  if (strict) w.strict = 1;
  const result = node(w, schema, "value", { base: "path", parts: [] }, RETURN, { root });
  w.line(`return { ok: true, value: ${result} };`);
  return { name: fn, doc, params: "value-path", body: w.body };
}
