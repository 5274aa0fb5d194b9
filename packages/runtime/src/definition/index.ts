/**
 * `@zcp/runtime/definition`: the registry format and everything derived from a definition
 * alone, for `zcp gen` and the tools that read a registry: the format's types and version, the
 * brand properties and handle-id pattern, hashing, names and prefixes, the schemas' keyword
 * order, planner lines, provider artifacts, the API text and its TypeScript printer, view
 * selection, the tool index (`buildFindIndex`, its tokenizer) and the expansion of an upstream
 * server's configuration. Nothing here runs a session.
 */
export type {
  CallSignature,
  ContentKind,
  JsonSchema,
  JsonValue,
  OutputMode,
  Registry,
  SourceLocation,
  ToolDefinition,
  ToolFlag,
} from "./registry.js";
export { HINT_FLAGS, REGISTRY_FORMAT_VERSION, TOOL_FLAGS } from "./registry.js";
export type {
  FeatureArgument,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
} from "./features.js";
export { templateVariables } from "./uri-template.js";
export {
  CONTENT_BRAND,
  CONTEXT_BRAND,
  HANDLE_BRAND,
  HANDLE_ID_PATTERN,
  PROMPT_CONTEXT_BRAND,
} from "./brands.js";
export { canonicalJson, combineToolHashes, sha12, toolHash } from "./hash.js";
export { deriveId, providerName } from "./names.js";
export { prefixTool } from "./prefix.js";
export { parsePlannerLine, PlannerSyntaxError } from "./planner/parse.js";
export type { PlannerLine, PlannerParam } from "./planner/parse.js";
export { renderPlannerLine, renderType, renderValue } from "./planner/render.js";
export type { PlannerLineOptions } from "./planner/render.js";
export { firstSentence, SENTENCE_MAX } from "./planner/sentence.js";
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
export { applySelection, DISCOVER, SEMANTIC_WORKFLOW, WORKFLOW_GROUP } from "./view.js";
export type { Selection } from "./view.js";
export { buildFindIndex, FIELD_WEIGHTS, FIND_INDEX_VERSION } from "./find/build.js";
export type { FindIndex } from "./find/build.js";
export { identifierTerms, stem, tokenize } from "./find/tokenize.js";
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
