/**
 * Code mode's programs for a call script, derived mechanically (never written by hand): the
 * script's steps in order, one `await tools.<alias>(args)` each with the step's own arguments
 * (compact JSON, which is JavaScript), cut into one program per decision point. A step marked
 * `decision` (its arguments come from a result the agent read of an earlier step of the
 * same program) starts a new program: the agent must read that result before it can write the
 * call. A program returns, as an array in step order, the values of its steps marked
 * `needs: "all"` (the results the agent reads); the others' values are not returned (a failed
 * call throws, so the program's answer says that they succeeded).
 */
import { printKey } from "@zcp/runtime/definition";
import type { Script } from "./script.ts";

export interface Program {
  /** The index of its first step in the script. */
  readonly first: number;
  /** The indexes of its steps, in order. */
  readonly steps: readonly number[];
  /** The indexes of the steps whose values it returns, in the order it returns them. */
  readonly returns: readonly number[];
  /** `zcp.run`'s argument: the body of an async function. */
  readonly code: string;
}

/**
 * The expression that calls a tool in a program: `tools.<alias>`, nested by the alias's dots, a
 * segment that is not an identifier as `["seg"]` (docs/code-mode.md, "The program").
 */
const toolExpression = (alias: string) =>
  `tools${alias
    .split(".")
    .map((segment) => (printKey(segment) === segment ? `.${segment}` : `[${printKey(segment)}]`))
    .join("")}`;

/**
 * How a program calls a tool: by its alias, or (a 2026-07-28 discover view, where a found tool
 * joins no view) through the built-in `zcp.call_tool`, with the same arguments.
 */
export type CallForm = "alias" | "call_tool";

const render = (form: CallForm, tool: string, args: object) =>
  form === "alias"
    ? `await ${toolExpression(tool)}(${JSON.stringify(args)})`
    : `await tools.zcp.call_tool(${JSON.stringify({ name: tool, arguments: args })})`;

/** The script's programs (the tools' aliases are the original's MCP names, as every port keeps them). */
export function programsOf(script: Script, form: CallForm = "alias"): Program[] {
  const starts = script.steps.flatMap((step, i) => (i === 0 || step.decision ? [i] : []));
  return starts.map((first, k) => {
    const end = starts[k + 1] ?? script.steps.length;
    const returns: number[] = [];
    const steps = script.steps.slice(first, end);
    const lines = steps.map((step, offset) => {
      const call = render(form, step.tool, step.args);
      if (step.needs !== "all") return `${call};`;
      returns.push(first + offset);
      return `const r${returns.length} = ${call};`;
    });
    lines.push(`return [${returns.map((_, i) => `r${i + 1}`).join(", ")}];`);
    return {
      first,
      steps: steps.map((_, offset) => first + offset),
      returns,
      code: lines.join("\n"),
    };
  });
}
