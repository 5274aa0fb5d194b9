export { main } from "./cli/index.js";
export { fromMcpConfig, loadConfig, type Config, type ConfigInput } from "./config.js";
export type { FromMcp, ToolOverride } from "./upstream/options.js";
export type { UpstreamServer } from "./upstream/server.js";
export {
  CODES,
  formatDiagnostic,
  type Code,
  type Diagnostic,
  type Severity,
} from "./diagnostics.js";
export { Generator, type GenerateResult } from "./pipeline.js";
export { deriveId } from "./model/index.js";
export { shortDescription } from "./model/define.js";
export { LEAN_DROPPED, leanSchema } from "./compile/index.js";
export { compareOutput, isClean, writeOutput, type OutputState } from "./write/index.js";
export type { GeneratedFile } from "./emit/file.js";
