/**
 * compile: the generated validators (`validators.ts`). Each tool's input schema becomes one
 * specialised function, `validate_<name>(input)` (the tool's name part, `toolNames`:
 * `validate_weather_get_current`), that checks the arguments with plain code (no
 * schema is read at run time) and returns the value to call the tool with or the first error
 * (the `ValidationResult` contract of `@zcp/runtime`). Recursive types (`$defs`) become one
 * function each (`validate_<name>$Name`); a named object type (an interface: a schema with a
 * `title`) becomes one function shared by all its uses, named after its title and a hash of its
 * schema (`check$Address$1a2b3c4d`), so that a type used by many tools is generated once;
 * schemas nested deeper than a few levels move to functions of their own (`validate_<name>$1`),
 * so that lines stay short. A tool's code depends on its definition and name only:
 * `ValidatorCache` keeps it between watch runs.
 *
 * Semantics are JSON Schema 2020-12's for the keywords that extract emits, plus two documented
 * coercions: a string holding a JSON number becomes that number where the schema allows a
 * number and not a string, and "true"/"false" become booleans where it allows a boolean and not
 * a string. Coerced values are copied on write; the input is never mutated.
 *
 * Errors are `missing:<path>` or `invalid:<path>` with a `$`-rooted path (`$.rows[2].qty`,
 * `$["a b"]`); the first error is reported: within an object, its properties in schema order
 * (missing or invalid), then its other keys in input order; within an array, its length, then
 * its items in order; `anyOf` reports at its own path when no branch fits.
 *
 * The text is printed the way prettier prints it (tests check that prettier leaves it
 * unchanged): every statement form used here either fits in a line by construction or follows
 * prettier's rule for breaking it.
 */
import { createHash } from "node:crypto";
import type { JsonValue, ToolDefinition } from "@zcp/runtime/codegen";
import { Identifier, PRINT_WIDTH, printStatement, printString, width } from "../emit/print.js";
import { toolNames } from "../emit/names.js";
import { tsFile, type EmitContext } from "../emit/ts-file.js";

/** The file `validatorsFile` renders, in the output folder. */
export const VALIDATORS_FILE = "validators.ts";

type Schema = { readonly [keyword: string]: JsonValue };

/** Code nested this deep (in columns) moves composite schemas into functions of their own. */
const OUTLINE_AT = 34;

/** The runtime's format checkers, by format name. */
const FORMAT_FUNCTIONS: { readonly [format: string]: string } = {
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

type Kind = "string" | "number" | "array" | "object";
const KINDS: readonly Kind[] = ["string", "number", "array", "object"];
const KIND_BITS: { readonly [kind in Kind]: number } = { string: 1, number: 2, array: 4, object: 8 };
/** Keywords that never affect validation. */
const ANNOTATION = 16;
/** Keywords that apply to any value. */
const GENERAL = 32;

/**
 * Every keyword this compiler knows: the kind of value it constrains (a bit of KIND_BITS), or
 * GENERAL, or ANNOTATION. Any other keyword is an error: validators must not skip a constraint.
 */
const KEYWORDS = new Map<string, number>([
  ...["type", "enum", "const", "$ref", "$defs", "anyOf"].map((keyword) => [keyword, GENERAL] as const),
  ...["title", "description", "default", "examples", "deprecated", "$comment", "readOnly", "writeOnly"].map((keyword) => [keyword, ANNOTATION] as const),
  ...["minLength", "maxLength", "pattern", "format"].map((keyword) => [keyword, KIND_BITS.string] as const),
  ...["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"].map((keyword) => [keyword, KIND_BITS.number] as const),
  ...["minItems", "maxItems", "uniqueItems", "prefixItems", "items"].map((keyword) => [keyword, KIND_BITS.array] as const),
  ...["properties", "required", "additionalProperties", "propertyNames"].map((keyword) => [keyword, KIND_BITS.object] as const),
]);

/** The KEYWORDS bits of a schema's keywords, or-ed; throws on an unknown keyword. */
function keywordBits(schema: Schema, owner: string): number {
  let bits = 0;
  for (const keyword in schema) {
    const bit = KEYWORDS.get(keyword);
    if (bit === undefined) throw new Error(`zcp gen: generated validators do not support "${keyword}" (${owner})`);
    bits |= bit;
  }
  return bits;
}

/** Keys found on every object through its prototype: read them as own properties only. */
const PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Compiled tools and shared types, kept between runs (`zcp gen --watch`): a tool's code depends
 * on its definition only, and a shared type's on its schema only, so unchanged tools are not
 * compiled again.
 */
export class ValidatorCache {
  readonly tools = new WeakMap<ToolDefinition, Compiled & { readonly name: string }>();
  shared = new Map<string, Compiled>();
}

/**
 * The text of `validators.ts` for `tools`: the header, imports, the patterns, one validator per
 * tool (with its `$defs` and outlined functions), the functions of named object types (shared by
 * every use), the `validators` table by tool id, and the helpers the code uses.
 */
export function validatorsFile(context: EmitContext, tools: readonly ToolDefinition[], cache = new ValidatorCache()): string {
  const names = toolNames(tools);
  const units: Compiled[] = [];
  for (const tool of tools) {
    const name = `validate_${names.get(tool)!}`;
    let compiled = cache.tools.get(tool);
    if (compiled?.name !== name) cache.tools.set(tool, (compiled = { ...compileTool(tool, name), name }));
    units.push(compiled);
  }
  const shared = new Map<string, Compiled>();
  for (let i = 0; i < units.length; i++) {
    for (const [name, schema] of units[i]!.shared) {
      if (shared.has(name)) continue;
      let compiled = cache.shared.get(name);
      if (compiled === undefined) compiled = compileShared(name, schema);
      shared.set(name, compiled);
      units.push(compiled);
    }
  }
  cache.shared = shared;

  const helpers = new Set<string>();
  const formats = new Set<string>();
  const patterns = new Map<string, string>();
  for (const compiled of units) {
    for (const helper of compiled.helpers) helpers.add(helper);
    for (const format of compiled.formats) formats.add(format);
    for (const [name, source] of compiled.patterns) patterns.set(name, source);
  }
  const table: { [id: string]: Identifier } = {};
  for (const tool of tools) table[tool.id] = new Identifier(`validate_${names.get(tool)!}`);

  const statements = [printImport("import type", tools.length > 0 ? ["ValidationResult", "ValidatorTable"] : ["ValidatorTable"])];
  if (formats.size > 0) statements[0] += printImport("import", [...formats].sort());
  if (patterns.size > 0) {
    let text = "";
    for (const name of [...patterns.keys()].sort()) text += assignment(`const ${name} =`, regexLiteral(patterns.get(name)!));
    statements.push(text);
  }
  for (let i = 0; i < tools.length; i++) statements.push(units[i]!.text);
  for (const name of [...shared.keys()].sort()) statements.push(shared.get(name)!.text);
  statements.push(printStatement("export const validators: ValidatorTable = ", table));
  for (const helper of HELPERS) if (helpers.has(helper.name)) statements.push(helper.text);
  return tsFile(context, statements);
}

/** What compiling a tool or a shared type produced, and what it needs from the file. */
interface Compiled {
  /** Its functions, each followed by a blank line but the last. */
  readonly text: string;
  /** Function name → schema of the shared types it calls. */
  readonly shared: ReadonlyMap<string, Schema>;
  readonly helpers: ReadonlySet<string>;
  readonly formats: ReadonlySet<string>;
  /** Name of a module-level RegExp → pattern source. */
  readonly patterns: ReadonlyMap<string, string>;
}

/** The needs of a compilation, collected as it goes. */
interface Needs {
  readonly shared: Map<string, Schema>;
  readonly helpers: Set<string>;
  readonly formats: Set<string>;
  readonly patterns: Map<string, string>;
}

/**
 * What one generated function (and those outlined from it) compiles against: the tool's `$defs`
 * (none in shared functions), and memos of facts about its schemas.
 */
interface Unit {
  readonly needs: Needs;
  /** Prefix of outlined functions' names. */
  readonly prefix: string;
  /** Named in errors about the schema. */
  readonly owner: string;
  /** `$defs` name → its function and schema. */
  readonly defs: Map<string, { readonly fn: string; readonly schema: JsonValue; coerces: boolean }>;
  /** Functions for deeply nested schemas, compiled after the one that calls them. */
  readonly outlined: { readonly fn: string; readonly schema: Schema }[];
  readonly coerces: Map<Schema, boolean>;
  readonly described: Map<Schema, string>;
  /** Whether the `$defs` coercion facts are final (then facts about schemas are memoized). */
  settled: boolean;
}

function unit(prefix: string, owner: string): Unit {
  const needs: Needs = { shared: new Map(), helpers: new Set(), formats: new Set(), patterns: new Map() };
  return { needs, prefix, owner, defs: new Map(), outlined: [], coerces: new Map(), described: new Map(), settled: false };
}

function compiled(state: Unit, functions: string[]): Compiled {
  const { shared, helpers, formats, patterns } = state.needs;
  return { text: functions.join("\n"), shared, helpers, formats, patterns };
}

/**
 * A tool's validator, `fn` (`validate_<name>`), then a function per `$defs` entry
 * (`validate_<name>$Name`), then its outlined functions (`validate_<name>$1`...). Tool names and
 * `$defs` names have no `$`.
 */
function compileTool(tool: ToolDefinition, fn: string): Compiled {
  const root = tool.inputSchema as Schema;
  const state = unit(fn, tool.alias);
  if (isSchema(root.$defs)) {
    for (const name in root.$defs) state.defs.set(name, { fn: `${fn}$${name}`, schema: root.$defs[name]!, coerces: false });
  }
  settleDefCoercion(state);
  const main = new Writer(state);
  const result = node(main, root, "input", ROOT, RETURN, { root: true });
  main.line(`return { ok: true, value: ${result} };`);
  const functions = [`${validatorHead(tool, fn)}\n${main.text()}}\n`];
  for (const [name, def] of state.defs) functions.push(pathFunction(state, def.fn, def.schema, `${tool.alias}: $defs/${name}`));
  outlinedFunctions(state, functions);
  return compiled(state, functions);
}

/** A tool validator's doc comment (its alias) and signature, broken as prettier breaks it when too long. */
function validatorHead(tool: ToolDefinition, fn: string): string {
  const flat = `function ${fn}(input: unknown): ValidationResult {`;
  const head = width(flat) <= PRINT_WIDTH ? flat : `function ${fn}(\n  input: unknown,\n): ValidationResult {`;
  return `/** ${comment(tool.alias)} */\n${head}`;
}

/** The function of a named object type, used wherever the type occurs, and its outlined ones. */
function compileShared(name: string, schema: Schema): Compiled {
  const state = unit(name, name);
  state.settled = true;
  const functions = [pathFunction(state, name, schema, typeof schema.title === "string" ? schema.title : null, true)];
  outlinedFunctions(state, functions);
  return compiled(state, functions);
}

function outlinedFunctions(state: Unit, out: string[]): void {
  for (let i = 0; i < state.outlined.length; i++) out.push(pathFunction(state, state.outlined[i]!.fn, state.outlined[i]!.schema, null));
}

/** A function `(value, path)` checking `schema`, for `$defs`, shared and outlined schemas. */
function pathFunction(state: Unit, fn: string, schema: JsonValue, doc: string | null, root = false): string {
  const w = new Writer(state);
  const result = node(w, schema, "value", { base: "path", parts: [] }, RETURN, { root });
  w.line(`return { ok: true, value: ${result} };`);
  const flat = `function ${fn}(value: unknown, path: string): ValidationResult {`;
  const head = width(flat) <= PRINT_WIDTH ? flat : `function ${fn}(\n  value: unknown,\n  path: string,\n): ValidationResult {`;
  return `${doc === null ? "" : `/** ${comment(doc)} */\n`}${head}\n${w.text()}}\n`;
}

/**
 * The function name of a named object type without references (`check$Address$1a2b3c4d`: its
 * title and a hash of its schema), or null for other schemas, which are compiled in place.
 */
function sharedName(schema: Schema): string | null {
  if (typeof schema.title !== "string" || schema.type !== "object" || schema.properties === undefined) return null;
  let name = SHARED_NAMES.get(schema);
  if (name === undefined) {
    const text = JSON.stringify(schema);
    if (text.includes('"$ref":')) {
      name = null;
    } else {
      const hash = createHash("sha256").update(text).digest("hex");
      name = `check$${schema.title.replace(/[^A-Za-z0-9_]+/g, "_").slice(0, 40) || "object"}$${hash.slice(0, 8)}`;
      // Two types with one name would call each other's code: never let that pass silently.
      const known = SHARED_HASHES.get(name);
      if (known === undefined) SHARED_HASHES.set(name, hash);
      else if (known !== hash) throw new Error(`zcp gen: two object types titled "${schema.title}" hash to the same name ${name}; rename one`);
    }
    SHARED_NAMES.set(schema, name);
  }
  return name;
}

const SHARED_NAMES = new WeakMap<Schema, string | null>();
/** Full hash of each shared function name given out (by this process). */
const SHARED_HASHES = new Map<string, string>();

function hash8(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}

// ---------------------------------------------------------------------------------------------
// Writing lines

const PADS: string[] = [];
function pad(indent: number): string {
  return (PADS[indent] ??= " ".repeat(indent));
}

/** The lines of one function body, with its indentation and local names. */
class Writer {
  private readonly lines: (string | null)[] = [];
  indent = 2;
  private count = 0;

  constructor(readonly unit: Unit) {}

  get needs(): Needs {
    return this.unit.needs;
  }

  /** A fresh local name: `v3`, `i4`, `l5`... */
  name(prefix: string): string {
    return `${prefix}${++this.count}`;
  }

  line(text: string): void {
    this.lines.push(pad(this.indent) + text);
  }

  open(text: string): void {
    this.line(text);
    this.indent += 2;
  }

  close(text = "}"): void {
    this.indent -= 2;
    this.line(text);
  }

  /** Whether `text` fits on a line at the current indentation. */
  fits(text: string): boolean {
    // A character is at most 2 columns wide: short texts need no measuring.
    return this.indent + 2 * text.length <= PRINT_WIDTH || this.indent + width(text) <= PRINT_WIDTH;
  }

  /** A line to fill in later (or leave out), at the current indentation. */
  placeholder(): { readonly index: number; readonly indent: number } {
    this.lines.push(null);
    return { index: this.lines.length - 1, indent: this.indent };
  }

  fill(slot: { readonly index: number; readonly indent: number }, text: string): void {
    this.lines[slot.index] = pad(slot.indent) + text;
  }

  /** The body, one flat string (not a tree of concatenations, which is slow to collect). */
  text(): string {
    let lines = this.lines;
    if (lines.includes(null)) lines = lines.filter((line) => line !== null);
    return `${lines.join("\n")}\n`;
  }
}

/** `head(args...)tail`, on one line or with one argument per line (prettier's call layout). */
function call(w: Writer, head: string, args: readonly string[], tail: string): void {
  const flat = `${head}(${args.join(", ")})${tail}`;
  if (w.fits(flat)) return w.line(flat);
  const equals = head.indexOf(" = ");
  if (equals >= 0 && !w.fits(`${head}(`)) {
    // An assignment whose callee does not fit: prettier breaks after "=" first.
    w.line(head.slice(0, equals + 2));
    w.indent += 2;
    call(w, head.slice(equals + 3), args, tail);
    w.indent -= 2;
    return;
  }
  w.line(`${head}(`);
  for (const arg of args) w.line(`  ${arg},`);
  w.line(`)${tail}`);
}

/** `if (a && b) {`, or prettier's broken form with one operand per line. */
function openIf(w: Writer, conditions: readonly string[], operator: "&&" | "||"): void {
  const flat = `if (${conditions.join(` ${operator} `)}) {`;
  if (w.fits(flat)) {
    w.open(flat);
    return;
  }
  w.line("if (");
  for (let i = 0; i < conditions.length; i++) w.line(`  ${conditions[i]}${i < conditions.length - 1 ? ` ${operator}` : ""}`);
  w.open(") {");
}

/** `const name = object["key"];` in prettier's layout for a member expression that is too long. */
function readProperty(w: Writer, name: string, object: string, key: string): void {
  const quoted = printString(key);
  if (PROTOTYPE_KEYS.has(key)) {
    w.needs.helpers.add("own");
    return call(w, `const ${name} = own`, [object, quoted], ";");
  }
  const access = `${object}[${quoted}]`;
  if (w.fits(`const ${name} = ${access};`)) return w.line(`const ${name} = ${access};`);
  w.line(`const ${name} =`);
  if (w.fits(`  ${access};`)) return w.line(`  ${access};`);
  w.line(`  ${object}[`);
  w.line(`    ${quoted}`);
  w.line("  ];");
}

/** A module-level `prefix value;`, broken after "=" when too long (prettier's layout). */
function assignment(prefix: string, value: string): string {
  const flat = `${prefix} ${value};`;
  return width(flat) <= PRINT_WIDTH ? `${flat}\n` : `${prefix}\n  ${value};\n`;
}

function printImport(keyword: string, names: readonly string[]): string {
  const flat = `${keyword} { ${names.join(", ")} } from "@zcp/runtime/codegen";\n`;
  if (width(flat) - 1 <= PRINT_WIDTH) return flat;
  return `${keyword} {\n${names.map((name) => `  ${name},\n`).join("")}} from "@zcp/runtime/codegen";\n`;
}

/** Text safe inside a one-line block comment. */
function comment(text: string): string {
  return text.replace(/\*\//g, "*\\/").replace(/\s+/g, " ");
}

// ---------------------------------------------------------------------------------------------
// Paths and failures

/** A `$`-rooted path: a runtime base (`path`) or `$`, then static text and runtime expressions. */
interface Path {
  readonly base: string | null;
  readonly parts: readonly (string | { readonly expr: string })[];
}

const ROOT: Path = { base: null, parts: [] };
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function keyPath(path: Path, key: string): Path {
  return { base: path.base, parts: [...path.parts, IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`] };
}

function indexPath(path: Path, index: number | string): Path {
  if (typeof index === "number") return { base: path.base, parts: [...path.parts, `[${index}]`] };
  return { base: path.base, parts: [...path.parts, "[", { expr: index }, "]"] };
}

function dynamicKeyPath(path: Path, key: string): Path {
  return { base: path.base, parts: [...path.parts, { expr: `member(${key})` }] };
}

/** The path as a string literal, or a template literal when parts of it are known at run time. */
function renderPath(w: Writer, path: Path): string {
  let dynamic = path.base !== null;
  for (const part of path.parts) if (typeof part !== "string") dynamic = true;
  if (!dynamic) return printString(`$${path.parts.join("")}`);
  let text = path.base === null ? "$" : `\${${path.base}}`;
  let literal = "";
  for (const part of path.parts) {
    if (typeof part === "string") {
      literal += part;
      continue;
    }
    text += escapeTemplate(literal);
    literal = "";
    if (part.expr.startsWith("member(")) w.needs.helpers.add("member");
    text += `\${${part.expr}}`;
  }
  return `\`${text}${escapeTemplate(literal)}\``;
}

function escapeTemplate(text: string): string {
  return text.replace(/[\\`]|\$\{/g, "\\$&");
}

/** Where a failed check goes: return the error, or leave an `anyOf` branch (`break label`). */
type Fail = { readonly kind: "return" } | { readonly kind: "break"; readonly label: string; used: boolean };
const RETURN: Fail = { kind: "return" };

function fail(w: Writer, to: Fail, kind: "invalid" | "missing", path: Path, hint: string): void {
  if (to.kind === "break") {
    to.used = true;
    return w.line(`break ${to.label};`);
  }
  w.needs.helpers.add(kind);
  call(w, `return ${kind}`, [renderPath(w, path), printString(hint)], ";");
}

/** `if (conditions) { <fail> }`. */
function check(w: Writer, conditions: readonly string[], operator: "&&" | "||", to: Fail, path: Path, hint: string, kind: "invalid" | "missing" = "invalid"): void {
  openIf(w, conditions, operator);
  fail(w, to, kind, path, hint);
  w.close();
}

// ---------------------------------------------------------------------------------------------
// Schemas to code

interface NodeOptions {
  /** The schema of a whole function (a tool's input, a shared type): compiled, not called. */
  readonly root?: boolean;
  /** False for property names: they are strings whatever the schema says. */
  readonly coerce?: boolean;
  /** The hint of this node's own failures, instead of its description. */
  readonly hint?: string;
}

/**
 * Emits the checks of `schema` on the value in `value` (a local name or parameter) and returns
 * the name holding the value after coercions: `value` itself when the schema cannot coerce.
 */
function node(w: Writer, schema: JsonValue | undefined, value: string, path: Path, to: Fail, options: NodeOptions = {}): string {
  if (schema === undefined || schema === true) return value;
  if (!isSchema(schema)) throw new Error(`zcp gen: cannot compile the schema ${JSON.stringify(schema)} (${w.unit.owner})`);
  const bits = keywordBits(schema, w.unit.owner);
  const coerce = options.coerce !== false;
  const shared = options.root || !coerce ? null : sharedName(schema);
  if (shared !== null) {
    w.needs.shared.set(shared, schema);
    return callValidator(w, shared, coerces(w.unit, schema), value, path, to);
  }
  if (!options.root && coerce && w.indent >= OUTLINE_AT && isComposite(schema)) {
    const fn = `${w.unit.prefix}$${w.unit.outlined.length + 1}`;
    w.unit.outlined.push({ fn, schema });
    return callValidator(w, fn, coerces(w.unit, schema), value, path, to);
  }
  const types = typeList(schema);
  const hint = options.hint ?? `expected ${describe(w.unit, schema)}`;
  let current = value;

  if (coerce && types !== null && !types.includes("string")) {
    const number = types.includes("number") || types.includes("integer");
    const boolean = types.includes("boolean");
    if (number || boolean) {
      if (number) w.needs.helpers.add("toNumber");
      if (boolean) w.needs.helpers.add("toBoolean");
      const coerced = number && boolean ? `toNumber(toBoolean(${value}))` : number ? `toNumber(${value})` : `toBoolean(${value})`;
      current = w.name("v");
      w.line(`const ${current} = ${coerced};`);
    }
  }
  if (typeof schema.$ref === "string") {
    const def = w.unit.defs.get(defName(schema.$ref));
    if (!def) throw new Error(`zcp gen: cannot resolve "${schema.$ref}" (${w.unit.owner})`);
    current = callValidator(w, def.fn, def.coerces, current, path, to);
  }
  if (Array.isArray(schema.anyOf)) current = anyOf(w, schema.anyOf, current, path, to, hint);

  // Failures of this node's own checks share its hint: one `if (a || b || c)`.
  const failures: string[] = [];
  let values: JsonValue[] | null = null;
  if (schema.const !== undefined || Array.isArray(schema.enum)) {
    values = [];
    for (const item of schema.const !== undefined ? [schema.const] : (schema.enum as JsonValue[])) {
      if ((types === null || hasType(item, types)) && !values.includes(item)) values.push(item);
    }
  }
  let narrowed: readonly string[] | null = null;
  if (values) {
    if (values.length === 0) throw new Error(`zcp gen: no value of ${JSON.stringify(schema.enum ?? schema.const)} has the type ${JSON.stringify(schema.type)} (${w.unit.owner})`);
    enumCheck(w, values, current, to, path, hint);
  } else if (types !== null) {
    const checks = typeFailures(w, types, current);
    if (checks.length === 1) failures.push(checks[0]!);
    else check(w, checks, "&&", to, path, hint);
    narrowed = types;
  }
  for (const kind of KINDS) {
    if ((bits & KIND_BITS[kind]) === 0) continue;
    if (types !== null && !typesOfKind(types, kind, false)) continue;
    if (narrowed !== null && typesOfKind(narrowed, kind, true)) {
      kindFailures(w, kind, schema, current, failures);
      flush(w, failures, to, path, hint);
      current = kindStructure(w, kind, schema, current, path, to);
      continue;
    }
    flush(w, failures, to, path, hint);
    const slot = w.placeholder();
    if (kind === "object") w.needs.helpers.add("isObject");
    w.open(`if (${kindTest(kind, current)}) {`);
    kindFailures(w, kind, schema, current, failures);
    flush(w, failures, to, path, hint);
    const out = kindStructure(w, kind, schema, current, path, to);
    if (out !== current) {
      const result = w.name("r");
      w.fill(slot, `let ${result}: unknown = ${current};`);
      w.line(`${result} = ${out};`);
      current = result;
    }
    w.close();
  }
  flush(w, failures, to, path, hint);
  return current;
}

/** Emits `if (a || b || c) { <fail> }` for the failures collected, and clears them. */
function flush(w: Writer, failures: string[], to: Fail, path: Path, hint: string): void {
  if (failures.length === 0) return;
  openIf(w, failures, "||");
  fail(w, to, "invalid", path, hint);
  w.close();
  failures.length = 0;
}

/** Whether some (`all`: every) type is of `kind`. */
function typesOfKind(types: readonly string[], kind: Kind, all: boolean): boolean {
  for (const type of types) if ((kindOf(type) === kind) !== all) return !all;
  return all;
}

function kindTest(kind: Kind, value: string): string {
  if (kind === "string") return `typeof ${value} === "string"`;
  if (kind === "number") return `typeof ${value} === "number"`;
  return kind === "array" ? `Array.isArray(${value})` : `isObject(${value})`;
}

const BOUNDS: readonly (readonly [string, string])[] = [
  ["minimum", "<"],
  ["exclusiveMinimum", "<="],
  ["maximum", ">"],
  ["exclusiveMaximum", ">="],
];

/** Adds to `out` the conditions under which a value of `kind` breaks the scalar constraints. */
function kindFailures(w: Writer, kind: Kind, schema: Schema, value: string, out: string[]): void {
  if (kind === "string") {
    const min = count(schema.minLength);
    const max = count(schema.maxLength);
    if ((min !== null && min > 0) || max !== null) w.needs.helpers.add("codePoints");
    if (min !== null && min > 0) out.push(`codePoints(${value}) < ${min}`);
    if (max !== null) out.push(`codePoints(${value}) > ${max}`);
    if (typeof schema.pattern === "string") out.push(`!${pattern(w, schema.pattern)}.test(${value})`);
    const format = typeof schema.format === "string" ? FORMAT_FUNCTIONS[schema.format] : undefined;
    if (format) {
      w.needs.formats.add(format);
      out.push(`!${format}(${value})`);
    }
  } else if (kind === "number") {
    for (const [keyword, operator] of BOUNDS) {
      const limit = schema[keyword];
      if (typeof limit === "number") out.push(`${value} ${operator} ${printNumber(limit)}`);
    }
    if (typeof schema.multipleOf === "number") out.push(`!Number.isInteger(${value} / ${printNumber(schema.multipleOf)})`);
  } else if (kind === "array") {
    const min = count(schema.minItems);
    const max = count(schema.maxItems);
    if (min !== null && min > 0) out.push(`${value}.length < ${min}`);
    if (max !== null) out.push(`${value}.length > ${max}`);
  }
}

/** The checks of an array's items or an object's properties; returns the name of the result. */
function kindStructure(w: Writer, kind: Kind, schema: Schema, value: string, path: Path, to: Fail): string {
  if (kind === "array") return arrayItems(w, schema, value, path, to);
  if (kind === "object") return objectProperties(w, schema, value, path, to);
  return value;
}

function arrayItems(w: Writer, schema: Schema, value: string, path: Path, to: Fail): string {
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
  const min = count(schema.minItems) ?? 0;
  const max = count(schema.maxItems);
  if (schema.items === false && !(max !== null && max <= prefix.length)) {
    check(w, [`${value}.length > ${prefix.length}`], "&&", to, path, `expected at most ${plural(prefix.length, "item")}`);
  }
  const slot = w.placeholder();
  let copy: string | null = null;
  for (let index = 0; index < prefix.length; index++) {
    const itemSchema = prefix[index];
    if (isTrivial(itemSchema)) continue;
    const optional = index >= min;
    if (optional) w.open(`if (${value}.length > ${index}) {`);
    const item = w.name("v");
    w.line(`const ${item}: unknown = ${value}[${index}];`);
    copy = storeItem(w, copy, value, String(index), item, node(w, itemSchema, item, indexPath(path, index), to));
    if (optional) w.close();
  }
  if (schema.items !== undefined && schema.items !== false && !isTrivial(schema.items)) {
    const i = w.name("i");
    w.open(`for (let ${i} = ${prefix.length}; ${i} < ${value}.length; ${i}++) {`);
    const item = w.name("v");
    w.line(`const ${item}: unknown = ${value}[${i}];`);
    copy = storeItem(w, copy, value, i, item, node(w, schema.items, item, indexPath(path, i), to));
    w.close();
  }
  let out = value;
  if (copy !== null) {
    w.fill(slot, `let ${copy}: unknown[] | undefined;`);
    out = w.name("v");
    w.line(`const ${out} = ${copy} ?? ${value};`);
  }
  if (schema.uniqueItems === true) {
    w.needs.helpers.add("duplicateAt");
    const duplicate = w.name("d");
    w.line(`const ${duplicate} = duplicateAt(${out});`);
    check(w, [`${duplicate} >= 0`], "&&", to, indexPath(path, duplicate), "expected unique items; this one repeats an earlier one");
  }
  return out;
}

/** Copy on write of a changed array item: returns the name of the copy. */
function storeItem(w: Writer, copy: string | null, array: string, index: string, item: string, result: string): string | null {
  if (result === item) return copy;
  copy ??= w.name("c");
  w.open(`if (${result} !== ${item}) {`);
  w.line(`${copy} ??= ${array}.slice();`);
  w.line(`${copy}[${index}] = ${result};`);
  w.close();
  return copy;
}

/** Copy on write of a changed property (`key` is code: a string literal or a name). */
function storeProperty(w: Writer, copy: string | null, object: string, key: string, item: string, result: string): string | null {
  if (result === item) return copy;
  copy ??= w.name("c");
  w.needs.helpers.add("put");
  w.open(`if (${result} !== ${item}) {`);
  call(w, `${copy} = put`, [copy, object, key, result], ";");
  w.close();
  return copy;
}

function objectProperties(w: Writer, schema: Schema, value: string, path: Path, to: Fail): string {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set<string>();
  if (Array.isArray(schema.required)) for (const key of schema.required) if (typeof key === "string") required.add(key);
  const slot = w.placeholder();
  let copy: string | null = null;
  for (const key in properties) {
    const propertySchema = properties[key];
    const isRequired = required.has(key);
    if (!isRequired && isTrivial(propertySchema)) continue;
    const item = w.name("v");
    readProperty(w, item, value, key);
    const at = keyPath(path, key);
    if (isRequired) check(w, [`${item} === undefined`], "&&", to, at, `expected ${describe(w.unit, propertySchema)}`, "missing");
    else w.open(`if (${item} !== undefined) {`);
    copy = storeProperty(w, copy, value, printString(key), item, node(w, propertySchema, item, at, to));
    if (!isRequired) w.close();
  }
  for (const key of required) {
    if (Object.prototype.hasOwnProperty.call(properties, key)) continue;
    const item = w.name("v");
    readProperty(w, item, value, key);
    check(w, [`${item} === undefined`], "&&", to, keyPath(path, key), "expected a value", "missing");
  }
  const closed = schema.additionalProperties === false;
  const extra = closed || isTrivial(schema.additionalProperties) ? null : schema.additionalProperties!;
  const names = isTrivial(schema.propertyNames) ? null : schema.propertyNames!;
  if (closed || extra !== null || names !== null) {
    const key = w.name("k");
    const at = dynamicKeyPath(path, key);
    w.open(`for (const ${key} in ${value}) {`);
    if (names !== null) {
      const namePattern = isSchema(names) && typeof names.pattern === "string" ? names.pattern : null;
      const hint = `expected property names ${namePattern !== null ? `matching ${namePattern}` : `of ${describe(w.unit, names)}`}`;
      node(w, names, key, at, to, { coerce: false, hint });
    }
    const known = Object.keys(properties);
    if ((closed || extra !== null) && known.length > 0) {
      w.open(`switch (${key}) {`);
      for (const name of known) w.line(`case ${printString(name)}:`);
      w.line("  continue;");
      w.close();
    }
    if (closed) {
      fail(w, to, "invalid", at, known.length > 0 ? `unknown property; expected: ${known.join(", ")}` : "unknown property; expected no properties");
    } else if (extra !== null) {
      const item = w.name("v");
      w.line(`const ${item}: unknown = ${value}[${key}];`);
      copy = storeProperty(w, copy, value, key, item, node(w, extra, item, at, to));
    }
    w.close();
  }
  if (copy === null) return value;
  w.fill(slot, `let ${copy}: Record<string, unknown> | undefined;`);
  const out = w.name("v");
  w.line(`const ${out} = ${copy} ?? ${value};`);
  return out;
}

/** Calls a `(value, path)` function; returns the name of the value it returns, or `value`. */
function callValidator(w: Writer, fn: string, coerced: boolean, value: string, path: Path, to: Fail): string {
  const result = w.name("r");
  call(w, `const ${result} = ${fn}`, [value, renderPath(w, path)], ";");
  w.open(`if (!${result}.ok) {`);
  if (to.kind === "return") w.line(`return ${result};`);
  else fail(w, to, "invalid", path, "");
  w.close();
  if (!coerced) return value;
  const out = w.name("v");
  w.line(`const ${out} = ${result}.value;`);
  return out;
}

/**
 * `anyOf`: the first branch that passes wins, with its coerced value. A `{type: "null"}` branch
 * is a test for null (nothing coerces null): the other branches apply to the other values, one
 * branch directly (its errors are the ones reported). Otherwise each branch goes in a labelled
 * block that a failed check leaves, and the error is at the `anyOf`'s path.
 */
function anyOf(w: Writer, branches: readonly JsonValue[], value: string, path: Path, to: Fail, hint: string): string {
  const others = branches.filter((branch) => !isNullSchema(branch));
  if (others.length < branches.length) {
    if (others.length === 0) {
      check(w, [`${value} !== null`], "&&", to, path, hint);
      return value;
    }
    const slot = w.placeholder();
    w.open(`if (${value} !== null) {`);
    const out = others.length === 1 ? node(w, others[0], value, path, to, { hint }) : anyOfBlocks(w, others, value, path, to, hint);
    if (out === value) {
      w.close();
      return value;
    }
    const result = w.name("r");
    w.fill(slot, `let ${result}: unknown = ${value};`);
    w.line(`${result} = ${out};`);
    w.close();
    return result;
  }
  return anyOfBlocks(w, branches, value, path, to, hint);
}

function anyOfBlocks(w: Writer, branches: readonly JsonValue[], value: string, path: Path, to: Fail, hint: string): string {
  const coerced = branches.some((branch) => coerces(w.unit, branch));
  const result = coerced ? w.name("r") : null;
  if (result !== null) w.line(`let ${result}: unknown;`);
  const done = w.name("l");
  w.open(`${done}: {`);
  let exhaustive = false;
  for (const branch of branches) {
    const slot = w.placeholder();
    const next: Fail = { kind: "break", label: w.name("l"), used: false };
    w.indent += 2;
    const out = node(w, branch, value, path, next);
    if (result !== null) w.line(`${result} = ${out};`);
    w.line(`break ${done};`);
    w.close();
    w.fill(slot, next.used ? `${next.label}: {` : "{");
    // A branch that cannot fail makes the rest unreachable.
    if (!next.used) {
      exhaustive = true;
      break;
    }
  }
  if (!exhaustive) fail(w, to, "invalid", path, hint);
  w.close();
  return result ?? value;
}

function enumCheck(w: Writer, values: readonly JsonValue[], value: string, to: Fail, path: Path, hint: string): void {
  if (values.length === 1 && w.fits(`if (${value} !== ${literal(values[0]!)}) {`)) {
    return check(w, [`${value} !== ${literal(values[0]!)}`], "&&", to, path, hint);
  }
  w.open(`switch (${value}) {`);
  for (const item of values) w.line(`case ${literal(item)}:`);
  w.line("  break;");
  w.line("default:");
  w.indent += 2;
  fail(w, to, "invalid", path, hint);
  w.indent -= 2;
  w.close();
}

/** Conditions that are all true when `value` has none of `types`. */
function typeFailures(w: Writer, types: readonly string[], value: string): string[] {
  const out: string[] = [];
  const number = types.includes("number");
  for (const type of types) {
    if (type === "string") out.push(`typeof ${value} !== "string"`);
    else if (type === "boolean") out.push(`typeof ${value} !== "boolean"`);
    else if (type === "null") out.push(`${value} !== null`);
    else if (type === "array") out.push(`!Array.isArray(${value})`);
    else if (type === "number" || type === "integer" || type === "object") {
      if (type === "integer" && number) continue;
      const helper = type === "number" ? "isNumber" : type === "integer" ? "isInteger" : "isObject";
      w.needs.helpers.add(helper);
      out.push(`!${helper}(${value})`);
    }
  }
  return out;
}

/** The module-level RegExp of a pattern: `PATTERN_` and a hash of its source. */
function pattern(w: Writer, source: string): string {
  const name = `PATTERN_${hash8(source)}`;
  w.needs.patterns.set(name, source);
  return name;
}

/** A `u`-flag regular expression literal with the same meaning as `new RegExp(source, "u")`. */
function regexLiteral(source: string): string {
  if (source === "") return "/(?:)/u";
  let out = "";
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === "\\" && i + 1 < source.length) {
      out += ch + source[++i];
    } else if (ch === "/") {
      out += "\\/";
    } else if (ch === "\n" || ch === "\r" || ch === "\u2028" || ch === "\u2029") {
      out += ch === "\n" ? "\\n" : ch === "\r" ? "\\r" : ch === "\u2028" ? "\\u2028" : "\\u2029";
    } else {
      out += ch;
    }
  }
  return `/${out}/u`;
}

function literal(value: JsonValue): string {
  if (typeof value === "string") return printString(value);
  if (typeof value === "number") return printNumber(value);
  if (typeof value === "boolean" || value === null) return String(value);
  throw new Error(`zcp gen: enum and const values must be primitives, got ${JSON.stringify(value)}`);
}

/** A number as prettier prints it. */
function printNumber(value: number): string {
  return JSON.stringify(value).replace("e+", "e");
}

// ---------------------------------------------------------------------------------------------
// Schema facts

function isSchema(value: JsonValue | undefined): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True for schemas that accept anything: `true`, absent, or annotations only. */
function isTrivial(schema: JsonValue | undefined): boolean {
  if (schema === undefined || schema === true) return true;
  if (!isSchema(schema)) return false;
  for (const keyword in schema) if (KEYWORDS.get(keyword) !== ANNOTATION && keyword !== "$defs") return false;
  return true;
}

/** Schemas with sub-schemas, which get deep enough to move into functions of their own. */
function isNullSchema(schema: JsonValue): boolean {
  if (!isSchema(schema) || schema.type !== "null") return false;
  for (const keyword in schema) if (keyword !== "type" && KEYWORDS.get(keyword) !== ANNOTATION) return false;
  return true;
}

function isComposite(schema: Schema): boolean {
  return schema.properties !== undefined || schema.additionalProperties !== undefined || schema.items !== undefined || schema.prefixItems !== undefined || schema.anyOf !== undefined || schema.propertyNames !== undefined;
}

function typeList(schema: Schema): readonly string[] | null {
  const type = schema.type;
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? (type as string[]) : null;
}

function kindOf(type: string): Kind | null {
  if (type === "integer" || type === "number") return "number";
  return type === "string" || type === "array" || type === "object" ? type : null;
}

function hasType(value: JsonValue, types: readonly string[]): boolean {
  if (value === null) return types.includes("null");
  if (typeof value === "number") return types.includes("number") || (Number.isInteger(value) && types.includes("integer"));
  if (Array.isArray(value)) return types.includes("array");
  return types.includes(typeof value);
}

function count(value: JsonValue | undefined): number | null {
  return typeof value === "number" ? value : null;
}

function defName(ref: string): string {
  if (!ref.startsWith("#/$defs/")) throw new Error(`zcp gen: only "#/$defs/..." references are supported, got "${ref}"`);
  return ref.slice("#/$defs/".length);
}

/**
 * Whether validating against `schema` can change the value (a coercion somewhere inside). The
 * `$defs` are settled first, by fixpoint, since they can refer to each other.
 */
function coerces(tool: Unit, schema: JsonValue | undefined): boolean {
  if (!isSchema(schema)) return false;
  if (!tool.settled) return coercesNow(tool, schema);
  let known = tool.coerces.get(schema);
  if (known === undefined) tool.coerces.set(schema, (known = coercesNow(tool, schema)));
  return known;
}

function coercesNow(tool: Unit, schema: Schema): boolean {
  const types = typeList(schema);
  if (types && !types.includes("string") && (types.includes("number") || types.includes("integer") || types.includes("boolean"))) return true;
  if (typeof schema.$ref === "string" && tool.defs.get(schema.$ref.slice("#/$defs/".length))?.coerces) return true;
  const properties = schema.properties;
  if (isSchema(properties)) for (const name in properties) if (subCoerces(tool, properties[name])) return true;
  if (Array.isArray(schema.anyOf)) for (const branch of schema.anyOf) if (subCoerces(tool, branch)) return true;
  if (Array.isArray(schema.prefixItems)) for (const item of schema.prefixItems) if (subCoerces(tool, item)) return true;
  return subCoerces(tool, schema.items) || subCoerces(tool, schema.additionalProperties);
}

function subCoerces(tool: Unit, schema: JsonValue | undefined): boolean {
  if (!isSchema(schema)) return false;
  return tool.settled ? coerces(tool, schema) : coercesNow(tool, schema);
}

function settleDefCoercion(tool: Unit): void {
  for (let changed = tool.defs.size > 0; changed; ) {
    changed = false;
    for (const def of tool.defs.values()) {
      if (!def.coerces && isSchema(def.schema) && coercesNow(tool, def.schema)) changed = def.coerces = true;
    }
  }
  tool.settled = true;
}

// ---------------------------------------------------------------------------------------------
// Hints

/** What a schema expects, in a few words: `integer >= 1`, `one of: a, b`, `Address object`. */
function describe(tool: Unit, schema: JsonValue | undefined, depth = 0): string {
  if (!isSchema(schema)) return schema === false ? "nothing" : "any value";
  let text = tool.described.get(schema);
  if (text === undefined) {
    text = describeNow(tool, schema, depth);
    if (depth === 0) tool.described.set(schema, text);
  }
  return text;
}

function describeNow(tool: Unit, schema: Schema, depth: number): string {
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.slice("#/$defs/".length);
    const def = tool.defs.get(name)?.schema;
    if (depth > 2 || !isSchema(def)) return name;
    return describe(tool, def, depth + 1);
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return `one of: ${schema.enum.map(show).join(", ")}`;
  if (Array.isArray(schema.anyOf)) {
    let text = "";
    for (const branch of schema.anyOf) text += `${text ? " or " : ""}${describe(tool, branch, depth + 1)}`;
    return text;
  }
  let types = typeList(schema);
  if (types === null) {
    const kinds: string[] = [];
    const bits = keywordBits(schema, tool.owner);
    for (const kind of KINDS) if (bits & KIND_BITS[kind]) kinds.push(kind);
    types = kinds;
  }
  if (types.length === 0) return "any value";
  let text = describeType(types[0]!, schema);
  for (let i = 1; i < types.length; i++) text += ` or ${describeType(types[i]!, schema)}`;
  return text;
}

function describeType(type: string, schema: Schema): string {
  if (type === "string") {
    let text = typeof schema.format === "string" ? `${schema.format} string` : "string";
    text += amount(count(schema.minLength), count(schema.maxLength), "character");
    if (typeof schema.pattern === "string") text += ` matching ${schema.pattern}`;
    return text;
  }
  if (type === "number" || type === "integer") {
    const bounds: string[] = [];
    for (const [keyword, operator] of HINT_BOUNDS) if (typeof schema[keyword] === "number") bounds.push(`${operator} ${schema[keyword]}`);
    let text = bounds.length > 0 ? `${type} ${bounds.join(" and ")}` : type;
    if (typeof schema.multipleOf === "number") text += `${bounds.length > 0 ? "," : ""} a multiple of ${schema.multipleOf}`;
    return text;
  }
  if (type === "array") {
    const items = amount(count(schema.minItems), count(schema.maxItems), "item");
    if (schema.uniqueItems !== true) return `array${items}`;
    return items ? `array${items.replace(/ items?$/, (word) => ` unique${word}`)}` : "array of unique items";
  }
  if (type === "object") return typeof schema.title === "string" ? `${schema.title} object` : "object";
  return type;
}

const HINT_BOUNDS: readonly (readonly [string, string])[] = [
  ["minimum", ">="],
  ["exclusiveMinimum", ">"],
  ["maximum", "<="],
  ["exclusiveMaximum", "<"],
];

/** ` of 1-16 characters`, ` of at least 2 items`... or "" without limits. */
function amount(min: number | null, max: number | null, word: string): string {
  if (min !== null && min > 0 && max !== null) return min === max ? ` of ${plural(min, word)}` : ` of ${min}-${max} ${word}s`;
  if (min !== null && min > 0) return ` of at least ${plural(min, word)}`;
  if (max !== null) return ` of at most ${plural(max, word)}`;
  return "";
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** An enum value in a hint: plain words bare, anything else as JSON. */
function show(value: JsonValue): string {
  return typeof value === "string" && /^[^\s,"]+(?: [^\s,"]+)*$/.test(value) ? value : JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------
// Helpers: emitted once per file when the generated code uses them

interface Helper {
  readonly name: string;
  readonly text: string;
}

const HELPERS: readonly Helper[] = [
  {
    name: "invalid",
    text: `function invalid(path: string, hint: string): ValidationResult {
  return { ok: false, error: \`invalid:\${path}\`, hint };
}
`,
  },
  {
    name: "missing",
    text: `function missing(path: string, hint: string): ValidationResult {
  return { ok: false, error: \`missing:\${path}\`, hint };
}
`,
  },
  {
    name: "isObject",
    text: `function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
`,
  },
  {
    name: "isNumber",
    text: `function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}
`,
  },
  {
    name: "isInteger",
    text: `function isInteger(value: unknown): value is number {
  return Number.isInteger(value);
}
`,
  },
  {
    name: "toNumber",
    text: `/** A string holding a JSON number becomes that number; anything else stays as it is. */
function toNumber(value: unknown): unknown {
  if (typeof value !== "string" || !NUMBER.test(value)) {
    return value;
  }
  const number = Number(value);
  return Number.isFinite(number) ? number : value;
}

const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
`,
  },
  {
    name: "toBoolean",
    text: `/** "true" and "false" become booleans; anything else stays as it is. */
function toBoolean(value: unknown): unknown {
  return value === "true" ? true : value === "false" ? false : value;
}
`,
  },
  {
    name: "codePoints",
    text: `/** The length of a string in Unicode code points, as JSON Schema counts it. */
function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}
`,
  },
  {
    name: "member",
    text: `/** A key as a path segment: \`.name\`, or \`["other key"]\`. */
function member(key: string): string {
  return IDENTIFIER.test(key) ? \`.\${key}\` : \`[\${JSON.stringify(key)}]\`;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
`,
  },
  {
    name: "own",
    text: `/** An own property (not one every object inherits, such as \`constructor\`). */
function own(object: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}
`,
  },
  {
    name: "put",
    text: `/** Copy on write: \`copy\` (or a new copy of \`source\`) with \`key\` set to \`value\`. */
function put(
  copy: Record<string, unknown> | undefined,
  source: Record<string, unknown>,
  key: string,
  value: unknown,
): Record<string, unknown> {
  const target = copy ?? { ...source };
  target[key] = value;
  return target;
}
`,
  },
  {
    name: "duplicateAt",
    text: `/** The index of the first item equal (as JSON) to an earlier one, or -1. */
function duplicateAt(items: readonly unknown[]): number {
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const key = canonical(items[i]);
    if (seen.has(key)) {
      return i;
    }
    seen.add(key);
  }
  return -1;
}

/** JSON text with sorted keys: equal JSON values, equal texts. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) {
    return \`[\${value.map(canonical).join(",")}]\`;
  }
  if (typeof value === "object" && value !== null) {
    const object = value as Record<string, unknown>;
    let text = "";
    for (const key of Object.keys(object).sort()) {
      text += \`\${text ? "," : ""}\${JSON.stringify(key)}:\${canonical(object[key])}\`;
    }
    return \`{\${text}}\`;
  }
  return JSON.stringify(value) ?? "null";
}
`,
  },
];
