/**
 * The pipeline's memo: what watch mode keeps between runs so that a change costs what it
 * changes. Every stage is a function of its input; where a stage does the same work per tool
 * (or per object), it takes that work as `steps`, and this is where the memoized steps are made,
 * all in one place. Each memo is keyed by what the result depends on and nothing else: a
 * definition by its extracted tool, a tool's validator code by its definition and function
 * name, a shared type's by its function name (a hash of its schema), a tool's checked examples by
 * its extracted tool and its definition with them by the model's definition, a printed text by
 * the object it prints. Unchanged tools are the same objects from run to run (their extraction is kept
 * until a file their types reach changes), so every later memo hits for them.
 *
 * Besides these, modules keep memos of pure functions of immutable objects (the tools found in
 * a parsed file, a tool's names, canonical JSON, shared type names, printed strings, parsed
 * library files): they change no result, and hold no state of a run.
 */
import type { ToolDefinition } from "@zcp/runtime/definition";
import type { ts } from "@ts-morph/common";
import {
  artifactDiagnostics,
  checkExamples,
  compileSharedValidator,
  compileToolValidator,
  withExamples,
  type CheckedExamples,
  type CompileSteps,
  type ExampleSteps,
  type ValidatorCode,
} from "./compile/index.js";
import type { Diagnostic } from "./diagnostics.js";
import { validatorFunction } from "./emit/evaluate.js";
import { EMIT_STEPS, type EmitSteps } from "./emit/index.js";
import type { ExtractedTool, Extraction } from "./extract/index.js";
import { defineTool, type ModelSteps } from "./model/index.js";
import { hashText, mentionsTool, readSourceText } from "./scan/index.js";

interface Mention {
  readonly mentions: boolean;
  /** The hash of the text that said so; null when the file could not be read. */
  readonly hash: string | null;
}

export class Memo {
  /** scan: whether each configured file mentions `@tool`, with the hash of its text (read again only when it changes). */
  private readonly mentioned = new Map<string, Mention>();
  /** scan: the hash of each program file's text, computed once per parsed file. */
  private readonly textHashes = new WeakMap<ts.SourceFile, string>();
  /** extract: each tool's extraction (by `file#export`), with the files its types reach. */
  private readonly extractions = new Map<
    string,
    { readonly extraction: Extraction; readonly deps: ReadonlySet<string> }
  >();
  /** model: each extracted tool's definition. */
  private readonly definitions = new WeakMap<ExtractedTool, ToolDefinition>();
  /** compile: each definition's diagnostics from the provider rules. */
  private readonly artifactDiagnostics = new WeakMap<ToolDefinition, readonly Diagnostic[]>();
  /** compile: each definition's validator code, under its function name; shared types' code by name (this run's and the previous run's). */
  private readonly validators = new WeakMap<
    ToolDefinition,
    { readonly fn: string; readonly code: ValidatorCode }
  >();
  /** compile: each extracted tool's checked examples, and each model definition completed with them. */
  private readonly checkedExamples = new WeakMap<ExtractedTool, CheckedExamples>();
  private readonly completed = new WeakMap<ToolDefinition, ToolDefinition>();
  private sharedNow = new Map<string, ValidatorCode>();
  private sharedBefore = new Map<string, ValidatorCode>();
  /** emit: printed statements, validator texts and JSON texts, by the object printed. */
  private readonly statements = new WeakMap<ToolDefinition, string>();
  private readonly validatorTexts = new WeakMap<ValidatorCode, string>();
  private readonly json = new WeakMap<object, Map<number, string>>();

  /** Starts a run: what the previous run did not use of the shared types is let go after this one. */
  startRun(): void {
    this.sharedBefore = this.sharedNow;
    this.sharedNow = new Map();
  }

  /** Forgets what was read of `changed` files, and the extractions whose types reach one. */
  invalidate(changed: ReadonlySet<string>): void {
    for (const file of changed) this.mentioned.delete(file);
    if (changed.size === 0) return;
    for (const [key, cached] of this.extractions) {
      if ([...changed].some((file) => cached.deps.has(file))) this.extractions.delete(key);
    }
  }

  /** Forgets every file read and every extraction: new compiler settings, or a program built afresh. */
  clear(): void {
    this.mentioned.clear();
    this.extractions.clear();
  }

  /** Whether `file` mentions `@tool`, read once until it changes. */
  mention(file: string): Mention {
    let seen = this.mentioned.get(file);
    if (seen === undefined) {
      const text = readSourceText(file);
      this.mentioned.set(
        file,
        (seen = {
          mentions: text !== null && mentionsTool(text),
          hash: text === null ? null : hashText(text),
        }),
      );
    }
    return seen;
  }

  textHash(sourceFile: ts.SourceFile): string {
    let hash = this.textHashes.get(sourceFile);
    if (hash === undefined) this.textHashes.set(sourceFile, (hash = hashText(sourceFile.text)));
    return hash;
  }

  /** The extraction under `key`, or `extract()`'s. A tool with errors is extracted again on every run: what fixes it may be a file it could not reach. */
  extraction(key: string, extract: () => Extraction): Extraction {
    const cached = this.extractions.get(key);
    if (cached) return cached.extraction;
    const extraction = extract();
    if (extraction.tool)
      this.extractions.set(key, { extraction, deps: new Set(extraction.tool.deps) });
    return extraction;
  }

  /** Drops the extractions of tools that are gone. */
  keepExtractions(live: ReadonlySet<string>): void {
    for (const key of this.extractions.keys()) if (!live.has(key)) this.extractions.delete(key);
  }

  readonly model: ModelSteps = {
    define: (draft, settings) =>
      remember(this.definitions, draft.tool, () => defineTool(draft, settings)),
  };

  readonly compile: CompileSteps = {
    artifactDiagnostics: (tool, site) =>
      remember(this.artifactDiagnostics, tool, () => artifactDiagnostics(tool, site)),
    validators: {
      tool: (tool, fn) => {
        let known = this.validators.get(tool);
        if (known?.fn !== fn)
          this.validators.set(tool, (known = { fn, code: compileToolValidator(tool, fn) }));
        return known.code;
      },
      shared: (name, schema) => {
        let code = this.sharedNow.get(name) ?? this.sharedBefore.get(name);
        if (code === undefined) code = compileSharedValidator(name, schema);
        this.sharedNow.set(name, code);
        return code;
      },
    },
  };

  /** The examples are checked by the code of the tool's generated validator (`emit/evaluate.ts`). */
  readonly examples: ExampleSteps = {
    check: (tool) =>
      remember(this.checkedExamples, tool, () => checkExamples(tool, validatorFunction)),
    complete: (definition, examples) =>
      remember(this.completed, definition, () => withExamples(definition, examples)),
  };

  readonly emit: EmitSteps = {
    statement: (tool) => remember(this.statements, tool, () => EMIT_STEPS.statement(tool)),
    validator: (code) => remember(this.validatorTexts, code, () => EMIT_STEPS.validator(code)),
    json: (value, depth) => {
      let byDepth = this.json.get(value);
      const known = byDepth?.get(depth);
      if (known !== undefined) return known;
      const text = EMIT_STEPS.json(value, depth);
      if (!byDepth) this.json.set(value, (byDepth = new Map()));
      byDepth.set(depth, text);
      return text;
    },
  };
}

function remember<K extends object, V>(map: WeakMap<K, V>, key: K, compute: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = compute()));
  return value;
}
