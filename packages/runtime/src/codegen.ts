// Node's types: ToolContext and sessions name AbortSignal, which a project without DOM types gets from @types/node.
/// <reference types="node" preserve="true" />
/**
 * `@zcp/runtime/codegen`: the contract between `zcp gen` and the code it generates. Generated
 * files import their helpers from here (and only from here), and the generator imports the
 * same definitions instead of keeping copies: the registry format, the validator and dispatch
 * tables, the validators' helpers and format checkers, date revival, the provider rules that
 * derive artifacts, the schemas' keyword order, hashing, planner lines, the brand properties,
 * the handle-id pattern and the tool index (`buildFindIndex`, its tokenizer). Applications use `@zcp/runtime` instead.
 */
export type {
  CallSignature,
  JsonSchema,
  JsonValue,
  OutputMode,
  Registry,
  SourceLocation,
  ToolDefinition,
  ToolFlag,
} from "./registry.js";
export { REGISTRY_FORMAT_VERSION } from "./registry.js";
export type { GeneratedModule } from "./runtime.js";
export type { ToolContext } from "./context.js";
export { CONTEXT_BRAND, HANDLE_BRAND, HANDLE_ID_PATTERN } from "./brands.js";
export { canonicalJson, combineToolHashes, sha12, toolHash } from "./hash.js";
export { deriveId, providerName } from "./names.js";
export { prefixTool } from "./compose.js";
export { checkComposedPackage } from "./composed.js";
export { parsePlannerLine, PlannerSyntaxError } from "./planner/parse.js";
export type { PlannerLine, PlannerParam } from "./planner/parse.js";
export { renderPlannerLine, renderType, renderValue } from "./planner/render.js";
export type { PlannerLineOptions } from "./planner/render.js";
export { firstSentence, SENTENCE_MAX } from "./planner/sentence.js";
export type { ValidationResult, Validator, ValidatorTable } from "./validate.js";
export {
  ARTIFACT_PROVIDERS,
  artifactSet,
  checkStrictLimits,
  compileEntries,
  compileLeanEntries,
  LEAN_DROPPED,
  leanSchema,
} from "./artifacts/index.js";
export type {
  AnthropicTool,
  ArtifactEntries,
  ArtifactIssue,
  ArtifactProvider,
  ArtifactSet,
  ArtifactSetOptions,
  CompiledEntries,
  GeminiFunctionDeclaration,
  McpTool,
  OpenAIChatTool,
  OpenAIResponsesTool,
  StrictLimit,
  StrictLimitProvider,
  StrictLimits,
  ToolEntries,
} from "./artifacts/index.js";
export { orderKeys } from "./schema-order.js";
export { RUNTIME_VERSION } from "./version.js";
export { reviveDates } from "./dispatch.js";
export { unwrapSummary } from "./summary.js";
export type { DispatchTable, Dispatcher, ToolArguments } from "./dispatch.js";
export {
  FORMAT_CHECKERS,
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
export { applySelection, DISCOVER, SEMANTIC_WORKFLOW, WORKFLOW_GROUP } from "./view.js";
export { buildFindIndex, FIELD_WEIGHTS, FIND_INDEX_VERSION } from "./find/build.js";
export type { FindIndex } from "./find/build.js";
export { identifierTerms, stem, tokenize } from "./find/tokenize.js";
export type { Selection } from "./view.js";
export {
  CODE_TOOL_ALIAS,
  mapInterfaceText,
  pascalCase,
  PRINT_WIDTH,
  printKey,
  printString,
  renderApi,
  renderDeclarations,
  TypePrinter,
  width,
} from "./api/index.js";
export type {
  ApiText,
  DeclarationOptions,
  DeclaredTool,
  PrintStyle,
  SchemaNode,
  TypePrinterOptions,
} from "./api/index.js";
export { expandServer, expandText, MissingVariableError } from "./upstream.js";
export type { HttpUpstream, StdioUpstream, UpstreamServer } from "./upstream.js";
