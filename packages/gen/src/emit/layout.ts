/**
 * emit: the layout of generated code (the validators' statements, `compile/validators/code.ts`)
 * as prettier lays it out: every statement either fits in a line by construction or is broken
 * the way prettier breaks it (a call with one argument per line, a condition list with one
 * operand per line, a member read after its "=", a signature with one parameter per line). The
 * tests check that prettier leaves the output unchanged. Values (object and array literals) are
 * `print.ts`'s.
 */
import type { FunctionCode, Part, Statement } from "../compile/index.js";
import { PRINT_WIDTH, printNumber, printString, width } from "./print.js";
import { comment } from "./ts-file.js";

const PADS: string[] = [];
function pad(indent: number): string {
  return (PADS[indent] ??= " ".repeat(indent));
}

/** A function's text: its doc comment, its signature and body, then a newline. */
export function printFunction(fn: FunctionCode): string {
  const params = fn.params === "input" ? ["input: unknown"] : ["value: unknown", "path: string"];
  const flat = `function ${fn.name}(${params.join(", ")}): ValidationResult {`;
  const head =
    width(flat) <= PRINT_WIDTH
      ? flat
      : `function ${fn.name}(\n${params.map((param) => `  ${param},\n`).join("")}): ValidationResult {`;
  const lines: string[] = [];
  printStatements(lines, fn.body, 2);
  return `${fn.doc === null ? "" : `/** ${comment(fn.doc)} */\n`}${head}\n${lines.join("\n")}\n}\n`;
}

/**
 * `const <name> = pattern("<source>");`, when too long broken after the `=` or around the
 * argument (prettier's layout). The source is a string literal (`printString`, the one escaping
 * function of generated code), never a regular expression literal, whose escaping would be a
 * second one: an upstream controls the source. The runtime's `pattern` compiles it with the `u` flag when
 * first tested, so the module never throws when it loads, even on a Node older than the one
 * that ran zcp gen (which refuses a source it cannot compile: ZCP1710).
 */
export function printPattern(name: string, source: string): string {
  const literal = printString(source);
  const flat = `const ${name} = pattern(${literal});`;
  if (width(flat) <= PRINT_WIDTH) return `${flat}\n`;
  // Prettier keeps a call with one short argument (a literal of at most a quarter of the print
  // width in UTF-16 units, quotes included) whole, on the line after the `=`.
  if (literal.length <= PRINT_WIDTH / 4) return `const ${name} =\n  pattern(${literal});\n`;
  return `const ${name} = pattern(\n  ${literal},\n);\n`;
}

/** `keyword { a, b } from "module";`, one name per line when too long. */
export function printImport(keyword: string, names: readonly string[], module: string): string {
  const flat = `${keyword} { ${names.join(", ")} } from ${printString(module)};\n`;
  if (width(flat) - 1 <= PRINT_WIDTH) return flat;
  return `${keyword} {\n${names.map((name) => `  ${name},\n`).join("")}} from ${printString(module)};\n`;
}

/** Whether `text` fits on a line at `indent`. */
function fits(indent: number, text: string): boolean {
  // A character is at most 2 columns wide: short texts need no measuring.
  return indent + 2 * text.length <= PRINT_WIDTH || indent + width(text) <= PRINT_WIDTH;
}

function part(value: Part): string {
  return typeof value === "string" ? value : printString(value.str);
}

function literal(value: string | number | boolean | null): string {
  if (typeof value === "string") return printString(value);
  if (typeof value === "number") return printNumber(value);
  return String(value);
}

function printStatements(out: string[], statements: readonly Statement[], indent: number): void {
  for (const statement of statements) printStatement(out, statement, indent);
}

function printStatement(out: string[], statement: Statement, indent: number): void {
  if (typeof statement === "string") {
    out.push(pad(indent) + statement);
    return;
  }
  if (Array.isArray(statement)) {
    out.push(pad(indent) + (statement as readonly Part[]).map(part).join(""));
    return;
  }
  const node = statement as Exclude<Statement, string | readonly Part[]>;
  switch (node.kind) {
    case "block":
      out.push(pad(indent) + node.head);
      printStatements(out, node.body, indent + 2);
      out.push(`${pad(indent)}}`);
      return;
    case "if":
      openIf(out, node.conditions, node.operator, indent);
      printStatements(out, node.body, indent + 2);
      out.push(`${pad(indent)}}`);
      return;
    case "call":
      call(out, node.head, node.args.map(part), node.tail, indent);
      return;
    case "read":
      readProperty(out, node.name, node.object, node.key, indent);
      return;
    case "enum":
      enumCheck(out, node.value, node.values, node.fail, indent);
      return;
    case "slot":
      if (node.text !== null) out.push(pad(indent) + node.text);
      return;
  }
}

/** `head(args...)tail`, on one line or with one argument per line (prettier's call layout). */
function call(
  out: string[],
  head: string,
  args: readonly string[],
  tail: string,
  indent: number,
): void {
  const flat = `${head}(${args.join(", ")})${tail}`;
  if (fits(indent, flat)) {
    out.push(pad(indent) + flat);
    return;
  }
  const equals = head.indexOf(" = ");
  if (equals >= 0 && !fits(indent, `${head}(`)) {
    // An assignment whose callee does not fit: prettier breaks after "=" first.
    out.push(pad(indent) + head.slice(0, equals + 2));
    call(out, head.slice(equals + 3), args, tail, indent + 2);
    return;
  }
  out.push(`${pad(indent)}${head}(`);
  for (const arg of args) out.push(`${pad(indent)}  ${arg},`);
  out.push(`${pad(indent)})${tail}`);
}

/** `if (a && b) {`, or prettier's broken form with one operand per line. */
function openIf(
  out: string[],
  conditions: readonly string[],
  operator: "&&" | "||",
  indent: number,
): void {
  const flat = `if (${conditions.join(` ${operator} `)}) {`;
  if (fits(indent, flat)) {
    out.push(pad(indent) + flat);
    return;
  }
  out.push(`${pad(indent)}if (`);
  for (let i = 0; i < conditions.length; i++)
    out.push(`${pad(indent)}  ${conditions[i]}${i < conditions.length - 1 ? ` ${operator}` : ""}`);
  out.push(`${pad(indent)}) {`);
}

/** `const name = object["key"];` in prettier's layout for a member expression that is too long. */
function readProperty(
  out: string[],
  name: string,
  object: string,
  key: string,
  indent: number,
): void {
  const quoted = printString(key);
  const access = `${object}[${quoted}]`;
  const p = pad(indent);
  if (fits(indent, `const ${name} = ${access};`)) {
    out.push(`${p}const ${name} = ${access};`);
    return;
  }
  out.push(`${p}const ${name} =`);
  if (fits(indent, `  ${access};`)) {
    out.push(`${p}  ${access};`);
    return;
  }
  out.push(`${p}  ${object}[`, `${p}    ${quoted}`, `${p}  ];`);
}

/** `if (value !== "x") {` for one value when it fits, else a `switch` with a case per value. */
function enumCheck(
  out: string[],
  value: string,
  values: readonly (string | number | boolean | null)[],
  fail: readonly Statement[],
  indent: number,
): void {
  if (values.length === 1) {
    const condition = `${value} !== ${literal(values[0]!)}`;
    if (fits(indent, `if (${condition}) {`)) {
      openIf(out, [condition], "&&", indent);
      printStatements(out, fail, indent + 2);
      out.push(`${pad(indent)}}`);
      return;
    }
  }
  const p = pad(indent);
  out.push(`${p}switch (${value}) {`);
  for (const item of values) out.push(`${p}  case ${literal(item)}:`);
  out.push(`${p}    break;`, `${p}  default:`);
  printStatements(out, fail, indent + 4);
  out.push(`${p}}`);
}
