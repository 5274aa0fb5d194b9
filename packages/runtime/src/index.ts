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
export type { ToolContext } from "./context.js";
export type { Handle, Integer } from "./handle.js";
export { canonicalJson, combineToolHashes, sha12 } from "./hash.js";
export { parsePlannerLine, PlannerSyntaxError } from "./planner.js";
export type { PlannerLine, PlannerParam } from "./planner.js";
export type { ValidationResult, Validator, ValidatorTable } from "./validate.js";
export { ARTIFACT_PROVIDERS, artifactLoader } from "./artifacts.js";
export type {
  AnthropicTool,
  ArtifactEntries,
  ArtifactLoader,
  ArtifactProvider,
  ArtifactSet,
  GeminiFunctionDeclaration,
  McpTool,
  OpenAIChatTool,
  OpenAIResponsesTool,
} from "./artifacts.js";
export { reviveDates } from "./dispatch.js";
export type { DispatchTable, Dispatcher, ToolArguments } from "./dispatch.js";
