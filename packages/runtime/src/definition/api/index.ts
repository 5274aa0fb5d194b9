/**
 * The API text (a view's tools as TypeScript declarations) and the TypeScript type printer it
 * shares with `zcp gen`'s `types.ts`.
 */
export {
  CODE_TOOL_ALIAS,
  renderApi,
  renderDeclarations,
  type ApiText,
  type DeclarationOptions,
  type DeclaredTool,
} from "./declarations.js";
export { PRINT_WIDTH, printKey, printString, width } from "./print.js";
export {
  mapInterfaceText,
  pascalCase,
  TypePrinter,
  type PrintStyle,
  type SchemaNode,
  type TypePrinterOptions,
} from "./printer.js";
