/**
 * extract: a tool's hand-written input schema, `@inputSchema ./contact.schema.json`, for
 * arguments a TypeScript type cannot say (`if`/`then`/`else`, `oneOf`, `$anchor`, "phone or
 * email"). The file, relative to the tool's source file, holds one JSON Schema (draft 2020-12)
 * of the arguments object; it becomes the tool's `inputSchema` as written (`$schema` kept), and
 * the tool takes the arguments as its one parameter, whose TypeScript type the author keeps in
 * line with the schema. Here the file is read and its form checked; whether the validator
 * compiler checks every keyword in it is the pipeline's step after the model
 * (`handWrittenProblems`), where the compiler is.
 */
import fs from "node:fs";
import path from "node:path";
import { ts } from "@ts-morph/common";
import { DEFAULT_MAX_ARGUMENT_DEPTH, setOwn, tooDeepAt } from "@zcp/runtime";
import type { JsonValue } from "@zcp/runtime/definition";
import type { Code, Severity } from "../diagnostics.js";
import type { Tag } from "./jsdoc.js";
import type { Schema } from "./schema.js";

/** The largest schema file read. */
const MAX_FILE_BYTES = 1024 * 1024;
/** The dialect a hand-written schema may declare (with `http` or `https`, with or without `#`). */
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

type Diagnose = (node: ts.Node, code: Code, message: string, severity?: Severity) => void;

export interface HandWritten {
  /** The schema as the file holds it. */
  readonly schema: Schema;
  /** The file's absolute path: one of the tool's dependencies. */
  readonly file: string;
  /** The `default` of each top-level property, merged under the caller's arguments. */
  readonly defaults: Record<string, JsonValue>;
}

/**
 * The schema `tag` names, or null with a diagnostic: a path that is not `./…json` or `../…json`
 * (ZCP1301), a file that cannot be read, is larger than 1 MiB, is not JSON, is not an object
 * schema, declares another dialect or nests deeper than the runtime's argument limit (ZCP1309).
 */
export function readHandWritten(
  tag: Tag,
  sourceFile: string,
  diagnose: Diagnose,
): HandWritten | null {
  if (!/^\.\.?\/\S+\.json$/.test(tag.text)) {
    diagnose(
      tag.node,
      "ZCP1301",
      `@inputSchema: expected the path of a .json file, relative to this file ("./args.schema.json"), got "${tag.text}"`,
    );
    return null;
  }
  const file = path.resolve(path.dirname(sourceFile), tag.text);
  const refuse = (why: string): null => {
    diagnose(tag.node, "ZCP1309", `@inputSchema ${tag.text}: ${why}`);
    return null;
  };
  let text: string;
  try {
    const size = fs.statSync(file).size;
    if (size > MAX_FILE_BYTES) return refuse(`${size} bytes; at most ${MAX_FILE_BYTES}`);
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    return refuse(`cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    return refuse(`is not JSON (${(error as Error).message})`);
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    return refuse("is not a JSON Schema object");
  const root = schema as Schema;
  if (root.type !== "object")
    return refuse('must describe the arguments object: "type": "object" at its root');
  if (root.$schema !== undefined && !DRAFT_2020_12.test(String(root.$schema)))
    return refuse(
      `declares ${JSON.stringify(root.$schema)}; write draft 2020-12 ("https://json-schema.org/draft/2020-12/schema") or no $schema`,
    );
  const deep = tooDeepAt(root, DEFAULT_MAX_ARGUMENT_DEPTH);
  if (deep !== null)
    return refuse(`nests deeper than ${DEFAULT_MAX_ARGUMENT_DEPTH} levels at ${deep}`);
  return { schema: root, file, defaults: propertyDefaults(root) };
}

/**
 * Whether `fn`'s parameters fit a hand-written schema: the arguments object as one parameter,
 * beside the context (`isContext`) if it takes one; diagnosed (ZCP1205) when they do not.
 */
export function takesArgumentsObject(
  fn: ts.SignatureDeclaration,
  tag: Tag,
  isContext: (parameter: ts.ParameterDeclaration) => boolean,
  diagnose: Diagnose,
): boolean {
  const own = fn.parameters.filter(
    (node) => !(ts.isIdentifier(node.name) && node.name.text === "this") && !isContext(node),
  );
  if (own.length === 1 && !own[0]!.dotDotDotToken) return true;
  diagnose(
    tag.node,
    "ZCP1205",
    `@inputSchema: the tool must take the arguments object as its one parameter (besides a ToolContext); it has ${own.length}`,
  );
  return false;
}

/** The top-level properties' `default` values. */
function propertyDefaults(schema: Schema): Record<string, JsonValue> {
  const defaults: Record<string, JsonValue> = {};
  const properties = schema.properties;
  if (typeof properties !== "object" || properties === null || Array.isArray(properties))
    return defaults;
  for (const [name, property] of Object.entries(properties as Schema)) {
    const value = (property as Schema | null)?.default;
    if (value !== undefined) setOwn(defaults, name, value);
  }
  return defaults;
}
