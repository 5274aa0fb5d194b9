/**
 * The pipeline: scan → extract → model → compile → emit, each stage a function of the previous
 * one's output (`write` is the command's: `cli/`). A `Generator` is kept alive between runs for
 * watch mode: the TypeScript program stays loaded (`scan/program.ts`), and `memo.ts` keeps what
 * each stage did per tool, so that a tool is extracted again only when a file its types reach
 * has changed, and the later stages redo only changed tools.
 */
import fs from "node:fs";
import path from "node:path";
import {
  combineToolHashes,
  REGISTRY_FORMAT_VERSION,
  type JsonValue,
  type Registry,
  type ToolDefinition,
} from "@zcp/runtime/definition";
import type { ts } from "@ts-morph/common";
import { artifactSets, compile, compileExamples, handWrittenProblems } from "./compile/index.js";
import { composeRegistries } from "./compose/index.js";
import type { Config } from "./config.js";
import { compareDiagnostics, diagnostic, type Diagnostic } from "./diagnostics.js";
import { emitFiles } from "./emit/index.js";
import type { GeneratedFile } from "./emit/file.js";
import { emitContext } from "./emit/ts-file.js";
import {
  extractFeature,
  extractor,
  type ExtractedFeature,
  type ExtractedTool,
  type Extraction,
} from "./extract/index.js";
import { buildFeatureModel } from "./model/features.js";
import { Memo } from "./memo.js";
import type { Gateway } from "./upstream/index.js";
import { buildModel, type Site } from "./model/index.js";
import {
  findTools,
  hashSourceFile,
  listSourceFiles,
  ProgramLoader,
  readCompilerSettings,
  syntaxDiagnostics,
} from "./scan/index.js";

export interface GenerateResult {
  readonly files: GeneratedFile[];
  readonly diagnostics: Diagnostic[];
  readonly registry: Registry;
  /**
   * Every file this run read, with the SHA-256 (`hashText`) of the text it read: the config, the
   * tsconfig chain, every configured source file (those that do not mention `@tool` too) and every
   * non-library program file. null when the file could not be read, or when two reads in this run
   * saw different texts: the result then stands for no single state of that file.
   */
  readonly inputs: ReadonlyMap<string, string | null>;
  /** The configured source files this run listed (absolute, sorted). */
  readonly sources: readonly string[];
  /** A gateway's (`"fromMcp"`) upstream, its alias prefix and listing hash; null otherwise or when it could not be listed. */
  readonly gateway: Gateway | null;
}

/** The project's own tools (scan, extract, model), before packages are composed in. */
interface LocalTools {
  readonly definitions: readonly ToolDefinition[];
  /** Where each definition is declared (the model's `sites`). */
  readonly sites: ReadonlyMap<ToolDefinition, Site>;
  /** The tools extracted without errors, those the model left out included. */
  readonly extracted: readonly ExtractedTool[];
  /** The extracted tool each definition is made of (the model's `origins`). */
  readonly origins: ReadonlyMap<ToolDefinition, ExtractedTool>;
  /** The schema of the server configuration the tools read (the model's `config`); absent: none. */
  readonly config?: JsonValue | null;
  readonly diagnostics: Diagnostic[];
  /** null when there are no local sources (no program is loaded). */
  readonly program: ts.Program | null;
  readonly sources: readonly string[];
  /** A gateway's upstream (`"fromMcp"`), as listed; null otherwise. */
  readonly gateway?: Gateway | null;
  /** The `@prompt` and `@resource` functions extracted without errors. */
  readonly features?: readonly ExtractedFeature[];
}

export class Generator {
  private loader: ProgramLoader | null = null;
  private projectDiagnostics: Diagnostic[] = [];
  /** The config file and the tsconfig chain, with the hashes of their texts when the settings were read. */
  private settingsFiles = new Map<string, string | null>();
  /** The files the previous run read (`GenerateResult.inputs`). */
  private read = new Set<string>();
  private readonly memo = new Memo();

  constructor(readonly config: Config) {}

  /**
   * Runs the pipeline. `changed` lists files (absolute) changed since the previous call on this
   * generator; the first call loads everything.
   */
  async generate(changed: Iterable<string> = []): Promise<GenerateResult> {
    const { config, memo } = this;
    memo.startRun();
    const changedSet = new Set([...changed].map((file) => path.resolve(file)));
    // With "registries" and no "include", there are no local sources: no program is loaded. A
    // gateway's tools are its upstream's listing, read again on every run.
    const local = config.fromMcp
      ? await this.listUpstream(changedSet)
      : config.include.length > 0
        ? await this.scanLocal(changedSet)
        : this.noLocalSources(changedSet);
    const diagnostics = local.diagnostics;

    // compose, compile, emit
    const generator = emitContext(config.file).version;
    const composition = composeRegistries(config, local.definitions, generator);
    diagnostics.push(...composition.diagnostics);
    // Validators and the provider rules' diagnostics for the project's own tools: the packages'
    // validators are theirs, and their diagnostics were their own build's.
    const own = composition.tools.filter((tool) => local.sites.has(tool));
    const compiled = compile(own, local.sites, memo.compile, local.config ?? null);
    diagnostics.push(...compiled.diagnostics);
    // Then the `@example` tags, checked by the validators' code: the definitions, and so the
    // registry's hash, are final only after them.
    const examples = compileExamples(
      composition.tools,
      local.extracted,
      local.origins,
      memo.examples,
    );
    diagnostics.push(...examples.diagnostics);
    const registry: Registry = {
      version: REGISTRY_FORMAT_VERSION,
      generator,
      hash: combineToolHashes(examples.tools),
      tools: examples.tools,
      names: Object.fromEntries(examples.tools.map((tool) => [tool.name, tool.alias])),
    };
    const features = buildFeatureModel(local.features ?? [], config.root);
    diagnostics.push(...features.diagnostics);
    const files = emitFiles(
      {
        configFile: config.file,
        root: config.root,
        outDir: config.outDir,
        registry,
        validators: compiled.validators,
        json: config.jsonFiles
          ? {
              artifacts: artifactSets(registry),
              lean: config.leanArtifacts ? artifactSets(registry, true) : null,
            }
          : null,
        packages: composition.packages,
        gateway: local.gateway ?? null,
        features,
      },
      memo.emit,
    );

    const inputs = this.inputsOf(local.program, local.sources, composition.inputs, local.extracted);
    this.read = new Set(inputs.keys());
    return {
      files,
      diagnostics: diagnostics.sort(compareDiagnostics),
      registry,
      inputs,
      sources: local.sources,
      gateway: local.gateway ?? null,
    };
  }

  /** A gateway's tools: its upstream's listing, as definitions (`upstream/`). */
  private async listUpstream(changedSet: ReadonlySet<string>): Promise<LocalTools> {
    const { upstreamTools } = await import("./upstream/index.js");
    const upstream = await upstreamTools(
      this.config.fromMcp!,
      this.config.file,
      { cwd: this.config.root },
      this.config.describe,
    );
    return {
      ...this.noLocalSources(changedSet),
      definitions: upstream.definitions,
      sites: upstream.sites,
      diagnostics: upstream.diagnostics,
      gateway: upstream.gateway,
    };
  }

  /** scan, extract and model: the project's own tools, from the configured sources. */
  private async scanLocal(changedSet: ReadonlySet<string>): Promise<LocalTools> {
    const { config, memo } = this;
    const sources = await listSourceFiles(config);
    // New compiler settings can change every type: start over.
    if ([...changedSet].some((file) => this.settingsFiles.has(file))) this.reset();
    let loader = this.loader ?? this.load();
    let roots = this.refresh(loader, sources, changedSet);
    // TypeScript keeps the previous program's module resolutions for files that did not change
    // (all of them when the roots are the same, failed ones included): a new file that is not a
    // root, such as a module a failed import would now find, needs a program built afresh.
    if (
      this.read.size > 0 &&
      [...changedSet].some(
        (file) => !this.read.has(file) && !roots.includes(file) && fs.existsSync(file),
      )
    ) {
      this.reset();
      loader = this.load();
      roots = this.refresh(loader, sources, changedSet);
    }

    // scan and extract
    const program = loader.load(roots);
    const extract = extractor(program.getTypeChecker());
    const diagnostics: Diagnostic[] = [...this.projectDiagnostics];
    if (sources.length === 0) {
      diagnostics.push(
        diagnostic(
          "error",
          "ZCP1003",
          `include globs ${JSON.stringify(config.include)} match no files in the configuration's folder`,
        ),
      );
    }
    const extractions: Extraction[] = [];
    const features: ExtractedFeature[] = [];
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
        extractions.push(memo.extraction(key, () => extract(declaration)));
      }
      // Prompts and resources are few and cheap: extracted again on every run.
      for (const tag of ["prompt", "resource"] as const) {
        const marked = findTools(sourceFile, tag);
        diagnostics.push(...marked.diagnostics);
        for (const declaration of marked.tools) {
          const extraction = extractFeature(declaration, tag, program.getTypeChecker());
          diagnostics.push(...extraction.diagnostics);
          if (extraction.feature) features.push(extraction.feature);
        }
      }
    }
    memo.keepExtractions(live);
    const tools = extractions.flatMap((extraction) => (extraction.tool ? [extraction.tool] : []));
    diagnostics.push(...extractions.flatMap((extraction) => extraction.diagnostics));
    if (extractions.length === 0 && features.length === 0 && sources.length > 0) {
      diagnostics.push(
        diagnostic(
          "warning",
          "ZCP1004",
          `no @tool functions in the ${sources.length} configured source file(s)`,
        ),
      );
    }

    const model = buildModel(tools, { root: config.root, describe: config.describe }, memo.model);
    diagnostics.push(...model.diagnostics);
    // A hand-written input schema is generated only when its validator checks all of it.
    const definitions = model.definitions.filter((definition) => {
      if (model.origins.get(definition)?.inputSchemaFile == null) return true;
      const problems = handWrittenProblems(definition, model.sites.get(definition)!);
      diagnostics.push(...problems);
      return problems.length === 0;
    });
    return {
      definitions,
      sites: model.sites,
      extracted: tools,
      origins: model.origins,
      config: model.config,
      diagnostics,
      program,
      sources,
      features,
    };
  }

  /** A configuration without local sources: only the configuration file is read. */
  private noLocalSources(changedSet: ReadonlySet<string>): LocalTools {
    if (this.settingsFiles.size === 0 || changedSet.has(this.config.file))
      this.settingsFiles = new Map([[this.config.file, hashSourceFile(this.config.file)]]);
    return {
      definitions: [],
      sites: new Map(),
      extracted: [],
      origins: new Map(),
      diagnostics: [],
      program: null,
      sources: [],
    };
  }

  /** What this run read, with the hashes of the texts it used (see `GenerateResult.inputs`). */
  private inputsOf(
    program: ts.Program | null,
    sources: readonly string[],
    packages: ReadonlyMap<string, string | null>,
    extracted: readonly ExtractedTool[],
  ): Map<string, string | null> {
    const inputs = new Map<string, string | null>();
    const add = (file: string, hash: string | null) => {
      const seen = inputs.get(file);
      inputs.set(file, seen === undefined || seen === hash ? hash : null);
    };
    for (const [file, hash] of this.settingsFiles) add(file, hash);
    for (const file of sources) add(file, this.memo.mention(file).hash);
    for (const [file, hash] of packages) add(file, hash);
    // Hand-written input schemas are read by extract, not by TypeScript.
    for (const tool of extracted)
      if (tool.inputSchemaFile !== null)
        add(tool.inputSchemaFile, hashSourceFile(tool.inputSchemaFile));
    for (const sourceFile of program?.getSourceFiles() ?? []) {
      if (program!.isSourceFileDefaultLibrary(sourceFile)) continue;
      add(path.resolve(sourceFile.fileName), this.memo.textHash(sourceFile));
    }
    return new Map([...inputs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  private load(): ProgramLoader {
    const settings = readCompilerSettings(this.config);
    this.loader = new ProgramLoader(settings.options, settings.files);
    this.projectDiagnostics = settings.diagnostics;
    // Read again right after TypeScript did (scan reads them through ts.sys).
    this.settingsFiles = new Map(
      [this.config.file, ...settings.configFiles].map((file) => [file, hashSourceFile(file)]),
    );
    return this.loader;
  }

  /** Forgets everything loaded: the next run reads the settings and every file again. */
  private reset(): void {
    this.loader = null;
    this.memo.clear();
  }

  /**
   * Brings the loader in line with the file system: changed files are read again, and the
   * configured files that mention `@tool` are the roots. Returns the roots, sorted.
   */
  private refresh(
    loader: ProgramLoader,
    sources: readonly string[],
    changed: ReadonlySet<string>,
  ): string[] {
    loader.invalidate(changed);
    this.memo.invalidate(changed);
    return sources.filter((file) => this.memo.mention(file).mentions);
  }
}
