/**
 * upstream: what an upstream tool's input schema must pass before it is modelled, since its
 * listing is input zcp does not control: every `pattern` (and `patternProperties` key) must be
 * a regular expression with the `u` flag, as the generated validator compiles it, and the whole
 * schema must compile into a validator (`compileValidators`, with the functions of the named
 * types it reaches: known keywords, local `$ref`s, JSON Schema types, primitive enum values). A tool that fails is left out with a diagnostic; the others still
 * generate, and nothing of it reaches generated code.
 */
import type { JsonValue, ToolDefinition } from "@zcp/runtime/codegen";
import { compileValidators } from "../compile/index.js";
import { patternError } from "../compile/validators/scalars.js";

/** Why a tool is left out: its invalid patterns (with their paths), else why it does not compile. */
export type SchemaProblem =
  | {
      readonly kind: "pattern";
      readonly path: string;
      readonly source: string;
      readonly error: string;
    }
  | { readonly kind: "compile"; readonly error: string };

/** Keywords whose value is a schema, and those whose value is a list or a map of schemas. */
const SCHEMA = ["additionalProperties", "items", "propertyNames"];
const LISTS = ["anyOf", "allOf", "prefixItems"];
const MAPS = ["properties", "patternProperties", "$defs"];

/** The problems of `tool`'s input schema: none when it compiles. */
export function schemaProblems(tool: ToolDefinition): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  patterns(tool.inputSchema as JsonValue, "#", problems);
  if (problems.length > 0) return problems;
  try {
    compileValidators([tool]);
    return [];
  } catch (error) {
    return [{ kind: "compile", error: (error as Error).message.replace(/^zcp gen: /, "") }];
  }
}

/** Collects the invalid patterns of `schema`, at `path` (a JSON Pointer fragment). */
function patterns(schema: JsonValue | undefined, path: string, out: SchemaProblem[]): void {
  if (!isObject(schema)) return;
  const invalid = (source: string, at: string) => {
    const error = patternError(source);
    if (error !== null) out.push({ kind: "pattern", path: at, source, error });
  };
  if (typeof schema.pattern === "string") invalid(schema.pattern, `${path}/pattern`);
  for (const keyword of SCHEMA) patterns(schema[keyword], `${path}/${keyword}`, out);
  for (const keyword of LISTS) {
    const list = schema[keyword];
    if (Array.isArray(list))
      list.forEach((item, i) => patterns(item, `${path}/${keyword}/${i}`, out));
  }
  for (const keyword of MAPS) {
    const map = schema[keyword];
    if (!isObject(map)) continue;
    for (const key of Object.keys(map)) {
      const at = `${path}/${keyword}/${pointer(key)}`;
      if (keyword === "patternProperties") invalid(key, at);
      patterns(map[key], at, out);
    }
  }
}

function isObject(value: JsonValue | undefined): value is { readonly [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A key as a JSON Pointer token (`~` → `~0`, `/` → `~1`). */
function pointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
