/**
 * scan: the tsconfig's files that declare globals. The program starts from the files that
 * mention `@tool` and loads what they import; a global script (a file without top-level
 * import/export: `namespace` declarations, ambient `declare` types, most `.d.ts` files) is never
 * imported, yet tsc has it because the tsconfig includes it, and its types resolve everywhere.
 * So do ours: such files are added to the program's roots.
 *
 * Deciding costs a text check for almost every file, and a parse for few: a line that starts
 * with `import` or `export` makes a module (nearly every module has one); a text without either
 * word is a script; only a text that has the words elsewhere (`export` inside a `namespace`, a
 * comment) is parsed, and TypeScript's `isExternalModule` decides. A module with a
 * `declare global` block declares globals too (tsc has it): it is added as well.
 *
 * TypeScript may still read a script by syntax as a module by its format (a `.ts` file in a
 * `"type": "module"` package under node16/nodenext): it is then a root that declares nothing
 * global, as under tsc. Under `moduleDetection: "force"` every file but a declaration file is a
 * module, so only declaration files are candidates.
 */
import { ts } from "@ts-morph/common";

/** A line that starts with the `import` or `export` keyword (not `import(...)`, which a script may call). */
const MODULE_LINE = /^(?:import|export)(?![\w$(])/m;
const MODULE_WORD = /(?<![\w$.])(?:import|export)(?![\w$])/;
const DECLARE_GLOBAL = /(?<![\w$.])declare\s+global(?![\w$])/;
/** `.d.ts`, `.d.mts`, `.d.cts` and `.d.<ext>.ts` (declarations of other files, e.g. `styles.d.css.ts`). */
const DECLARATION_FILE = /\.d(?:\.[^./]+)?\.[cm]?ts$/;

/** Whether the file with this text may declare globals (see the module's comment). */
export function declaresGlobals(file: string, text: string, options: ts.CompilerOptions): boolean {
  if (DECLARE_GLOBAL.test(text)) return true;
  if (options.moduleDetection === ts.ModuleDetectionKind.Force && !DECLARATION_FILE.test(file))
    return false;
  if (MODULE_LINE.test(text)) return false;
  if (!MODULE_WORD.test(text)) return true;
  return !ts.isExternalModule(ts.createSourceFile(file, text, ts.ScriptTarget.Latest));
}
