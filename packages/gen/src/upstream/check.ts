/**
 * upstream: what an upstream tool's input schema must pass before it is modelled, since its
 * listing is input zcp does not control: every `pattern` (and `patternProperties` key) must be
 * a regular expression with the `u` flag, as the generated validator compiles it, and the whole
 * schema must compile into a validator (`compileValidators`, with the functions of the named
 * types it reaches: JSON Schema types, local references). A tool that fails is left out with a
 * diagnostic; the others still generate, and nothing of it reaches generated code. What the
 * validator does not check (`reduce`: keywords it does not compile) is a warning each: the tool
 * is generated, and the upstream enforces those keywords.
 */
import type { JsonValue, ToolDefinition } from "@zcp/runtime/definition";
import { compileValidators } from "../compile/index.js";
import { reduce, type Dropped } from "../compile/validators/reduce.js";
import { patternError } from "../pattern.js";
import { isSchema } from "../compile/validators/schema.js";
import { pointerPath, subschemas } from "../compile/validators/walk.js";

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
