/**
 * A program's text as QuickJS runs it: TypeScript type syntax stripped (sucrase, `typescript`
 * transform only: nothing else is rewritten), wrapped as the body of an async function whose
 * promise is the run's result. The wrapper adds one line before the program.
 */
import { transform } from "sucrase";

/** Lines the wrapper adds before the program's first line. */
export const WRAPPER_LINES = 1;

/** The wrapped, stripped program, or the syntax error sucrase found (with the program's line). */
export function transpile(code: string): { code: string } | { syntaxError: string } {
  const wrapped = `(async () => {\n${code}\n})()`;
  try {
    return {
      code: transform(wrapped, { transforms: ["typescript"], disableESTransforms: true }).code,
    };
  } catch (error) {
    const { message, loc } = error as { message?: unknown; loc?: { line?: unknown } };
    const text = String(message ?? error).replace(/\s*\(\d+:\d+\)$/, "");
    const line = typeof loc?.line === "number" ? loc.line - WRAPPER_LINES : undefined;
    return { syntaxError: syntaxHint(text, line) };
  }
}

/** The hint of a syntax error: `SyntaxError: <message> (line L)`. */
export function syntaxHint(message: string, line: number | undefined): string {
  return `SyntaxError: ${message}${line !== undefined && line >= 1 ? ` (line ${line})` : ""}`;
}
