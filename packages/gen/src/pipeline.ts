/**
 * The pipeline, scan → extract → model → compile → emit, kept alive between runs for watch
 * mode: the TypeScript project stays loaded, and a tool is extracted again only when a file
 * its types reach has changed.
 */
import fs from "node:fs";
import path from "node:path";
import { combineToolHashes, REGISTRY_FORMAT_VERSION, type Registry, type ToolDefinition } from "@zcp/runtime/codegen";
import type { ts } from "ts-morph";
import type { Config } from "./config.js";
import { compareDiagnostics, diagnostic, type Diagnostic } from "./diagnostics.js";
import { compileArtifacts, type ArtifactSets, type ToolArtifacts } from "./compile/providers/index.js";
import { ValidatorCache } from "./compile/validators.js";
import { emitFiles, type GeneratedFile } from "./emit/files.js";
import { JsonTexts } from "./emit/json.js";
import { toolStatement } from "./emit/registry.js";
import { extractTool, type ExtractedTool, type Extraction } from "./extract/tool.js";
import { SchemaCache } from "./extract/types.js";
import { buildModel } from "./model.js";
import { listSourceFiles } from "./files.js";
import { ProgramLoader } from "./program.js";
import { findTools, mentionsTool, readCompilerSettings, syntaxDiagnostics, type ToolDeclaration } from "./scan.js";
import { hashSourceFile, hashText, readSourceText } from "./source-text.js";

export interface GenerateResult {
  readonly files: GeneratedFile[];
  readonly diagnostics: Diagnostic[];
  readonly registry: Registry;
  /** The provider artifacts of the registry's tools (what `artifacts/<provider>.json` hold). */
  readonly artifacts: ArtifactSets;
  /**
   * Every file this run read, with the SHA-256 (`hashText`) of the text it read: the config, the
   * tsconfig chain, every configured source file (those that do not mention `@tool` too) and every
   * non-library program file. null when the file could not be read, or when two reads in this run
   * saw different texts: the result then stands for no single state of that file.
   */
  readonly inputs: ReadonlyMap<string, string | null>;
  /** The configured source files this run listed (absolute, sorted). */
  readonly sources: readonly string[];
}

interface CachedExtraction {
  readonly extraction: Extraction;
  readonly deps: ReadonlySet<string>;
}

export class Generator {
  private loader: ProgramLoader | null = null;
  /**
   * Whether each configured file mentions `@tool`, with the hash of the text that said so (read
   * again only when it changes).
   */
  private readonly mentions = new Map<string, { readonly mentions: boolean; readonly hash: string | null }>();
  private projectDiagnostics: Diagnostic[] = [];
  /** The config file and the tsconfig chain, with the hashes of their texts when the settings were read. */
  private settingsFiles = new Map<string, string | null>();
  /** The files the previous run read (`GenerateResult.inputs`). */
  private read = new Set<string>();
  /** The hash of each program file's text, computed once per parsed file. */
  private readonly textHashes = new WeakMap<ts.SourceFile, string>();
  /** Printed statements by definition: watch mode re-prints only changed tools. */
  private readonly statements = new WeakMap<ToolDefinition, string>();
  private readonly definitions = new WeakMap<ExtractedTool, ToolDefinition>();
  private readonly validators = new ValidatorCache();
  private readonly artifacts = new WeakMap<ToolDefinition, ToolArtifacts>();
  private readonly json = new JsonTexts();
  private readonly extractions = new Map<string, CachedExtraction>();

  constructor(readonly config: Config) {}

  /**
   * Runs the pipeline. `changed` lists files (absolute) changed since the previous call on this
   * generator; the first call loads everything.
   */
  async generate(changed: Iterable<string> = []): Promise<GenerateResult> {
    const sources = await listSourceFiles(this.config);
    const changedSet = new Set([...changed].map((file) => path.resolve(file)));
    // New compiler settings can change every type: start over.
    if ([...changedSet].some((file) => this.settingsFiles.has(file))) this.reset();
    let loader = this.loader ?? this.load();
    let roots = this.refresh(loader, sources, changedSet);
    // TypeScript keeps the previous program's module resolutions for files that did not change
    // (all of them when the roots are the same, failed ones included): a new file that is not a
    // root, such as a module a failed import would now find, needs a program built afresh.
    if (this.read.size > 0 && [...changedSet].some((file) => !this.read.has(file) && !roots.includes(file) && fs.existsSync(file))) {
      this.reset();
      loader = this.load();
      roots = this.refresh(loader, sources, changedSet);
    }
    const program = loader.load(roots);
    const checker = program.getTypeChecker();
    const cache = new SchemaCache();
    const diagnostics: Diagnostic[] = [...this.projectDiagnostics];
    if (sources.length === 0) {
      diagnostics.push(diagnostic("error", "ZCP1003", `include globs ${JSON.stringify(this.config.include)} match no files in the configuration's folder`));
    }
    const extractions: Extraction[] = [];
    const live = new Set<string>();
    for (const file of roots) {
      const sourceFile = program.getSourceFile(file);
      if (!sourceFile) continue;
      const syntax = syntaxDiagnostics(program, sourceFile);
      diagnostics.push(...syntax);
      // A file that does not parse is not guessed at: its tools are left out until it does.
      if (syntax.length > 0) continue;
      const found = findTools(sourceFile);
      diagnostics.push(...found.diagnostics);
      for (const declaration of found.tools) {
        const key = `${file}#${declaration.exportName}`;
        live.add(key);
        extractions.push(this.extract(key, declaration, checker, cache));
      }
    }
    for (const key of this.extractions.keys()) if (!live.has(key)) this.extractions.delete(key);

    const tools = extractions.flatMap((extraction) => (extraction.tool ? [extraction.tool] : []));
    diagnostics.push(...extractions.flatMap((extraction) => extraction.diagnostics));
    if (extractions.length === 0 && sources.length > 0) {
      diagnostics.push(diagnostic("warning", "ZCP1004", `no @tool functions in the ${sources.length} configured source file(s)`));
    }
    const model = buildModel(tools, this.config.root, this.definitions);
    diagnostics.push(...model.diagnostics);
    const registry: Registry = {
      version: REGISTRY_FORMAT_VERSION,
      hash: combineToolHashes(model.definitions),
      tools: model.definitions,
      names: Object.fromEntries(model.definitions.map((tool) => [tool.name, tool.alias])),
    };
    const artifacts = compileArtifacts(registry.tools, this.config.root, this.artifacts);
    diagnostics.push(...artifacts.diagnostics);
    const files = emitFiles({
      validators: this.validators,
      json: this.json,
      configFile: this.config.file,
      root: this.config.root,
      outDir: this.config.outDir,
      registry,
      artifacts: artifacts.sets,
      lean: this.config.leanArtifacts ? artifacts.lean() : null,
      statementOf: (tool) => {
        let statement = this.statements.get(tool);
        if (statement === undefined) this.statements.set(tool, (statement = toolStatement(tool)));
        return statement;
      },
    });
    const inputs = this.inputsOf(program, sources);
    this.read = new Set(inputs.keys());
    return {
      files,
      diagnostics: diagnostics.sort(compareDiagnostics),
      registry,
      artifacts: artifacts.sets,
      inputs,
      sources,
    };
  }

  /** What this run read, with the hashes of the texts it used (see `GenerateResult.inputs`). */
  private inputsOf(program: ts.Program, sources: readonly string[]): Map<string, string | null> {
    const inputs = new Map<string, string | null>();
    const add = (file: string, hash: string | null) => {
      const seen = inputs.get(file);
      inputs.set(file, seen === undefined || seen === hash ? hash : null);
    };
    for (const [file, hash] of this.settingsFiles) add(file, hash);
    for (const file of sources) add(file, this.mentions.get(file)?.hash ?? null);
    for (const sourceFile of program.getSourceFiles()) {
      if (program.isSourceFileDefaultLibrary(sourceFile)) continue;
      let hash = this.textHashes.get(sourceFile);
      if (hash === undefined) this.textHashes.set(sourceFile, (hash = hashText(sourceFile.text)));
      add(path.resolve(sourceFile.fileName), hash);
    }
    return new Map([...inputs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  private load(): ProgramLoader {
    const settings = readCompilerSettings(this.config);
    this.loader = new ProgramLoader(settings.options);
    this.projectDiagnostics = settings.diagnostics;
    // Read again right after TypeScript did (scan reads them through ts.sys).
    this.settingsFiles = new Map([this.config.file, ...settings.configFiles].map((file) => [file, hashSourceFile(file)]));
    return this.loader;
  }

  /** Forgets everything loaded: the next run reads the settings and every file again. */
  private reset(): void {
    this.loader = null;
    this.mentions.clear();
    this.extractions.clear();
  }

  /**
   * Brings the loader in line with the file system: changed files are read again, and the
   * configured files that mention `@tool` are the roots. Returns the roots, sorted.
   */
  private refresh(loader: ProgramLoader, sources: readonly string[], changed: ReadonlySet<string>): string[] {
    loader.invalidate(changed);
    for (const file of changed) this.mentions.delete(file);
    const roots: string[] = [];
    for (const file of sources) {
      let seen = this.mentions.get(file);
      if (seen === undefined) {
        const text = readSourceText(file);
        this.mentions.set(file, (seen = { mentions: text !== null && mentionsTool(text), hash: text === null ? null : hashText(text) }));
      }
      if (seen.mentions) roots.push(file);
    }
    if (changed.size > 0) {
      for (const [key, cached] of this.extractions) {
        if ([...changed].some((file) => cached.deps.has(file))) this.extractions.delete(key);
      }
    }
    return roots;
  }

  private extract(key: string, declaration: ToolDeclaration, checker: ts.TypeChecker, cache: SchemaCache): Extraction {
    const cached = this.extractions.get(key);
    if (cached) return cached.extraction;
    const extraction = extractTool(declaration, checker, cache);
    // A tool with errors is extracted again on every run: what fixes it may be a file it could not reach.
    if (extraction.tool) this.extractions.set(key, { extraction, deps: new Set(extraction.tool.deps) });
    return extraction;
  }
}
