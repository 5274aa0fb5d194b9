/**
 * The import lines of generated files from `@zcp/runtime/codegen`. Names are typed as the keys
 * of the runtime's symbol table (`@zcp/runtime/codegen/symbols`), so that a symbol renamed or
 * removed in the runtime breaks gen's compile instead of the generated code; whether a name is
 * imported as a type or a value is the table's.
 */
import { CODEGEN_MODULE, CODEGEN_SYMBOLS, type CodegenSymbol } from "@zcp/runtime/codegen/symbols";
import { printImport } from "./layout.js";

/**
 * `import type { <the types> }` and then `import { <the values> }` of `names`, each in the order
 * given and left out when empty, one line each unless one is wider than prettier's width.
 */
export function codegenImports(names: readonly CodegenSymbol[]): string {
  const types = names.filter((name) => CODEGEN_SYMBOLS[name] === "type");
  const values = names.filter((name) => CODEGEN_SYMBOLS[name] === "value");
  return (
    (types.length > 0 ? printImport("import type", types, CODEGEN_MODULE) : "") +
    (values.length > 0 ? printImport("import", values, CODEGEN_MODULE) : "")
  );
}
