/**
 * extract: one `@prompt` or `@resource` function → what its definition says. A prompt's
 * parameters are its arguments, a template's its URI's variables: each a string on the wire,
 * so each parameter's type is `string` or a union of string literals (a string enum too), whose
 * values are what it completes to; optional when the parameter is (`?`, a default, or
 * `| undefined`). `@param` texts describe them; `@complete <param> <function>` names an exported
 * function of the same file that completes a free-text one.
 */
import { ts } from "@ts-morph/common";
import {
  PROMPT_CONTEXT_BRAND,
  templateVariables,
  type FeatureArgument,
} from "@zcp/runtime/definition";
import { diagnostic, type Diagnostic } from "../diagnostics.js";
import { nodePosition, type MarkTag, type ToolDeclaration } from "../scan/index.js";
import { docText, paramTagName, tagsOf, type Tag } from "./jsdoc.js";
import { snakeCase } from "./tool.js";

/** Everything extract learns about one prompt, resource or resource template. */
export interface ExtractedFeature {
  readonly kind: "prompt" | "resource" | "template";
  readonly exportName: string;
  /** Absolute path of the declaring file. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** A prompt's name, a resource's or template's `name`. */
  readonly name: string;
  readonly title: string | null;
  readonly description: string;
  /** A resource's URI or a template's URI template; "" for a prompt. */
  readonly uri: string;
  /** A resource's or template's; "" for a prompt. */
  readonly mimeType: string;
  /** In the order the function takes them (a template's variables: the template's order). */
  readonly arguments: readonly FeatureArgument[];
  /** The parameters' names, in the order the function takes them. */
  readonly params: readonly string[];
  /** Argument name → the exported function of the same file that completes it. */
  readonly completers: { readonly [argument: string]: string };
  /** A prompt whose last parameter is a `PromptContext`: the generated code passes it. */
  readonly context: boolean;
}

export interface FeatureExtraction {
  /** null when it has errors: it is left out. */
  readonly feature: ExtractedFeature | null;
  readonly diagnostics: Diagnostic[];
}

const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const MIME = /^[\w.+-]+\/[\w.+-]+$/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function extractFeature(
  declaration: ToolDeclaration,
  tag: Exclude<MarkTag, "tool">,
  checker: ts.TypeChecker,
): FeatureExtraction {
  const diagnostics: Diagnostic[] = [];
  const fail = (node: ts.Node, message: string) =>
    diagnostics.push(diagnostic("error", "ZCP1801", message, nodePosition(node)));
  const { fn, jsDoc, exportName, sourceFile } = declaration;
  const tags = tagsOf(jsDoc);
  const text = (name: string): Tag | undefined => tags.find((t) => t.name === name);
  const marked = text(tag)!;

  const uri = tag === "resource" ? marked.text : "";
  const variables = tag === "resource" ? templateVariables(uri) : null;
  if (tag === "resource" && (uri === "" || /\s/.test(uri) || variables === null))
    fail(marked.node, `@resource: "${uri}" is not a URI or an RFC 6570 level-1 URI template`);
  const name = (tag === "prompt" ? marked.text : text("name")?.text) || snakeCase(exportName);
  if (!NAME.test(name)) fail(marked.node, `"${name}" is not a valid ${tag} name`);
  const mimeTag = text("mimeType");
  if (mimeTag && !MIME.test(mimeTag.text))
    fail(mimeTag.node, `@mimeType: "${mimeTag.text}" is not a MIME type`);

  const paramDocs = new Map<string, string>();
  for (const t of tags) {
    const param = paramTagName(t.node);
    if (param !== null && t.text !== "") paramDocs.set(param, t.text);
  }
  const completeTags = tags.filter((t) => t.name === "complete");
  const completers: { [argument: string]: string } = {};
  const exported = exportsOf(checker, sourceFile);

  const args: FeatureArgument[] = [];
  const params: string[] = [];
  if (fn.typeParameters?.length) fail(fn.typeParameters[0]!, `a ${tag} function cannot be generic`);
  const isContext = (param: ts.ParameterDeclaration) =>
    checker.getTypeAtLocation(param).getProperty(PROMPT_CONTEXT_BRAND) !== undefined;
  const last = fn.parameters[fn.parameters.length - 1];
  // One trailing `PromptContext` parameter, on a prompt only: it is no argument.
  const context = tag === "prompt" && last !== undefined && isContext(last);
  for (const param of context ? fn.parameters.slice(0, -1) : fn.parameters) {
    if (isContext(param)) {
      fail(param, `a PromptContext is the last parameter of a prompt, and only of a prompt`);
      continue;
    }
    if (!ts.isIdentifier(param.name) || param.dotDotDotToken) {
      fail(param, `a ${tag}'s parameters are plain named strings (one per argument)`);
      continue;
    }
    const argName = param.name.text;
    const type = checker.getTypeAtLocation(param);
    const values = stringValues(type);
    if (values === undefined) {
      fail(
        param,
        `parameter "${argName}" is not a string or a union of string literals (MCP ${tag === "prompt" ? "prompt arguments" : "URI variables"} are strings)`,
      );
      continue;
    }
    const optional =
      param.questionToken !== undefined ||
      param.initializer !== undefined ||
      (type.isUnion() && type.types.some((t) => t.flags & ts.TypeFlags.Undefined));
    const completer = completeTags.find((t) => t.text.split(/\s+/)[0] === argName);
    params.push(argName);
    args.push({
      name: argName,
      description: paramDocs.get(argName) ?? null,
      required: !optional,
      values,
      completer: completer !== undefined,
    });
  }
  for (const t of completeTags) {
    const [argName = "", fnName = "", ...rest] = t.text.split(/\s+/);
    const arg = args.find((a) => a.name === argName);
    if (!arg || rest.length > 0 || !IDENTIFIER.test(fnName))
      fail(t.node, `@complete: expected "<parameter> <exported function>", got "${t.text}"`);
    else if (arg.values !== null)
      fail(t.node, `@complete: "${argName}" completes to the values of its type already`);
    else if (!exported.has(fnName))
      fail(t.node, `@complete: "${fnName}" is not a function this file exports`);
    else completers[argName] = fnName;
  }

  if (tag === "prompt" && !promptReturn(fn, checker))
    fail(fn, `prompt ${exportName} must return a string or PromptMessage[] (or a promise of one)`);

  let kind: ExtractedFeature["kind"] = "prompt";
  let ordered = args;
  if (tag === "resource" && variables !== null) {
    kind = variables.length === 0 ? "resource" : "template";
    const extra = params.find((param) => !variables.includes(param));
    const absent = variables.find((variable) => !params.includes(variable));
    if (extra !== undefined)
      fail(fn, `parameter "${extra}" is no variable of the URI template ${uri}`);
    if (absent !== undefined)
      fail(fn, `the URI template's variable "${absent}" is no parameter of ${exportName}`);
    ordered = variables.flatMap((variable) => args.filter((arg) => arg.name === variable));
  }

  const position = nodePosition(fn.parent && ts.isVariableDeclaration(fn.parent) ? fn.parent : fn);
  const feature: ExtractedFeature = {
    kind,
    exportName,
    file: position.file,
    line: position.line,
    column: position.column,
    name,
    title: text("title")?.text || null,
    description: docText(jsDoc),
    uri,
    mimeType: tag === "prompt" ? "" : (mimeTag?.text ?? inferredMimeType(fn, checker)),
    arguments: ordered,
    params,
    completers,
    context,
  };
  return { feature: diagnostics.length > 0 ? null : feature, diagnostics };
}

/**
 * The literal values of a union of string literals (a string enum's members too), null for
 * `string`, undefined for any other type. `undefined` in the union (an optional parameter) is
 * left aside.
 */
function stringValues(type: ts.Type): readonly string[] | null | undefined {
  const members = (type.isUnion() ? type.types : [type]).filter(
    (t) => !(t.flags & ts.TypeFlags.Undefined),
  );
  if (members.length === 0) return undefined;
  if (members.some((t) => t.flags & ts.TypeFlags.String))
    return members.every((t) => t.flags & ts.TypeFlags.StringLike) ? null : undefined;
  const values: string[] = [];
  for (const t of members) {
    if (!t.isStringLiteral()) return undefined;
    values.push(t.value);
  }
  return values;
}

/** Whether a prompt's return type can be its value: a string, an array, or a type not known. */
function promptReturn(fn: ts.SignatureDeclaration, checker: ts.TypeChecker): boolean {
  const signature = checker.getSignatureFromDeclaration(fn);
  const returned = signature && checker.getAwaitedType(checker.getReturnTypeOfSignature(signature));
  if (!returned || returned.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return true;
  return (returned.isUnion() ? returned.types : [returned]).every(
    (t) => Boolean(t.flags & ts.TypeFlags.StringLike) || checker.isArrayType(t),
  );
}

/** What a resource's return type says its contents are, when no `@mimeType` does. */
function inferredMimeType(fn: ts.SignatureDeclaration, checker: ts.TypeChecker): string {
  const signature = checker.getSignatureFromDeclaration(fn);
  const returned = signature && checker.getAwaitedType(checker.getReturnTypeOfSignature(signature));
  if (!returned) return "application/json";
  if (returned.flags & ts.TypeFlags.StringLike) return "text/plain";
  if (returned.getSymbol()?.getName() === "Uint8Array") return "application/octet-stream";
  return "application/json";
}

/** The names `sourceFile` exports. */
function exportsOf(checker: ts.TypeChecker, sourceFile: ts.SourceFile): ReadonlySet<string> {
  const module = checker.getSymbolAtLocation(sourceFile);
  return new Set(
    module ? checker.getExportsOfModule(module).map((symbol) => symbol.getName()) : [],
  );
}
