/**
 * scan: the TypeScript program of a run, built with the compiler that ts-morph bundles in
 * `@ts-morph/common` (TypeScript 6; the `typescript` 7 package has no JS API) through a plain
 * compiler host. ts-morph's Project wraps every file for editing, which a read-only scan does not
 * need: the plain host builds the same program about 150 ms faster on 1,000 tools, and `ts` is
 * taken from `@ts-morph/common` directly, which spares loading ts-morph's own 1 MB module (about
 * 25 ms). Library files come from ts-morph's in-memory copies, so nothing depends on where
 * TypeScript is installed.
 *
 * The roots are the files that mention `@tool` (what they import is loaded as needed) and the
 * tsconfig's global scripts (`scripts.ts`), which nothing imports but whose types resolve
 * everywhere under tsc.
 *
 * The loader keeps parsed files between runs (watch mode): `invalidate` forgets changed files
 * and the next `load` hands the previous program to TypeScript for reuse.
 */
import { getLibFiles, libFolderInMemoryPath, ts } from "@ts-morph/common";
import { declaresGlobals } from "./scripts.js";
import { readSourceText } from "./source-text.js";

const LIB_FILES = new Map<string, string>();
function libText(fileName: string): string | undefined {
  if (LIB_FILES.size === 0)
    for (const lib of getLibFiles())
      LIB_FILES.set(`${libFolderInMemoryPath}/${lib.fileName}`, lib.text);
  return LIB_FILES.get(fileName);
}

/** Parsed library files, shared by every program in the process (they never change). */
const LIB_SOURCES = new Map<string, ts.SourceFile>();

export class ProgramLoader {
  private readonly sources = new Map<string, ts.SourceFile>();
  /** Whether each of the tsconfig's files may declare globals, read once until it changes. */
  private readonly scripts = new Map<string, boolean>();
  private readonly host: ts.CompilerHost;
  private program: ts.Program | undefined;

  /** `configured`: the tsconfig's file list (absolute), where the global scripts are looked for. */
  constructor(
    readonly options: ts.CompilerOptions,
    private readonly configured: readonly string[] = [],
  ) {
    const host = ts.createCompilerHost(options);
    const { fileExists, readFile } = host;
    host.getDefaultLibLocation = () => libFolderInMemoryPath;
    host.getDefaultLibFileName = (settings) =>
      `${libFolderInMemoryPath}/${ts.getDefaultLibFileName(settings)}`;
    host.fileExists = (fileName) => libText(fileName) !== undefined || fileExists(fileName);
    host.readFile = (fileName) => libText(fileName) ?? readFile(fileName);
    host.getSourceFile = (fileName, languageVersion) => {
      const lib = libText(fileName);
      if (lib !== undefined) {
        let source = LIB_SOURCES.get(fileName);
        if (!source)
          LIB_SOURCES.set(fileName, (source = ts.createSourceFile(fileName, lib, languageVersion)));
        return source;
      }
      let source = this.sources.get(fileName);
      if (!source) {
        const text = readFile(fileName);
        if (text === undefined) return undefined;
        this.sources.set(fileName, (source = ts.createSourceFile(fileName, text, languageVersion)));
      }
      return source;
    };
    this.host = host;
  }

  /** Forgets the parsed copies of `files`, so that the next load reads them again. */
  invalidate(files: Iterable<string>): void {
    for (const file of files) {
      this.sources.delete(file);
      this.scripts.delete(file);
    }
  }

  /**
   * A program over `roots`, the global scripts and what they import, reusing what the previous
   * one parsed.
   */
  load(roots: readonly string[]): ts.Program {
    const given = new Set(roots);
    this.program = ts.createProgram({
      rootNames: [
        ...roots,
        ...this.configured.filter((file) => !given.has(file) && this.isScript(file)),
      ],
      options: this.options,
      host: this.host,
      oldProgram: this.program,
    });
    return this.program;
  }

  private isScript(file: string): boolean {
    let script = this.scripts.get(file);
    if (script === undefined) {
      const text = readSourceText(file);
      this.scripts.set(file, (script = text !== null && declaresGlobals(file, text, this.options)));
    }
    return script;
  }
}
