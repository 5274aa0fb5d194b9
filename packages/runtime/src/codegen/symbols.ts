/**
 * `@zcp/runtime/codegen/symbols`: every name of `@zcp/runtime/codegen`, marked as a value or
 * type-only, for `zcp gen` to write the import lines of generated files from (it takes names
 * typed as this table's keys). The type checker ties the table to the entry both ways: a value
 * the entry exports that is missing here, a name here the entry does not export, or a type
 * renamed in the entry, fails to compile, and so does gen's use of a name no longer here.
 */
import type * as codegen from "./index.js";

/** The module generated files import. */
export const CODEGEN_MODULE = "@zcp/runtime/codegen";

/** The entry's values: exactly `keyof typeof codegen` (the `satisfies` checks both ways). */
const VALUES = {
  asDeclared: "value",
  checkComposedPackage: "value",
  codePoints: "value",
  declaredErrors: "value",
  dispatchTable: "value",
  duplicateAt: "value",
  featureTable: "value",
  invalid: "value",
  isDate: "value",
  isDateTime: "value",
  isDuration: "value",
  isEmail: "value",
  isHostname: "value",
  isInteger: "value",
  isIpv4: "value",
  isIpv6: "value",
  isNumber: "value",
  isObject: "value",
  isTime: "value",
  isUri: "value",
  isUuid: "value",
  member: "value",
  missing: "value",
  own: "value",
  pattern: "value",
  put: "value",
  reviveDates: "value",
  sameJson: "value",
  toBoolean: "value",
  toNumber: "value",
} as const satisfies Record<keyof typeof codegen, "value">;

/** The entry's types, each naming the export (a namespace's types have no `keyof`). */
interface TypeExports {
  GeneratedFeatures: codegen.GeneratedFeatures;
  DispatchTable: codegen.DispatchTable;
  Dispatcher: codegen.Dispatcher;
  FindIndex: codegen.FindIndex;
  GeneratedModule: codegen.GeneratedModule;
  PromptContext: codegen.PromptContext;
  Registry: codegen.Registry;
  ToolArguments: codegen.ToolArguments;
  ToolContext: codegen.ToolContext;
  ToolDefinition: codegen.ToolDefinition;
  ValidationResult: codegen.ValidationResult;
  Validator: codegen.Validator;
  ValidatorTable: codegen.ValidatorTable;
  WithHandles: codegen.WithHandles<object, { [name: string]: string }>;
}

const TYPES: { readonly [name in keyof TypeExports]: "type" } = {
  GeneratedFeatures: "type",
  DispatchTable: "type",
  Dispatcher: "type",
  FindIndex: "type",
  GeneratedModule: "type",
  PromptContext: "type",
  Registry: "type",
  ToolArguments: "type",
  ToolContext: "type",
  ToolDefinition: "type",
  ValidationResult: "type",
  Validator: "type",
  ValidatorTable: "type",
  WithHandles: "type",
};

/** A name of `@zcp/runtime/codegen`. */
export type CodegenSymbol = keyof typeof VALUES | keyof TypeExports;

/** Each name of `@zcp/runtime/codegen` and whether it is a value or type-only. */
export const CODEGEN_SYMBOLS: { readonly [name in CodegenSymbol]: "value" | "type" } = {
  ...VALUES,
  ...TYPES,
};
