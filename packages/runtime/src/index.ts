// Node's types: ToolContext and sessions name AbortSignal, which a project without DOM types gets from @types/node.
/// <reference types="node" preserve="true" />
/**
 * `@zcp/runtime`: what an application calls to serve a generated registry. (What generated code
 * and the generator need is in `@zcp/runtime/codegen`.)
 */
export { createRuntime, GeneratedModuleError, Runtime } from "./runtime.js";
export type {
  Caller,
  ExecutedCall,
  ExposurePolicy,
  GeneratedModule,
  RuntimeOptions,
  SessionOptions,
  ToolExecutor,
} from "./runtime.js";
export { composeGenerated } from "./compose.js";
export type { ComposeEntry } from "./compose.js";
export { Session } from "./session.js";
export type { CallOptions, CloseOptions, FindOptions, FoundTool, SessionStart } from "./session.js";
export { MemorySessionStore, stateJson } from "./sessions/state.js";
export type {
  MemorySessionStoreOptions,
  SaveResult,
  SessionState,
  SessionStore,
} from "./sessions/state.js";
export {
  DISCOVER,
  PROFILES,
  SelectionError,
  View,
  SEMANTIC_WORKFLOW,
  WORKFLOW_GROUP,
} from "./view.js";
export type { ArtifactsOptions, BuiltinTool, PlannerTextOptions, Selection } from "./view.js";
export type { ToolContext } from "./context.js";
export type { Handle, Integer } from "./handle.js";
export type {
  JsonSchema,
  JsonValue,
  OutputMode,
  Registry,
  ToolDefinition,
  ToolFlag,
} from "./registry.js";
export { ARTIFACT_PROVIDERS, artifactSet, checkStrictLimits } from "./artifacts/index.js";
export type { StrictLimit, StrictLimitProvider, StrictLimits } from "./artifacts/index.js";
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
} from "./artifacts/index.js";
export { handleTool } from "./handle-tool.js";
export { findTool } from "./find-tool.js";
export { callTool } from "./call-tool.js";
export { declaresHeaders, headerDeclarations } from "./header-params.js";
export type { HeaderDeclaration } from "./header-params.js";
export { codeTool, CODE_MAX } from "./code-tool.js";
export type { CodeRunner, ProgramHost } from "./code-runner.js";
export type { FindFormat } from "./find/find.js";
export { buildFindIndex } from "./find/build.js";
export type { FindIndex } from "./find/build.js";
export { defaultSummary, withSummary } from "./summary.js";
export type { Summarized } from "./summary.js";
export { failure } from "./result.js";
export { DEFAULT_MAX_ARGUMENT_DEPTH, DEFAULT_MAX_RESULT_BYTES, resultTooLarge } from "./limits.js";
export { tooDeepAt } from "./depth.js";
export { setOwn } from "./own.js";
export { jsonData } from "./json-data.js";
export { FairWorkers, waitLimitMs } from "./fair-workers.js";
export type { Admission, FairWorkersOptions } from "./fair-workers.js";
export { ToolError } from "./tool-error.js";
export { clip } from "./clip.js";
export type { CallError, CallResult, HandleMeta } from "./result.js";
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
export { renderDeclarations, type DeclarationOptions } from "./api/index.js";
