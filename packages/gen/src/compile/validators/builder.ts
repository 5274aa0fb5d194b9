/**
 * compile/validators: building one function's statements (`code.ts`): blocks, lines, fresh local
 * names, error paths and failures. The indentation it counts is only the nesting depth, which
 * decides where nested schemas move into functions of their own; how lines break is emit's.
 */
import type { JsonValue } from "@zcp/runtime/definition";
import type { Block, If, Line, Part, Slot, Statement } from "./code.js";
import type { Needs, Unit } from "./unit.js";

/** Keys found on every object through its prototype: read them as own properties only. */
const PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

export interface NodeOptions {
  /** The schema of a whole function (a tool's input, a shared type): compiled, not called. */
  readonly root?: boolean;
  /** False for property names: they are strings whatever the schema says. */
  readonly coerce?: boolean;
  /** The hint of this node's own failures, instead of its description. */
  readonly hint?: string;
}

/**
 * Compiles the checks of `schema` on the value in `value` (a local name or parameter) and returns
 * the name holding the value after coercions: `value` itself when the schema cannot coerce.
 */
export type CompileNode = (
  w: CodeBuilder,
  schema: JsonValue | undefined,
  value: string,
  path: Path,
  to: Fail,
  options?: NodeOptions,
) => string;

/**
 * Compiles a keyword's checks on the value in `value`, as `CompileNode` does a schema's:
 * `operand` is the keyword's value (a schema, or a list of branches), and `hint` what a failure
 * of the keyword's own check says. Returns what the keyword's caller goes on with (the name of
 * the value after coercions, for a keyword that can coerce).
 */
export type CompileKeyword<Operand, Result = string> = (
  w: CodeBuilder,
  operand: Operand,
  value: string,
  path: Path,
  to: Fail,
  hint: string,
) => Result;

/** A keyword whose checks say their own hints (an array's or object's structure, `if`). */
export type CompileStructure<Operand> = (
  w: CodeBuilder,
  operand: Operand,
  value: string,
  path: Path,
  to: Fail,
) => string;

/** The statements of one function body, with its nesting and local names. */
export class CodeBuilder {
  readonly body: Statement[] = [];
  private readonly open_: Statement[][] = [this.body];
  /** Columns of indentation of the current statement (2 per level: the function body is at 2). */
  indent = 2;
  private count = 0;
  /** Above 0 while compiling a test whose outcome is all that counts (`not`, `if`...): no coercion. */
  strict = 0;
  /** The `$ref`s being compiled in place (a strict test does not call the coercing function). */
  readonly inlining = new Set<string>();

  constructor(
    readonly unit: Unit,
    private readonly compileNode: CompileNode,
  ) {}

  get needs(): Needs {
    return this.unit.needs;
  }

  /** Compiles a sub-schema here (see `CompileNode`). */
  node(
    schema: JsonValue | undefined,
    value: string,
    path: Path,
    to: Fail,
    options?: NodeOptions,
  ): string {
    return this.compileNode(this, schema, value, path, to, options);
  }

  /** Runs `compile` strictly: a test of the value as it is, with nothing coerced. */
  strictly<T>(compile: () => T): T {
    this.strict++;
    try {
      return compile();
    } finally {
      this.strict--;
    }
  }

  /** A fresh local name: `v3`, `i4`, `l5`... */
  name(prefix: string): string {
    return `${prefix}${++this.count}`;
  }

  private push(statement: Statement): void {
    this.open_[this.open_.length - 1]!.push(statement);
  }

  line(text: Line): void {
    this.push(text);
  }

  /** A block `head` ... `}`: what follows goes in it until `close`. */
  open(head: string): Block {
    const block: Block = { kind: "block", head, body: [] };
    this.push(block);
    this.open_.push(block.body);
    this.indent += 2;
    return block;
  }

  /** `if (a && b) {` ... `}`: what follows goes in it until `close`. */
  openIf(conditions: readonly string[], operator: "&&" | "||"): void {
    const node: If = { kind: "if", conditions, operator, body: [] };
    this.push(node);
    this.open_.push(node.body);
    this.indent += 2;
  }

  close(): void {
    this.open_.pop();
    this.indent -= 2;
  }

  /** `head(args...)tail`. */
  call(head: string, args: readonly Part[], tail: string): void {
    this.push({ kind: "call", head, args, tail });
  }

  /** `const name = object["key"];`, through `own` for keys every object inherits. */
  readProperty(name: string, object: string, key: string): void {
    if (PROTOTYPE_KEYS.has(key)) {
      this.needs.helpers.add("own");
      return this.call(`const ${name} = own`, [object, { str: key }], ";");
    }
    this.push({ kind: "read", name, object, key });
  }

  /** The test that `value` is one of `values`, failing with what `fail` adds. */
  enumCheck(
    value: string,
    values: readonly (string | number | boolean | null)[],
    fail: () => void,
  ): void {
    const statements: Statement[] = [];
    this.open_.push(statements);
    fail();
    this.open_.pop();
    this.push({ kind: "enum", value, values, fail: statements });
  }

  /**
   * The code `compile` adds, inside `if (condition) {` ... `}`; returns the name of the value
   * after it: a `let` declared before the block when that code changed `value`, else `value`.
   */
  guarded(condition: string, value: string, compile: () => string): string {
    const slot = this.placeholder();
    this.open(`if (${condition}) {`);
    const out = compile();
    let result = value;
    if (out !== value) {
      result = this.name("r");
      slot.text = `let ${result}: unknown = ${value};`;
      this.line(`${result} = ${out};`);
    }
    this.close();
    return result;
  }

  /** A line to fill in later (or leave out). */
  placeholder(): Slot {
    const slot: Slot = { kind: "slot", text: null };
    this.push(slot);
    return slot;
  }
}

// ---------------------------------------------------------------------------------------------
// Paths and failures

/** A `$`-rooted path: a runtime base (`path`) or `$`, then static text and runtime expressions. */
export interface Path {
  readonly base: string | null;
  readonly parts: readonly (string | { readonly expr: string })[];
}

export const ROOT: Path = { base: null, parts: [] };
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function keyPath(path: Path, key: string): Path {
  return {
    base: path.base,
    parts: [...path.parts, IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`],
  };
}

export function indexPath(path: Path, index: number | string): Path {
  if (typeof index === "number") return { base: path.base, parts: [...path.parts, `[${index}]`] };
  return { base: path.base, parts: [...path.parts, "[", { expr: index }, "]"] };
}

export function dynamicKeyPath(path: Path, key: string): Path {
  return { base: path.base, parts: [...path.parts, { expr: `member(${key})` }] };
}

/** The path as a string literal, or a template literal when parts of it are known at run time. */
export function renderPath(w: CodeBuilder, path: Path): Part {
  let dynamic = path.base !== null;
  for (const part of path.parts) if (typeof part !== "string") dynamic = true;
  if (!dynamic) return { str: `$${path.parts.join("")}` };
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
export type Fail =
  { readonly kind: "return" } | { readonly kind: "break"; readonly label: string; used: boolean };
export const RETURN: Fail = { kind: "return" };

export function fail(
  w: CodeBuilder,
  to: Fail,
  kind: "invalid" | "missing",
  path: Path,
  hint: string,
): void {
  if (to.kind === "break") {
    to.used = true;
    return w.line(`break ${to.label};`);
  }
  w.needs.helpers.add(kind);
  w.call(`return ${kind}`, [renderPath(w, path), { str: hint }], ";");
}

/** `if (conditions) { <fail> }`. */
export function check(
  w: CodeBuilder,
  conditions: readonly string[],
  operator: "&&" | "||",
  to: Fail,
  path: Path,
  hint: string,
  kind: "invalid" | "missing" = "invalid",
): void {
  w.openIf(conditions, operator);
  fail(w, to, kind, path, hint);
  w.close();
}
