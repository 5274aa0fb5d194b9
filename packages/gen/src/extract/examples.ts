/**
 * extract: a tool's own `@example` tags, each a JSON object of its arguments (what Anthropic
 * takes as `input_examples`): parsed as a parameter's `@example` is (`exampleValues`, a caption
 * allowed), checked against the tool's input schema by the code its generated validator runs
 * (an `ExampleValidator`), the first `MAX_EXAMPLES` kept. An example that is no JSON object
 * (ZCP1301), that the validator refuses or would only take coerced (ZCP1306), or past the
 * fifth (ZCP1301) is left out with a warning.
 */
import { isDeepStrictEqual } from "node:util";
import type { JsonSchema, JsonValue } from "@zcp/runtime/definition";
import type { Validator } from "@zcp/runtime/codegen";
import { exampleValues, type Diagnose } from "./annotations.js";
import type { Tag } from "./jsdoc.js";

/** The most examples a tool keeps: what Anthropic takes per tool. */
const MAX_EXAMPLES = 5;

export type ExampleArguments = { [param: string]: JsonValue };

/**
 * The validator of an input schema, as its generated code runs it. Only compile and emit can
 * make that code, and they come after extract: the pipeline hands their check in (emit's
 * `validatorFunction`) rather than extract importing the later stages.
 */
export type ExampleValidator = (inputSchema: JsonSchema) => Validator;

/** The valid examples of the tool-level `tags`, in order. */
export function toolExamples(
  tags: readonly Tag[],
  inputSchema: JsonSchema,
  diagnose: Diagnose,
  validatorFor: ExampleValidator,
): ExampleArguments[] {
  const examples: ExampleArguments[] = [];
  let validate: Validator | undefined;
  for (const tag of tags) {
    if (tag.name !== "example") continue;
    const warn = (code: "ZCP1301" | "ZCP1306", message: string) =>
      diagnose(tag.node, code, `@example: ${message}; the example is left out`, "warning");
    const value = exampleValues(tag.text, false, false)?.[0];
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      warn("ZCP1301", `"${tag.text}" is not a JSON object of the tool's arguments`);
      continue;
    }
    if (examples.length === MAX_EXAMPLES) {
      warn("ZCP1301", `a tool keeps at most ${MAX_EXAMPLES} examples`);
      continue;
    }
    const result = (validate ??= validatorFor(inputSchema))(value);
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
  return examples;
}
