export { main } from "./cli.js";
export { loadConfig, type Config, type ConfigInput } from "./config.js";
export { CODES, formatDiagnostic, type Code, type Diagnostic, type Severity } from "./diagnostics.js";
export { Generator, type GenerateResult } from "./pipeline.js";
export { deriveId } from "./model.js";
export { LEAN_DROPPED, leanSchema } from "./compile/providers/lean.js";
export { compareOutput, isClean, writeOutput, type OutputState } from "./write.js";
export type { GeneratedFile } from "./emit/files.js";
