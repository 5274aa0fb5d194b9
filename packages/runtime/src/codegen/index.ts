// Node's types: ToolContext names AbortSignal, which a project without DOM types gets from @types/node.
/// <reference types="node" preserve="true" />
/**
 * `@zcp/runtime/codegen`: the contract between `zcp gen` and the code it generates, and only
 * that: every name here is one a generated file imports (the table types of `index.ts`,
 * `registry.ts`, `dispatch.ts`, `validators.ts` and `find.ts`, the validators' helpers and
 * format checkers, date revival and the composed-package check), plus the element types of the
 * tables. `symbols.ts` lists them for the generator's import lines. This room imports only
 * `definition/`. Applications use `@zcp/runtime`; the generator's other needs (the registry
 * format and what derives from it) are `@zcp/runtime/definition`.
 */
export type { Registry, ToolDefinition } from "../definition/registry.js";
export type { FindIndex } from "../definition/find/build.js";
export type { GeneratedModule } from "./module.js";
export type { PromptContext, ToolContext } from "./context.js";
export type { DispatchTable, Dispatcher, ToolArguments, WithHandles } from "./dispatch.js";
export { asDeclared, dispatchTable, reviveDates } from "./dispatch.js";
export type { GeneratedFeatures } from "./features.js";
export { featureTable } from "./features.js";
export type { ValidationResult, Validator, ValidatorTable } from "./validate.js";
export { checkComposedPackage } from "./composed.js";
export {
  isDate,
  isDateTime,
  isDuration,
  isEmail,
  isHostname,
  isIpv4,
  isIpv6,
  isTime,
  isUri,
  isUuid,
} from "./formats.js";
export {
  codePoints,
  duplicateAt,
  invalid,
  isInteger,
  isNumber,
  isObject,
  member,
  missing,
  own,
  pattern,
  put,
  sameJson,
  toBoolean,
  toNumber,
} from "./validator-helpers.js";
export { declaredErrors } from "./declared-errors.js";
