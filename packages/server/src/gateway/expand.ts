/**
 * `${NAME}` in an upstream's description, replaced with the environment's value when
 * connecting: the runtime's, which `zcp gen` uses for the listing too (one rule for both).
 */
export { expandServer, expandText, MissingVariableError } from "@zcp/runtime/definition";
