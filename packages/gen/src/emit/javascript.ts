/**
 * emit: the JavaScript output of a gateway (a `fromMcp` project), so that plain `node` can load
 * it (`zcp-serve --registry zcp.gen/index.js`) where there is no TypeScript project to compile
 * it: each TypeScript module becomes its `.js` (types stripped by TypeScript's
 * `transpileModule`, one file at a time, no program), `index.d.ts` declares the module's one
 * value, `types.ts` (declarations only) becomes `types.d.ts`, and a `package.json` with
 * `"type": "module"` makes Node read the `.js` files as ES modules wherever the folder is.
 */
import { ts } from "@ts-morph/common";
import type { GeneratedFile } from "./file.js";
import { tsFile, type EmitContext } from "./ts-file.js";
import { codegenImports } from "./codegen-imports.js";

const OPTIONS: ts.TranspileOptions = {
  compilerOptions: {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    verbatimModuleSyntax: true,
    newLine: ts.NewLineKind.LineFeed,
  },
};

/** `files` with every `.ts` module as JavaScript, plus the declarations and package.json above. */
export function asJavaScript(
  context: EmitContext,
  files: readonly GeneratedFile[],
): GeneratedFile[] {
  const out: GeneratedFile[] = [];
  for (const file of files) {
    if (!file.path.endsWith(".ts")) {
      out.push(file);
    } else if (file.path === "types.ts") {
      out.push({ path: "types.d.ts", content: file.content });
    } else {
      const content = ts.transpileModule(file.content, {
        ...OPTIONS,
        fileName: file.path,
      }).outputText;
      out.push({ path: file.path.replace(/\.ts$/, ".js"), content });
    }
  }
  out.push(
    { path: "index.d.ts", content: indexDeclarations(context) },
    { path: "package.json", content: `${JSON.stringify({ type: "module" }, null, 2)}\n` },
  );
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

function indexDeclarations(context: EmitContext): string {
  return tsFile(context, [
    codegenImports(["GeneratedModule"]),
    "export declare const generated: GeneratedModule;\n",
    "export default generated;\n",
  ]);
}
