/**
 * scan: the stage's entry. Lists the configured files (`files.ts`), reads the compiler settings
 * (`settings.ts`), loads the TypeScript program and keeps it between watch runs (`program.ts`),
 * and finds the `@tool` functions of each parsed file (`tools.ts`). Inputs are read and hashed
 * the way TypeScript decodes them (`source-text.ts`).
 */
export { listSourceFiles } from "./files.js";
export { nodePosition } from "./position.js";
export { ProgramLoader } from "./program.js";
export { readCompilerSettings } from "./settings.js";
export { hashSourceFile, hashText, readSourceText } from "./source-text.js";
export {
  findTools,
  mentionsTool,
  syntaxDiagnostics,
  type MarkTag,
  type ToolDeclaration,
} from "./tools.js";
