/**
 * compile/validators: the keywords of strings (`minLength`, `maxLength` in code points, `pattern`,
 * `format`), of numbers (bounds, `multipleOf`) and an array's length: conditions on the value that
 * join the node's other failures under its hint.
 */
import type { CodegenSymbol } from "@zcp/runtime/codegen/symbols";
import { patternError } from "../../pattern.js";
import { sha256 } from "./shared.js";
import type { CodeBuilder } from "./builder.js";
import { numberText } from "./code.js";
import { count, type Kind, type Schema } from "./schema.js";

/** The format checkers of `@zcp/runtime/codegen`, by format name. */
const FORMAT_FUNCTIONS: { readonly [format: string]: CodegenSymbol } = {
  date: "isDate",
  "date-time": "isDateTime",
  duration: "isDuration",
  email: "isEmail",
  hostname: "isHostname",
  ipv4: "isIpv4",
  ipv6: "isIpv6",
  time: "isTime",
  uri: "isUri",
  uuid: "isUuid",
};

/** Each bound keyword and the operator that says a number breaks it. */
const BOUNDS: readonly (readonly [string, string])[] = [
  ["minimum", "<"],
  ["exclusiveMinimum", "<="],
  ["maximum", ">"],
  ["exclusiveMaximum", ">="],
];

/** Adds to `out` the conditions under which a value of `kind` breaks the scalar constraints. */
export function kindFailures(
  w: CodeBuilder,
  kind: Kind,
  schema: Schema,
  value: string,
  out: string[],
): void {
  if (kind === "string") {
    const min = count(schema.minLength);
    const max = count(schema.maxLength);
    if ((min !== null && min > 0) || max !== null) w.needs.helpers.add("codePoints");
    if (min !== null && min > 0) out.push(`codePoints(${value}) < ${min}`);
    if (max !== null) out.push(`codePoints(${value}) > ${max}`);
    if (typeof schema.pattern === "string")
      out.push(`!${pattern(w, schema.pattern)}.test(${value})`);
    // Own keys only: a format named "constructor" is not a checker.
    const format =
      typeof schema.format === "string" && Object.hasOwn(FORMAT_FUNCTIONS, schema.format)
        ? FORMAT_FUNCTIONS[schema.format]
        : undefined;
    if (format) {
      w.needs.formats.add(format);
      out.push(`!${format}(${value})`);
    }
  } else if (kind === "number") {
    for (const [keyword, operator] of BOUNDS) {
      const limit = schema[keyword];
      if (typeof limit === "number") out.push(`${value} ${operator} ${numberText(limit)}`);
    }
    if (typeof schema.multipleOf === "number")
      out.push(`!Number.isInteger(${value} / ${numberText(schema.multipleOf)})`);
  } else if (kind === "array") {
    const min = count(schema.minItems);
    const max = count(schema.maxItems);
    if (min !== null && min > 0) out.push(`${value}.length < ${min}`);
    if (max !== null) out.push(`${value}.length > ${max}`);
  }
}

/**
 * The module-level pattern of a source: `PATTERN_` and the SHA-256 of the source (whole: two
 * patterns never share a constant, `shared.ts`), made by the runtime's `pattern`, which compiles
 * it on first use, so that a Node that cannot read it fails that check, never the module's load.
 * A source that is not a `u`-flag regular expression here is an error (model refuses such a
 * tool before: ZCP1710).
 */
export function pattern(w: CodeBuilder, source: string): string {
  const invalid = patternError(source);
  if (invalid !== null)
    throw new Error(`zcp gen: ${JSON.stringify(source)} is not a valid pattern: ${invalid}`);
  const name = `PATTERN_${sha256(source)}`;
  w.needs.patterns.set(name, source);
  w.needs.helpers.add("pattern");
  return name;
}
