/**
 * extract: the stage's entry. One `@tool` declaration → its options (from tags), input and
 * output schemas, defaults, handle parameters and call signature (`tool.ts`), with TypeScript
 * types converted to JSON Schema through the checker (`types.ts`) and constraint tags applied
 * (`annotations.ts`). A tool with errors has diagnostics and no `ExtractedTool`.
 */
import type { ts } from "@ts-morph/common";
import type { ToolDeclaration } from "../scan/index.js";
import { SchemaCache } from "./convert-host.js";
import { extractTool, type Extraction } from "./tool.js";

export { exampleValues } from "./annotations.js";
export { extractFeature, type ExtractedFeature } from "./feature.js";
export { snakeCase, type ExtractedTool, type Extraction } from "./tool.js";

/**
 * The extraction of declarations in one program: each call is a function of its declaration.
 * The object schemas of types that several tools share are built once per program.
 */
export function extractor(checker: ts.TypeChecker): (declaration: ToolDeclaration) => Extraction {
  const cache = new SchemaCache();
  return (declaration) => extractTool(declaration, checker, cache);
}
