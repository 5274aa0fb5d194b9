/**
 * compile: what a schema zcp did not derive from a type must pass before its tool is generated:
 * an upstream tool's listed input schema (input zcp does not control) and a hand-written one
 * (`@inputSchema`). Every `pattern` (and `patternProperties` key) must be a regular expression
 * with the `u` flag, as the generated validator compiles it, and the whole schema must compile
 * into a validator (`compileValidators`, with the functions of the named types it reaches: JSON
 * Schema types, local references). A tool that fails is left out with a diagnostic; the others
 * still generate, and nothing of it reaches generated code. What the validator does not check
 * (`reduce`: keywords it does not compile) is a warning each for an upstream tool (the upstream
 * enforces those keywords) and an error for a hand-written schema (nothing else would).
 */
import type { JsonValue, ToolDefinition } from "@zcp/runtime/definition";
import { diagnostic, type Diagnostic } from "../diagnostics.js";
import type { Site } from "../model/index.js";
import { patternError } from "../pattern.js";
import { compileValidators } from "./validators/index.js";
import { reduce, type Dropped } from "./validators/reduce.js";
import { isSchema } from "./validators/schema.js";
import { pointerPath, subschemas } from "./validators/walk.js";

/**
 * Why a tool is left out (its invalid patterns with their paths, else why it does not compile),
 * or what its validator leaves to the upstream.
 */
export type SchemaProblem =
  | {
      readonly kind: "pattern";
      readonly path: string;
      readonly source: string;
      readonly error: string;
    }
  | { readonly kind: "compile"; readonly error: string }
  | ({ readonly kind: "unchecked" } & Dropped);

/** The problems of `tool`'s input schema: none when it compiles whole. */
export function schemaProblems(tool: ToolDefinition): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  patterns(tool.inputSchema as JsonValue, "#", problems);
  if (problems.length > 0) return problems;
  try {
    compileValidators([tool]);
  } catch (error) {
    return [{ kind: "compile", error: (error as Error).message.replace(/^zcp gen: /, "") }];
  }
  return reduce(tool.inputSchema as JsonValue).dropped.map((d) => ({ kind: "unchecked", ...d }));
}

/**
 * The errors of a hand-written input schema (`@inputSchema`), at the tool's `site`: one per
 * invalid pattern, a compile error, or each keyword the validator would not check (ZCP1310).
 * None: the generated validator enforces the whole schema.
 */
export function handWrittenProblems(tool: ToolDefinition, site: Site): Diagnostic[] {
  return schemaProblems(tool).map((problem) => {
    const what =
      problem.kind === "pattern"
        ? `the pattern ${JSON.stringify(problem.source)} at ${problem.path} is not a regular expression with the u flag (${problem.error})`
        : problem.kind === "compile"
          ? `it cannot be compiled into a validator: ${problem.error}`
          : `the generated validator cannot check ${JSON.stringify(problem.keyword)} at ${problem.path}${problem.inner === null ? "" : ` (it holds ${JSON.stringify(problem.inner.keyword)} at ${problem.inner.path})`}`;
    return diagnostic(
      "error",
      "ZCP1310",
      `the @inputSchema of ${tool.alias}: ${what}; the tool is left out`,
      site,
    );
  });
}

/** Collects the invalid patterns of `schema`, at `path` (a JSON Pointer fragment). */
function patterns(schema: JsonValue, path: string, out: SchemaProblem[]): void {
  if (!isSchema(schema)) return;
  const invalid = (source: string, at: string) => {
    const error = patternError(source);
    if (error !== null) out.push({ kind: "pattern", path: at, source, error });
  };
  if (typeof schema.pattern === "string") invalid(schema.pattern, `${path}/pattern`);
  for (const sub of subschemas(schema)) {
    const at = pointerPath(path, sub.tokens);
    if (sub.keyword === "patternProperties") invalid(sub.tokens[1]!, at);
    patterns(sub.schema, at, out);
  }
}
