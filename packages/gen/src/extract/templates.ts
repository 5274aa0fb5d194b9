/**
 * extract: template literal types (`` `${number}px` ``, `` `user:${string}` ``) as regular
 * expressions, for `pattern` (a template literal value) and `patternProperties` (a template
 * literal index signature, `` Record<`x-${string}`, V> ``). The literal texts are escaped, each
 * placeholder is the strings TypeScript lets it stand for: `${string}` any string, `${number}`
 * a JSON number (see NUMBER), `${bigint}` an integer, a union its alternatives. The sources are
 * valid with the `u` flag, which Ajv and the generated validators compile them with.
 */
import { ts } from "@ts-morph/common";

/**
 * `${number}`: the JSON number grammar, which `String(n)` of every finite number matches.
 * TypeScript accepts any string `s` with `+s` finite; this refuses its other spellings
 * (`"+1"`, `".5"`, `"1."`, `"0x1F"`, `" 1"`) and accepts the one overflow it refuses
 * (`"1e400"` is `Infinity`).
 */
const NUMBER_PATTERN = "-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?";

/** `${bigint}`: a decimal integer (TypeScript's other spellings, `"0x1F"`, are refused). */
const BIGINT_PATTERN = "-?(?:0|[1-9][0-9]*)";

/** `${string}`: any string, line terminators and astral characters included. */
const STRING_PATTERN = "[\\s\\S]*";

/** `text` matched literally, with the `u` flag (which allows escaping only syntax characters). */
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}

/**
 * The regular expression (unanchored) of the strings of `type`, a template literal type or a
 * placeholder in one; `null` when a part has no exact expression (`Uppercase<string>`).
 */
function templateBody(type: ts.Type): string | null {
  const f = type.flags;
  if (f & ts.TypeFlags.TemplateLiteral) {
    const { texts, types } = type as ts.TemplateLiteralType;
    let out = escapeRegExp(texts[0] ?? "");
    for (let i = 0; i < types.length; i++) {
      const part = templateBody(types[i]!);
      if (part === null) return null;
      out += part + escapeRegExp(texts[i + 1] ?? "");
    }
    return out;
  }
  if (f & ts.TypeFlags.String) return STRING_PATTERN;
  if (f & ts.TypeFlags.Number) return NUMBER_PATTERN;
  if (f & ts.TypeFlags.BigInt) return BIGINT_PATTERN;
  if (f & ts.TypeFlags.StringLiteral) return escapeRegExp((type as ts.StringLiteralType).value);
  if (f & ts.TypeFlags.NumberLiteral)
    return escapeRegExp(String((type as ts.NumberLiteralType).value));
  if (f & ts.TypeFlags.BooleanLiteral)
    return (type as { intrinsicName?: string }).intrinsicName ?? null;
  if (f & ts.TypeFlags.Null) return "null";
  if (f & ts.TypeFlags.Undefined) return "undefined";
  if (f & ts.TypeFlags.Union) return alternatives((type as ts.UnionType).types);
  return null;
}

/**
 * The group of the alternatives of `members` (template literals, string literals), in text order
 * (a full match does not depend on it); `null` if one has no expression.
 */
export function alternatives(members: readonly ts.Type[]): string | null {
  const bodies: string[] = [];
  for (const member of members) {
    const body = templateBody(member);
    if (body === null) return null;
    bodies.push(body);
  }
  const unique = [...new Set(bodies)].sort();
  return unique.length === 1 ? unique[0]! : `(?:${unique.join("|")})`;
}

/** The anchored pattern of a template literal key or value type, or `null`. */
export function templatePattern(type: ts.Type): string | null {
  const body = templateBody(type);
  return body === null ? null : `^${body}$`;
}
