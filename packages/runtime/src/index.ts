/**
 * Rooms of src/, each importing only the rooms before it (no folder-level cycle):
 *   definition/  the registry format and what derives from a definition alone (artifacts, API
 *                text, planner lines, views, the tool index and its search, names, hashes)
 *   codegen/     the contract with generated files (tables, validator helpers, format checks)
 *   results/     what a call answers (`CallResult`, `failure`, `clip`, content blocks)
 *   wire/        the native protocol's wire types (`@zcp/runtime/wire`)
 *   handles/     the `Handle` type, the handle store, its storage and its operations
 *   encoding/    how results are written for a model (JSON, text calls and returns)
 *   features/    prompts, resources and resource templates: read, completed, updated
 *   session/     sessions and the call pipeline (host contracts, state, limits, composition)
 *   builtins/    the built-in tools and their table
 *   runtime.ts   `createRuntime`: wires the built-ins into sessions (the top composition)
 *   index.ts     this entry; version.ts, a constant any room may import
 */
// Node's types: ToolContext and sessions name AbortSignal, which a project without DOM types gets from @types/node.
/// <reference types="node" preserve="true" />
/**
 * `@zcp/runtime`: what an application calls to serve a generated registry. Generated code
 * imports `@zcp/runtime/codegen`; the generator and tools that read a definition import
 * `@zcp/runtime/definition`.
 */
export { createRuntime, Runtime } from "./runtime.js";
export { GeneratedModuleError } from "./definition/module-error.js";
export { Features, MAX_COMPLETIONS } from "./features/features.js";
export type {
  Completion,
  CompletionRef,
  FeatureErrorSink,
  FeatureOutcome,
  PromptAsking,
} from "./features/features.js";
export type {
  EmbeddedContents,
  PromptContent,
  PromptMessage,
  PromptReturn,
} from "./definition/features.js";
export { ConfigurationError } from "./session/config.js";
export { RUNTIME_VERSION } from "./version.js";
export type {
  Caller,
  ExecutedCall,
  ExposurePolicy,
  GeneratedModule,
  RuntimeOptions,
  SessionOptions,
  ToolExecutor,
} from "./session/host.js";
export { composeGenerated } from "./session/compose.js";
export type { ComposeEntry } from "./session/compose.js";
export { Session } from "./session/session.js";
export type {
  CallOptions,
  CloseOptions,
  FindOptions,
  FoundTool,
  SessionStart,
} from "./session/session.js";
export { MemorySessionStore, stateJson } from "./session/state.js";
export type {
  MemorySessionStoreOptions,
  SaveResult,
  SessionState,
  SessionStore,
} from "./session/state.js";
export {
  DISCOVER,
  PROFILES,
  SelectionError,
  View,
  SEMANTIC_WORKFLOW,
  WORKFLOW_GROUP,
} from "./definition/view.js";
export type {
  ArtifactsOptions,
  BuiltinTool,
  PlannerTextOptions,
  Selection,
} from "./definition/view.js";
export type { CallerIdentity, PromptContext, ToolContext } from "./codegen/context.js";
export type {
  AskOptions,
  ClientOffers,
  ElicitBooleanField,
  ElicitChoicesField,
  ElicitContent,
  ElicitField,
  ElicitNumberField,
  ElicitResult,
  ElicitSchema,
  ElicitStringField,
  ElicitValue,
  Root,
  SampleMessage,
  SampleRequest,
  SampleResult,
} from "./codegen/input.js";
export type { CallInput, InputRequest } from "./session/input.js";
export { promptContext } from "./session/input.js";
export {
  audio,
  content,
  ContentError,
  embeddedResource,
  image,
  MAX_MEDIA_BYTES,
  resourceLink,
  text,
} from "./results/content.js";
export type {
  Audio,
  AudioBlock,
  Content,
  ContentBlock,
  EmbeddedResource,
  EmbeddedResourceBlock,
  Image,
  ImageBlock,
  ResourceContents,
  ResourceLink,
  ResourceLinkBlock,
  ResourceLinkFields,
  Text,
  TextBlock,
} from "./results/content.js";
export type { Handle, Integer } from "./definition/brands.js";
export type {
  ContentKind,
  JsonSchema,
  JsonValue,
  OutputMode,
  Registry,
  ToolDefinition,
  ToolFlag,
} from "./definition/registry.js";
export {
  ARTIFACT_PROVIDERS,
  artifactSet,
  checkStrictLimits,
} from "./definition/artifacts/index.js";
export type {
  StrictLimit,
  StrictLimitProvider,
  StrictLimits,
} from "./definition/artifacts/index.js";
export type {
  AnthropicTool,
  ArtifactEntries,
  ArtifactProvider,
  ArtifactSet,
  ArtifactSetOptions,
  GeminiFunctionDeclaration,
  McpTool,
  OpenAIChatTool,
  OpenAIResponsesTool,
} from "./definition/artifacts/index.js";
export { handleTool } from "./builtins/handle-tool.js";
export { findTool } from "./builtins/find-tool.js";
export { callTool } from "./builtins/call-tool.js";
export { declaresHeaders, headerDeclarations } from "./session/header-params.js";
export type { HeaderDeclaration } from "./session/header-params.js";
export { codeTool, CODE_MAX } from "./builtins/code-tool.js";
export type { CodeRunner, ProgramHost } from "./session/code-runner.js";
export type { FindFormat } from "./definition/find/find.js";
export { buildFindIndex } from "./definition/find/build.js";
export type { FindIndex } from "./definition/find/build.js";
export { defaultSummary, unwrapSummary, withSummary } from "./session/summary.js";
export type { Summarized } from "./session/summary.js";
export { failure } from "./results/result.js";
export {
  DEFAULT_MAX_ARGUMENT_DEPTH,
  DEFAULT_MAX_RESULT_BYTES,
  resultTooLarge,
} from "./session/limits.js";
export { tooDeepAt } from "./session/depth.js";
export { setOwn } from "./definition/own.js";
export { jsonData } from "./session/json-data.js";
export { FairWorkers, waitLimitMs } from "./session/fair-workers.js";
export type { Admission, FairWorkersOptions } from "./session/fair-workers.js";
export { ToolError } from "./session/tool-error.js";
export { systemErrorHint } from "./session/exposed-error.js";
export { clip } from "./results/clip.js";
export type { CallError, CallResult, HandleMeta } from "./results/result.js";
export { HandleStore } from "./handles/store.js";
export type {
  HandleIdForm,
  HandleInfo,
  HandleStoreOptions,
  ResolvedHandle,
} from "./handles/store.js";
export { MemoryHandleStorage } from "./handles/memory.js";
export type { HandleRecord, HandleStorage, HandleUsage, StoredHandle } from "./handles/storage.js";
export { VIEW_DEFAULT_LIMIT, VIEW_MAX_LIMIT } from "./handles/ops.js";
export type {
  CountResult,
  ReadOptions,
  ReadResult,
  ViewOptions,
  ViewResult,
} from "./handles/ops.js";
export type { GrepOptions, GrepResult } from "./handles/text.js";
export { estimateTokens } from "./encoding/tokens.js";
export { encodeResult } from "./encoding/result.js";
export type { EncodeOptions } from "./encoding/result.js";
export {
  formatCall,
  MAX_CALL_LINE_LENGTH,
  MAX_CALLS_PER_MESSAGE,
  MAX_VALUE_DEPTH,
  parseCalls,
  TextProtocolError,
} from "./encoding/text.js";
export type { CallLineError, ParseCallsOptions, ParsedCall, ParsedCalls } from "./encoding/text.js";
export { formatReturn, parseReturn } from "./encoding/text-return.js";
export type { ParsedReturn } from "./encoding/text-return.js";
export { renderDeclarations, type DeclarationOptions } from "./definition/api/index.js";
