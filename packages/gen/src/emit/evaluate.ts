/**
 * emit: a generated validator as a function of this process, to check values at gen time (a
 * tool's `@example` arguments) with the very code `validators.ts` runs: the compiled functions
 * (`compileValidators`, laid out by `validatorText`), types stripped by TypeScript's
 * `transpileModule`, and the helpers and format checkers they call taken from
 * `@zcp/runtime/codegen`, as the generated module imports them.
 */
import { ts } from "@ts-morph/common";
import * as codegen from "@zcp/runtime/codegen";
import type { JsonSchema, ToolDefinition } from "@zcp/runtime/definition";
import type { Validator } from "@zcp/runtime/codegen";
import { compileValidators } from "../compile/index.js";
import { printPattern } from "./layout.js";
import { validatorText } from "./validators.js";

/** The validator of a tool whose input schema is `inputSchema`. */
export function validatorFunction(inputSchema: JsonSchema): Validator {
  const tool = { id: "example", alias: "example", inputSchema } as unknown as ToolDefinition;
  const set = compileValidators([tool]);
  const units = [...set.tools.map((entry) => entry.code), ...set.shared.values()];
  const imports = new Set<string>();
  const patterns = new Map<string, string>();
  let text = "";
  for (const code of units) {
    for (const name of [...code.helpers, ...code.formats]) imports.add(name);
    for (const [name, source] of code.patterns) patterns.set(name, source);
    text += validatorText(code);
  }
  for (const [name, source] of patterns) text = printPattern(name, source) + text;
  const code = ts.transpileModule(text, {
    compilerOptions: { target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const names = [...imports];
  const values = names.map((name) => (codegen as unknown as Record<string, unknown>)[name]);
  return new Function(...names, `${code}\nreturn ${set.tools[0]!.fn};`)(...values) as Validator;
}
