/**
 * The error types a tool declares with `@throws {NotFoundError} text`: the generated dispatch
 * table holds its dispatcher wrapped by `declaredErrors`, with each declared class (statically
 * imported, checked with `instanceof`: no reflection) and the code `zcp gen` gave it. A thrown
 * instance of one of them answers the model with that code and the error's message, as a
 * `ToolError` would; anything else is rethrown as it is, for the runtime to keep in its log.
 */
import type { ToolContext } from "./context.js";

/** An error class a tool declares, as the generated dispatcher names it. */
type ErrorClass = abstract new (...args: never[]) => Error;

/** A tool's declared classes and codes, in the order of its tags: the first that matches answers. */
type DeclaredErrors = readonly (readonly [ErrorClass, string])[];

/**
 * `dispatcher`, which turns a thrown or rejected instance of a `declared` class into the
 * `ToolError` form (an error named `ToolError` with the class's code). That form, not the
 * class, is what crosses a thread boundary, and what the runtime reads (`toolErrorOf`, which
 * bounds the message and strips control characters). A synchronous tool stays synchronous.
 */
export function declaredErrors<A>(
  dispatcher: (args: A, context: ToolContext) => unknown,
  declared: DeclaredErrors,
): (args: A, context: ToolContext) => unknown {
  return (args, context) => {
    let returned: unknown;
    try {
      returned = dispatcher(args, context);
    } catch (error) {
      throw asDeclaredError(error, declared);
    }
    if (!isThenable(returned)) return returned;
    return Promise.resolve(returned).catch((error: unknown) => {
      throw asDeclaredError(error, declared);
    });
  };
}

function asDeclaredError(error: unknown, declared: DeclaredErrors): unknown {
  for (const [type, code] of declared) {
    if (error instanceof type) {
      // A message is the author's text, but may hold anything: `toolErrorOf` cuts and cleans it.
      const message = typeof error.message === "string" ? error.message : "";
      return Object.assign(new Error(message, { cause: error }), { name: "ToolError", code });
    }
  }
  return error;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
