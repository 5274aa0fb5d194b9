/**
 * compile: a tool's own `@example` tags, each a JSON object of its arguments (what Anthropic
 * takes as `input_examples`): parsed as a parameter's `@example` is (`exampleValues`, a caption
 * allowed), checked against the tool's input schema by the code its generated validator runs
 * (an `ExampleValidator`), the first `MAX_EXAMPLES` kept. An example that is no JSON object
 * (ZCP1301), that the validator refuses or would only take coerced (ZCP1306), or past the
 * fifth (ZCP1301) is left out with a warning.
 *
 * The kept examples are part of a tool's definition and of its hash, so the definition the
 * model made without them is completed here (`withExamples`): definitions and their hashes are
 * final only after this step. Every extracted tool's tags are checked, those the model or the
 * composition leave out included, as their warnings are said wherever the tool is.
 */
import { isDeepStrictEqual } from "node:util";
import type { JsonSchema, JsonValue, ToolDefinition } from "@zcp/runtime/definition";
import type { Validator } from "@zcp/runtime/codegen";
import { diagnostic, type Diagnostic } from "../diagnostics.js";
import { exampleValues, type ExtractedTool } from "../extract/index.js";
import { completeDefinition } from "../model/index.js";

/** The most examples a tool keeps: what Anthropic takes per tool. */
const MAX_EXAMPLES = 5;

type ExampleArguments = { [param: string]: JsonValue };

/**
 * The validator of an input schema, as its generated code runs it. Running that code takes
 * emit's printing of it (`emit/evaluate.ts`), a later stage: the pipeline hands the check in.
 */
type ExampleValidator = (inputSchema: JsonSchema) => Validator;

export interface CheckedExamples {
  /** The tool's examples that fit its parameters, in order. */
  readonly examples: ExampleArguments[];
  readonly diagnostics: Diagnostic[];
}

/** The valid examples of `tool`'s `@example` tags, and a warning for each one left out. */
export function checkExamples(
  tool: ExtractedTool,
  validatorFor: ExampleValidator,
): CheckedExamples {
  const examples: ExampleArguments[] = [];
  const diagnostics: Diagnostic[] = [];
  let validate: Validator | undefined;
  for (const tag of tool.exampleTags) {
    const warn = (code: "ZCP1301" | "ZCP1306", message: string) =>
      diagnostics.push(
        diagnostic("warning", code, `@example: ${message}; the example is left out`, tag.position),
      );
    const value = exampleValues(tag.text, false, false)?.[0];
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      warn("ZCP1301", `"${tag.text}" is not a JSON object of the tool's arguments`);
      continue;
    }
    if (examples.length === MAX_EXAMPLES) {
      warn("ZCP1301", `a tool keeps at most ${MAX_EXAMPLES} examples`);
      continue;
    }
    const result = (validate ??= validatorFor(tool.inputSchema as JsonSchema))(value);
    const text = JSON.stringify(value);
    if (!result.ok)
      warn("ZCP1306", `${text} does not fit the parameters (${result.error}: ${result.hint})`);
    else if (!isDeepStrictEqual(result.value, value))
      warn(
        "ZCP1306",
        `${text} fits the parameters only after a string is read as a number or boolean; write the value itself`,
      );
    else examples.push(value as ExampleArguments);
  }
  return { examples, diagnostics };
}

/**
 * `definition` (the model's, made without examples) with `examples`, its hash made again. A
 * tool without examples has no `examples` field: its definition is the model's.
 */
export function withExamples(
  definition: ToolDefinition,
  examples: readonly ExampleArguments[],
): ToolDefinition {
  if (examples.length === 0) return definition;
  const { planner: _planner, plannerBare: _plannerBare, hash: _hash, source, ...rest } = definition;
  // The field's place in the definition (before `source`) is the place it has in the registry.
  return completeDefinition({ ...rest, examples, source });
}
