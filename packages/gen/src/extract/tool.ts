/**
 * extract: one `@tool` function → its options (from tags), input and output schemas,
 * defaults, handle parameters and call signature.
 */
import { ts } from "@ts-morph/common";
import { setOwn } from "@zcp/runtime";
import {
  HANDLE_ID_PATTERN,
  type CallSignature,
  type ContentKind,
  type JsonValue,
  type OutputMode,
  type ToolFlag,
} from "@zcp/runtime/definition";
import type { Describe } from "../config.js";
import { diagnostic, type Code, type Diagnostic, type Severity } from "../diagnostics.js";
import { nodePosition, type ToolDeclaration } from "../scan/index.js";
import { docText, paramTagName, tagsOf, type Tag } from "./jsdoc.js";
import { readToolTags } from "./tags.js";
import { readThrows, type ThrownClass } from "./throws.js";
import { orderKeys, type Schema } from "./schema.js";
import { SchemaCache, type ConvertHost } from "./convert-host.js";
import { arrayLike, indexKeywords } from "./compounds.js";
import { bindingPatternDefaults, literal, NOT_LITERAL } from "./literals.js";
import { faithful, includesUndefined, writtenUndefined } from "./type-facts.js";
import { returnContent } from "./content.js";
import { readHandWritten, takesArgumentsObject } from "./input-schema.js";
import { SchemaConverter } from "./types.js";

/** Everything extract learns about one tool; `model` turns it into a ToolDefinition. */
export interface ExtractedTool {
  readonly exportName: string;
  /** Absolute path of the declaring file. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** `@tool` argument, or null for the default. */
  readonly alias: string | null;
  readonly id: string | null;
  readonly title: string | null;
  readonly description: string;
  readonly outputMode: OutputMode;
  readonly handleKind: string;
  readonly groups: string[];
  readonly stages: string[];
  readonly flags: ToolFlag[];
  readonly scopes: string[];
  readonly deprecated: string | null;
  /** `@maxResultTokens`, or null. */
  readonly maxResultTokens: number | null;
  /** `@describe`, or null for the configuration's default. */
  readonly describe: Describe | null;
  readonly inputSchema: Schema;
  readonly outputSchema: Schema | null;
  /** The content the tool returns instead of a JSON value (`extract/content.ts`), or null. */
  readonly content: ContentKind | null;
  readonly defaults: Record<string, JsonValue>;
  readonly handleParams: Record<string, string>;
  readonly call: CallSignature;
  /** Paths of arguments the function takes as `Date` (ISO strings on the wire). */
  readonly dates: string[];
  /** The file of a hand-written input schema (`@inputSchema`), whose keywords the pipeline checks; null for one derived from the parameters. */
  readonly inputSchemaFile: string | null;
  /** The tool's own `@example` tags, in order: compile checks them (`compile/examples.ts`). */
  readonly exampleTags: readonly ExampleTag[];
  /**
   * The schema of the server configuration its context reads (`ToolContext<Config>`): every
   * tool that types one must agree (the model checks); null when the tool reads none.
   */
  readonly config: Schema | null;
  /** The error classes of its `@throws` tags, whose messages the model may read. */
  readonly throws: readonly ThrownClass[];
  /** Files the tool's types reach, its own included. */
  readonly deps: string[];
}

/** A tool-level `@example` tag: its text, and where it is for a diagnostic. */
interface ExampleTag {
  readonly text: string;
  readonly position: { readonly file: string; readonly line: number; readonly column: number };
}

export interface Extraction {
  /** null when the tool has errors: it is left out of the registry. */
  readonly tool: ExtractedTool | null;
  readonly diagnostics: Diagnostic[];
}

export function extractTool(
  declaration: ToolDeclaration,
  checker: ts.TypeChecker,
  cache: SchemaCache = new SchemaCache(),
): Extraction {
  const diagnostics: Diagnostic[] = [];
  const deps = new Set<string>([declaration.sourceFile.fileName]);
  const diagnose = (node: ts.Node, code: Code, message: string, severity: Severity = "error") =>
    diagnostics.push(diagnostic(severity, code, message, nodePosition(node)));
  const host = (
    direction: ConvertHost["direction"],
    report: ConvertHost["diagnose"] = diagnose,
  ): ConvertHost => ({ checker, cache, direction, diagnose: report, deps });

  const { fn, jsDoc } = declaration;
  const tags = tagsOf(jsDoc);
  const options = readToolTags(tags, diagnose);
  const description = docText(jsDoc);
  if (!description)
    diagnose(
      declaration.jsDoc,
      "ZCP1305",
      "tool has no description; the model picks tools by it",
      "warning",
    );

  if (fn.typeParameters?.length) {
    diagnose(
      fn.typeParameters[0]!,
      "ZCP1205",
      "a tool cannot be generic: its parameters need one JSON Schema; use concrete types",
    );
    return { tool: null, diagnostics };
  }
  const converter = new SchemaConverter(host("input"));
  const schemaTags = tags.filter((tag) => tag.name === "inputSchema");
  for (const tag of schemaTags.slice(1))
    diagnose(tag.node, "ZCP1301", "@inputSchema is given more than once");
  const written = schemaTags[0]
    ? handWrittenInput(fn, schemaTags[0], declaration.sourceFile.fileName, converter, diagnose)
    : null;
  if (written) deps.add(written.file);
  // A refused `@inputSchema` (diagnosed) leaves the tool out: its parameters are not read instead.
  const input = schemaTags[0]
    ? (written ?? REFUSED_INPUT)
    : extractParameters(fn, tags, converter, checker, diagnose);
  const contextParam = input.call.context === null ? undefined : fn.parameters[input.call.context];
  const config = contextParam
    ? extractConfig(contextParam, checker, new SchemaConverter(host("input")))
    : null;
  // The dispatcher passes the context as the tool declares it: the runtime validated the
  // configuration against the same schema when it started.
  if (config) input.call = { ...input.call, config: true };

  const signature = checker.getSignatureFromDeclaration(fn);
  const returned = signature
    ? checker.getAwaitedType(checker.getReturnTypeOfSignature(signature))
    : undefined;
  const content = returned ? contentKind(fn, returned, tags, checker, diagnose) : null;
  const outputSchema =
    returned && !isNothing(returned) && content === null
      ? extractOutput(fn, returned, checker, host, diagnose)
      : null;

  const throws = readThrows(tags, checker, diagnose);
  for (const thrown of throws) deps.add(thrown.file);
  const position = nodePosition(fn.parent && ts.isVariableDeclaration(fn.parent) ? fn.parent : fn);
  const failed = () => diagnostics.some((d) => d.severity === "error");
  const tool: ExtractedTool = {
    exportName: declaration.exportName,
    file: position.file,
    line: position.line,
    column: position.column,
    ...options,
    // Content goes out inline, always: a handle would hide the image from the model.
    outputMode: content ? "scalar" : options.outputMode,
    handleKind:
      options.handleKind ?? (returned && !content ? kindFromType(checker, returned) : "generic"),
    description,
    inputSchema: input.schema,
    outputSchema: outputSchema && orderKeys(outputSchema),
    content: content === "refused" ? null : content,
    defaults: input.defaults,
    handleParams: input.handleParams,
    call: input.call,
    config,
    dates: input.dates,
    inputSchemaFile: written?.file ?? null,
    exampleTags: tags
      .filter((tag) => tag.name === "example")
      .map((tag) => ({ text: tag.text, position: nodePosition(tag.node) })),
    throws,
    deps: [...deps].sort(),
  };
  return { tool: failed() ? null : tool, diagnostics };
}

/**
 * The input of a tool with `@inputSchema`: the file's schema as written, the arguments object
 * as the one parameter. Null when the tag or the signature is refused (diagnosed: the tool is
 * left out, since no schema is guessed for it).
 */
function handWrittenInput(
  fn: ts.SignatureDeclaration,
  tag: Tag,
  sourceFile: string,
  converter: SchemaConverter,
  diagnose: ConvertHost["diagnose"],
): (InputShape & { readonly file: string }) | null {
  const isContext = (node: ts.ParameterDeclaration) =>
    converter.special(nonUndefined(converter.checker.getTypeAtLocation(node)))?.kind === "context";
  if (!takesArgumentsObject(fn, tag, isContext, diagnose)) return null;
  const written = readHandWritten(tag, sourceFile, diagnose);
  if (!written) return null;
  const context = fn.parameters.findIndex(isContext);
  return {
    schema: orderKeys(written.schema),
    dates: [],
    defaults: written.defaults,
    handleParams: {},
    call: { kind: "object", context: context < 0 ? null : context },
    file: written.file,
  };
}

interface InputShape {
  schema: Schema;
  dates: string[];
  defaults: Record<string, JsonValue>;
  handleParams: Record<string, string>;
  call: CallSignature;
}

const REFUSED_INPUT: InputShape = {
  schema: {},
  dates: [],
  defaults: {},
  handleParams: {},
  call: { kind: "object", context: null },
};

function extractParameters(
  fn: ts.SignatureDeclaration,
  tags: Tag[],
  converter: SchemaConverter,
  checker: ts.TypeChecker,
  diagnose: (node: ts.Node, code: Code, message: string, severity?: Severity) => void,
): InputShape {
  let context: number | null = null;
  /** `untyped`: no annotation, so `any`: `{}` in the schema (ZCP1204, a warning). */
  const params: { node: ts.ParameterDeclaration; type: ts.Type; untyped: boolean }[] = [];
  fn.parameters.forEach((node, index) => {
    const type = checker.getTypeAtLocation(node);
    // `this: T` is a type annotation, not an argument.
    if (ts.isIdentifier(node.name) && node.name.text === "this") return;
    if (node.dotDotDotToken)
      diagnose(node, "ZCP1205", "rest parameters are not supported; use an array parameter");
    else if (converter.special(nonUndefined(type))?.kind === "context") context = index;
    else {
      const untyped = !node.type && (type.flags & ts.TypeFlags.Any) !== 0;
      if (untyped)
        diagnose(
          node,
          "ZCP1204",
          `parameter "${node.name.getText()}" has no type annotation, mapped to {} (any JSON value); annotate its type`,
          "warning",
        );
      params.push({ node, type, untyped });
    }
  });
  const paramTags = new Map<string, Tag>();
  for (const tag of tags) {
    const name = paramTagName(tag.node);
    if (name !== null) paramTags.set(name, tag);
  }
  const used = new Set<string>();
  /** Takes the description from the first `@param` tag among `names` (e.g. `opts.city`, `city`). */
  const describeFromTag = (schema: Schema, names: string[]): Schema => {
    const name = names.find((n) => paramTags.has(n));
    if (name === undefined) return schema;
    used.add(name);
    const text = paramTags.get(name)!.text;
    // Said of this parameter of this tool, so it wins over the description of the parameter's type.
    return text ? { ...schema, description: text } : schema;
  };

  const defaults: Record<string, JsonValue> = {};
  const handleParams: Record<string, string> = {};
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  let call: CallSignature;
  let others: Schema = { additionalProperties: false };

  const single = params.length === 1 ? params[0]! : undefined;
  if (
    single &&
    (ts.isObjectBindingPattern(single.node.name) ||
      isPlainObject(checker, converter, nonUndefined(single.type)))
  ) {
    // One object parameter: its properties are the tool's parameters.
    const objectType = nonUndefined(single.type);
    const outer = ts.isIdentifier(single.node.name) ? single.node.name.text : null;
    const { properties: props, required: req } = converter.properties(objectType, single.node);
    others = indexKeywords(converter, objectType, single.node, Object.keys(props).length > 0);
    const bindingDefaults = ts.isObjectBindingPattern(single.node.name)
      ? bindingPatternDefaults(single.node.name, checker, diagnose)
      : {};
    for (const [name, schema] of Object.entries(props)) {
      let described = describeFromTag(schema, outer ? [`${outer}.${name}`, name] : [name]);
      if (Object.hasOwn(bindingDefaults, name)) {
        setOwn(defaults, name, bindingDefaults[name]!);
        described = { ...described, default: bindingDefaults[name] };
      }
      setOwn(properties, name, described);
      if (req.includes(name) && !Object.hasOwn(bindingDefaults, name)) required.push(name);
    }
    if (outer) used.add(outer);
    call = { kind: "object", context };
  } else {
    const names: string[] = [];
    for (const { node, type, untyped } of params) {
      if (!ts.isIdentifier(node.name)) {
        diagnose(
          node,
          "ZCP1205",
          "a destructured parameter must be the tool's only parameter (besides the context)",
        );
        continue;
      }
      const name = node.name.text;
      names.push(name);
      const optional =
        node.questionToken !== undefined ||
        node.initializer !== undefined ||
        includesUndefined(type) ||
        writtenUndefined(node.type);
      const valueType = nonUndefined(type);
      const special = converter.special(valueType);
      let schema: Schema;
      if (special?.kind === "handle") {
        setOwn(handleParams, name, special.handleKind);
        const what = special.handleKind === "*" ? "a result" : `a "${special.handleKind}" result`;
        schema = {
          type: "string",
          pattern: HANDLE_ID_PATTERN,
          description: `Handle id (e.g. "#T1") of ${what}.`,
        };
      } else if (untyped) {
        schema = {};
      } else {
        schema = converter.at(name, () =>
          converter.convert(
            type,
            faithful(checker, node.type, type) ?? faithful(checker, node.type, valueType),
            node.type ?? node,
          ),
        );
      }
      schema = converter.describe(describeFromTag(schema, [name]), node, node);
      if (node.initializer) {
        const value = literal(node.initializer, checker);
        if (value === NOT_LITERAL) {
          diagnose(
            node.initializer,
            "ZCP1304",
            `default of "${name}" is not a literal; the parameter is optional without a recorded default`,
            "warning",
          );
        } else if (value !== undefined) {
          setOwn(defaults, name, value);
          schema = { ...schema, default: value };
        }
      }
      setOwn(properties, name, schema);
      if (!optional) required.push(name);
    }
    call = { kind: "positional", params: names, context };
  }

  for (const [name, tag] of paramTags) {
    if (!used.has(name))
      diagnose(tag.node, "ZCP1303", `@param "${name}" names no parameter of this tool`, "warning");
  }
  const schema: Schema = { type: "object", properties, required, ...others };
  return {
    schema: orderKeys(withDefs(schema, converter)),
    dates: [...converter.dates].sort(),
    defaults,
    handleParams,
    call,
  };
}

/**
 * The content a tool returns: null for a JSON value, `refused` for content where a result cannot
 * be content (diagnosed ZCP1209; the tool is left out). Content is never a handle: `@output
 * handle` or `auto` on such a tool is an error (ZCP1210).
 */
function contentKind(
  fn: ts.SignatureDeclaration,
  returned: ts.Type,
  tags: Tag[],
  checker: ts.TypeChecker,
  diagnose: ConvertHost["diagnose"],
): ContentKind | "refused" | null {
  const content = returnContent(checker, returned);
  if (content === null) return null;
  if (typeof content === "object") {
    const type = fn.type ? fn.type.getText() : checker.typeToString(returned);
    diagnose(fn.type ?? fn, "ZCP1209", `return type "${type}" is ${content.refused}`);
    return "refused";
  }
  const output = tags.find((tag) => tag.name === "output" && tag.text !== "scalar");
  if (output)
    diagnose(
      output.node,
      "ZCP1210",
      `@output ${output.text}: the tool returns content (${content}), which always goes out inline (an image a handle hid would never reach the model); remove the tag`,
    );
  return content;
}

/**
 * The output schema of a tool that returns `returned`. A return type with no JSON form (a
 * function, a `Map`, `Error | undefined`) costs the output schema, not the tool: the model can
 * still call it (its result is serialised as it is at run time). The converter's errors become one ZCP1207
 * warning that names the type and says why; its warnings are kept as they are.
 */
function extractOutput(
  fn: ts.SignatureDeclaration,
  returned: ts.Type,
  checker: ts.TypeChecker,
  host: (direction: "output", report: ConvertHost["diagnose"]) => ConvertHost,
  diagnose: ConvertHost["diagnose"],
): Schema | null {
  const reasons: string[] = [];
  const converter = new SchemaConverter(
    // Content nested in a value stays an error (ZCP1209): at run time it would go out as JSON text.
    host("output", (node, code, message, severity = "error") =>
      severity === "error" && code !== "ZCP1209"
        ? reasons.push(message)
        : diagnose(node, code, message, severity),
    ),
  );
  const written = fn.type && unwrapPromiseNode(fn.type);
  const schema = converter.convert(returned, faithful(checker, written, returned), fn.type ?? fn);
  if (reasons.length === 0) return withDefs(schema, converter);
  const type = fn.type ? fn.type.getText() : checker.typeToString(returned);
  diagnose(
    fn.type ?? fn,
    "ZCP1207",
    `return type "${type}" is not representable as JSON (${reasons.join("; ")}); the tool is generated without an output schema`,
    "warning",
  );
  return null;
}

/**
 * The schema of the `config` a context parameter types (`ToolContext<SinkConfig>`), converted
 * as input (the configuration comes from outside, like arguments); null for `ToolContext`
 * alone, whose `config` is `unknown`.
 */
function extractConfig(
  param: ts.ParameterDeclaration,
  checker: ts.TypeChecker,
  converter: SchemaConverter,
): Schema | null {
  const property = checker.getPropertyOfType(
    nonUndefined(checker.getTypeAtLocation(param)),
    "config",
  );
  if (!property) return null;
  const type = checker.getTypeOfSymbolAtLocation(property, param);
  if (type.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) return null;
  const written =
    param.type && ts.isTypeReferenceNode(param.type) ? param.type.typeArguments?.[0] : undefined;
  const schema = converter.at("config", () => converter.convert(type, written, written ?? param));
  return orderKeys(withDefs(schema, converter));
}

function withDefs(schema: Schema, converter: SchemaConverter): Schema {
  if (converter.defs.size === 0) return schema;
  return { ...schema, $defs: Object.fromEntries(converter.defs) };
}

/** An object type whose properties can be a tool's parameters (not an array, function, Date, Handle...). */
function isPlainObject(
  checker: ts.TypeChecker,
  converter: SchemaConverter,
  type: ts.Type,
): boolean {
  if (!(type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection))) return false;
  if (type.isIntersection() && type.types.some((t) => !(t.flags & ts.TypeFlags.Object)))
    return false;
  if (arrayLike(checker, type) || converter.special(type)) return false;
  if (type.isIntersection() && type.types.some((t) => arrayLike(checker, t))) return false;
  if (checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0) return false;
  const name = type.getSymbol()?.getName();
  return name !== "Date" && name !== "Map" && name !== "Set";
}

function nonUndefined(type: ts.Type): ts.Type {
  if (!type.isUnion()) return type;
  const rest = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
  return rest.length === 1 ? rest[0]! : type;
}

function isNothing(type: ts.Type): boolean {
  return (type.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Never)) !== 0;
}

function unwrapPromiseNode(node: ts.TypeNode): ts.TypeNode {
  if (
    ts.isTypeReferenceNode(node) &&
    node.typeName.getText() === "Promise" &&
    node.typeArguments?.length === 1
  )
    return node.typeArguments[0]!;
  return node;
}

/** `@handleKind` default: the snake_case name of the returned type (its element type for arrays). */
function kindFromType(checker: ts.TypeChecker, type: ts.Type): string {
  const named = checker.isArrayType(type)
    ? checker.getTypeArguments(type as ts.TypeReference)[0]!
    : type;
  const symbol = named.aliasSymbol ?? named.getSymbol();
  const name = symbol?.getName();
  if (
    !name ||
    name.startsWith("__") ||
    [
      "Array",
      "Object",
      "Date",
      "String",
      "Number",
      "Boolean",
      "Record",
      "Partial",
      "Pick",
      "Omit",
      "Required",
      "Readonly",
    ].includes(name)
  ) {
    return "generic";
  }
  return snakeCase(name);
}

export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
}
