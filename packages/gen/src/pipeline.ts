/**
 * The pipeline, scan → extract → model → compile → emit, kept alive between runs for watch
 * mode: the TypeScript project stays loaded, and a tool is extracted again only when a file
 * its types reach has changed.
 */
import path from "node:path";
import { combineToolHashes, REGISTRY_FORMAT_VERSION, type Registry, type ToolDefinition } from "@zcp/runtime";
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
import { findTools, mentionsTool, readCompilerSettings, readIfExists, syntaxDiagnostics, type ToolDeclaration } from "./scan.js";

export interface GenerateResult {
  readonly files: GeneratedFile[];
  readonly diagnostics: Diagnostic[];
  readonly registry: Registry;
  /** The provider artifacts of the registry's tools (what `artifacts/<provider>.json` hold). */
  readonly artifacts: ArtifactSets;
  /** Every non-library file the program read (sources and what they import). */
  readonly inputs: string[];
}

interface CachedExtraction {
  readonly extraction: Extraction;
  readonly deps: ReadonlySet<string>;
}

export class Generator {
  private loader: ProgramLoader | null = null;
  /** Whether each configured file mentions `@tool` (read again only when it changes). */
  private readonly mentions = new Map<string, boolean>();
  private projectDiagnostics: Diagnostic[] = [];
  private configFiles: string[] = [];
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
    const loader = this.loader ?? this.load();
    const changedSet = new Set([...changed].map((file) => path.resolve(file)));
    const roots = this.refresh(loader, sources, changedSet);
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
      root: this.config.root,
      outDir: this.config.outDir,
      registry,
      artifacts: artifacts.sets,
      statementOf: (tool) => {
        let statement = this.statements.get(tool);
        if (statement === undefined) this.statements.set(tool, (statement = toolStatement(tool)));
        return statement;
      },
    });
    return {
      files,
      diagnostics: diagnostics.sort(compareDiagnostics),
      registry,
      artifacts: artifacts.sets,
      inputs: [
        ...this.configFiles,
        ...program
          .getSourceFiles()
          .filter((sourceFile) => !program.isSourceFileDefaultLibrary(sourceFile))
          .map((sourceFile) => sourceFile.fileName)
          .sort(),
      ],
    };
  }

  private load(): ProgramLoader {
    const settings = readCompilerSettings(this.config);
    this.loader = new ProgramLoader(settings.options);
    this.projectDiagnostics = settings.diagnostics;
    this.configFiles = settings.configFiles;
    return this.loader;
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
      let mentions = this.mentions.get(file);
      if (mentions === undefined) {
        const text = readIfExists(file);
        this.mentions.set(file, (mentions = text !== null && mentionsTool(text)));
      }
      if (mentions) roots.push(file);
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
