/**
 * emit: `features.ts`, written when the sources declare prompts or resources: the types of each
 * prompt's arguments and each template's variables (`PromptArgs`, `TemplateArgs`), their
 * generated validators (compiled from an object schema of strings, as a tool's are), a function
 * per prompt and template that calls the author's with its arguments in declared order (so tsc
 * checks each against the parameter), and the `features` table of definitions, validators,
 * functions and completion functions for `createRuntime`.
 */
import type {
  FeatureArgument,
  JsonSchema,
  JsonValue,
  SourceLocation,
} from "@zcp/runtime/definition";
import { mapInterfaceText, pascalCase, TypePrinter } from "@zcp/runtime/definition";
import type { CodegenSymbol } from "@zcp/runtime/codegen/symbols";
import { compileSchemaValidator, type ValidatorCode } from "../compile/index.js";
import type { FeatureModel, Modeled } from "../model/features.js";
import { codegenImports } from "./codegen-imports.js";
import { importPath } from "./dispatch.js";
import { printFunction } from "./layout.js";
import { moduleNames, RESERVED } from "./names.js";
import { Identifier, PRINT_WIDTH, printStatement, printString, type Printable } from "./print.js";
import { comment, tsFile, type EmitContext } from "./ts-file.js";

/** The file `featuresFile` renders, in the output folder. */
export const FEATURES_FILE = "features.ts";

/** Names the file declares besides the per-feature functions and the module namespaces. */
const FIXED_NAMES = ["features", "PromptArgs", "TemplateArgs", "args", "_args"];

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The object schema of a prompt's arguments or a template's variables: strings, or their literals. */
function argumentsSchema(args: readonly FeatureArgument[]): JsonSchema {
  const properties: { [name: string]: JsonValue } = Object.fromEntries(
    args.map((arg) => [
      arg.name,
      {
        type: "string",
        ...(arg.values !== null ? { enum: arg.values } : {}),
        ...(arg.description !== null ? { description: arg.description } : {}),
      },
    ]),
  );
  return {
    type: "object",
    properties,
    required: args.filter((arg) => arg.required).map((arg) => arg.name),
    additionalProperties: false,
  };
}

interface Unit {
  readonly kind: "prompt" | "template";
  /** The key of the args map: a prompt's name, a template's URI template. */
  readonly key: string;
  readonly args: readonly FeatureArgument[];
  readonly params: readonly string[];
  /** The author's function takes a trailing `PromptContext`. */
  readonly context: boolean;
  readonly source: SourceLocation;
  readonly validate: string;
  readonly call: string;
  readonly code: ValidatorCode;
}

export function featuresFile(
  context: EmitContext,
  model: FeatureModel,
  root: string,
  outDir: string,
): string {
  const units: Unit[] = [];
  const unit = (
    kind: Unit["kind"],
    at: number,
    key: string,
    modeled: Modeled<{ readonly source: SourceLocation }>,
  ) => {
    const validate = `validate_${kind}_${at + 1}`;
    const args = modeled.feature.arguments;
    const made: Unit = {
      kind,
      key,
      args,
      params: modeled.feature.params,
      context: modeled.feature.context,
      source: modeled.definition.source,
      validate,
      call: `${kind === "prompt" ? "get" : "read"}_${kind}_${at + 1}`,
      code: compileSchemaValidator(argumentsSchema(args), validate, `${kind} ${key}`),
    };
    units.push(made);
    return made;
  };
  const prompts = model.prompts.map((p, at) => unit("prompt", at, p.definition.name, p));
  const templates = model.templates.map((t, at) =>
    unit("template", at, t.definition.uriTemplate, t),
  );
  const sources = [...model.prompts, ...model.resources, ...model.templates].map(
    (m) => m.definition.source.file,
  );
  const taken = new Set([...FIXED_NAMES, ...units.flatMap((u) => [u.validate, u.call])]);
  const modules = moduleNames(sources, taken);
  const member = (source: SourceLocation, name = source.export) =>
    IDENTIFIER.test(name)
      ? `${modules.get(source.file)!}.${name}`
      : `${modules.get(source.file)!}[${printString(name)}]`;

  const helpers = new Set<CodegenSymbol>(["ValidationResult"]);
  for (const u of units) {
    for (const name of [...u.code.helpers, ...u.code.formats]) helpers.add(name);
    if (u.code.patterns.size > 0 || u.code.shared.size > 0)
      throw new Error(`zcp gen: the arguments of ${u.kind} ${u.key} need a pattern or shared type`);
  }
  if (units.some((u) => u.args.some((arg) => arg.values !== null))) helpers.add("asDeclared");
  if (units.some((u) => u.context)) helpers.add("PromptContext");
  helpers.add("featureTable");
  const imports = [
    codegenImports([...helpers].sort((a, b) => (a < b ? -1 : 1))).trimEnd(),
    ...[...modules]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(
        ([file, name]) =>
          `import * as ${name} from ${printString(importPath(root, outDir, file))};`,
      ),
  ].join("\n");

  const printer = new TypePrinter();
  for (const name of [...FIXED_NAMES, ...RESERVED, ...taken]) printer.reserve(name, "");
  const maps = { prompt: [] as [string, string][], template: [] as [string, string][] };
  for (const u of units) {
    const base = printer.reserve(pascalCase(u.key), u.call);
    maps[u.kind].push([u.key, printer.named(argumentsSchema(u.args) as never, `${base}Args`)]);
  }
  const functions = units.map((u) => {
    const text = u.code.functions.map(printFunction).join("\n");
    return `${text}\n${caller(u, member(u.source))}`;
  });
  const completers = (modeled: Modeled<{ readonly source: SourceLocation }>): Printable =>
    Object.fromEntries(
      Object.entries(modeled.feature.completers).map(([arg, fn]) => [
        arg,
        new Identifier(member(modeled.definition.source, fn)),
      ]),
    );
  const table: Printable = {
    prompts: model.prompts.map((p, at) => ({
      definition: p.definition as unknown as Printable,
      validate: new Identifier(prompts[at]!.validate),
      get: new Identifier(prompts[at]!.call),
      complete: completers(p),
    })),
    resources: model.resources.map((r) => ({
      definition: r.definition as unknown as Printable,
      read: new Identifier(member(r.definition.source)),
    })),
    templates: model.templates.map((t, at) => ({
      definition: t.definition as unknown as Printable,
      validate: new Identifier(templates[at]!.validate),
      read: new Identifier(templates[at]!.call),
      complete: completers(t),
    })),
  };
  return tsFile(context, [
    `${imports}\n`,
    ...printer.declarations,
    mapInterfaceText("PromptArgs", "The arguments of each prompt, by name.", maps.prompt),
    mapInterfaceText(
      "TemplateArgs",
      "The variables of each resource template, by URI template.",
      maps.template,
    ),
    ...functions,
    printStatement("export const features = featureTable(", table, ")"),
  ]);
}

/**
 * `get_prompt_1(args, context)`: the author's function called with the arguments in declared
 * order, and the context last when it takes one.
 */
function caller(u: Unit, fn: string): string {
  const mapName = u.kind === "prompt" ? "PromptArgs" : "TemplateArgs";
  const params = [
    `${u.params.length > 0 ? "" : "_"}args: ${mapName}[${printString(u.key)}]`,
    ...(u.context ? ["context: PromptContext"] : []),
  ];
  const flatSignature = `function ${u.call}(${params.join(", ")}): unknown {`;
  const signature =
    flatSignature.length <= PRINT_WIDTH
      ? flatSignature
      : `function ${u.call}(\n${params.map((param) => `  ${param},\n`).join("")}): unknown {`;
  const args = u.params.map((name) => {
    const value = IDENTIFIER.test(name) ? `args.${name}` : `args[${printString(name)}]`;
    // A literal union may be a string enum's members: checked as comparable, not identical.
    return u.args.find((arg) => arg.name === name)!.values !== null
      ? `asDeclared(${value})`
      : value;
  });
  if (u.context) args.push("context");
  const flat = `  return ${fn}(${args.join(", ")});`;
  const body =
    flat.length <= PRINT_WIDTH
      ? flat
      : `  return ${fn}(\n${args.map((arg) => `    ${arg},`).join("\n")}\n  );`;
  return `/** ${comment(`${u.kind} ${u.key}`)} */\n${signature}\n${body}\n}\n`;
}
