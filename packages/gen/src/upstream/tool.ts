/**
 * upstream: one entry of a `tools/list` result, read on its own. The listing is input zcp does
 * not control, and one entry that is not a valid MCP tool must not cost the others: each entry
 * is checked against MCP's `Tool` on the fields zcp reads (`name`, `title`, `description`,
 * `inputSchema`, `outputSchema`, `annotations`; the schemas are object schemas: `type`
 * `"object"`, `properties` an object of object schemas, `required` an array of strings). A
 * valid entry becomes an `UpstreamTool` holding those fields only, so that a field zcp does not
 * read (`icons`, `execution`, `_meta`) neither fails a tool nor counts in the listing hash; an
 * invalid one becomes a `MalformedTool`, which the model reports (ZCP1714) and leaves out.
 * Upstream strings reach a problem only JSON-quoted (a tool's or a property's name, a `type`
 * value); any other value of the wrong kind is named by its kind, never shown.
 */
import type { JsonValue } from "@zcp/runtime/definition";

/** One tool of an upstream's `tools/list`, as listed (unknown fields are kept out). */
export interface UpstreamTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: { readonly [keyword: string]: unknown };
  readonly outputSchema?: { readonly [keyword: string]: unknown };
  readonly annotations?: { readonly [key: string]: unknown };
}

/** An entry of `tools/list` that is not a valid MCP tool: reported (ZCP1714) and left out. */
export interface MalformedTool {
  /** Its place in the whole listing, from 0, across pages. */
  readonly index: number;
  /** Its `name`, when that is a string. */
  readonly name: string | null;
  /** What is wrong with it, one phrase each ("its \"name\" is missing (a string is required)"). */
  readonly problems: readonly string[];
  /** The entry as listed: it counts in the listing hash, so that fixing it is a change. */
  readonly entry: JsonValue;
}

type Entry = { readonly [key: string]: unknown };

/** The annotations zcp reads, and the kind each must be. */
const ANNOTATIONS = {
  title: "string",
  readOnlyHint: "boolean",
  destructiveHint: "boolean",
  idempotentHint: "boolean",
  openWorldHint: "boolean",
} as const;

/** The entry at `index` of the whole listing (from 0, across pages), checked. */
export function readTool(entry: unknown, index: number): UpstreamTool | MalformedTool {
  if (!isObject(entry))
    return malformed(entry, index, null, [`it is ${kind(entry)}, not an object`]);
  const problems: string[] = [];
  const string = (key: string, required: boolean) =>
    expect(entry[key], `"${key}"`, "string", required, problems);
  string("name", true);
  string("title", false);
  string("description", false);
  objectSchema(entry.inputSchema, '"inputSchema"', true, problems);
  objectSchema(entry.outputSchema, '"outputSchema"', false, problems);
  if (expect(entry.annotations, '"annotations"', "object", false, problems))
    for (const [key, type] of Object.entries(ANNOTATIONS))
      expect((entry.annotations as Entry)[key], `"annotations"."${key}"`, type, false, problems);
  const name = typeof entry.name === "string" ? entry.name : null;
  if (problems.length > 0) return malformed(entry, index, name, problems);
  return listedTool(entry as Entry & { name: string });
}

/** The ZCP1714 message of `tool`: its name (or index) and what is wrong with it. */
export function malformedMessage(tool: MalformedTool): string {
  const who =
    tool.name === null ? `at index ${tool.index} of the listing` : JSON.stringify(tool.name);
  return `the upstream tool ${who} is not a valid MCP tool: ${tool.problems.join(", and ")}; the tool is left out`;
}

/**
 * Checks an object schema at `path`. Of its properties and required names only the first
 * invalid one is named, so that a message stays short however many an upstream sends.
 */
function objectSchema(value: unknown, path: string, required: boolean, problems: string[]): void {
  if (!expect(value, path, "object", required, problems)) return;
  const schema = value as Entry;
  if (schema.type !== "object")
    problems.push(
      schema.type === undefined
        ? `its ${path}."type" is missing ("object" is required)`
        : `its ${path}."type" is ${shown(schema.type)}, not "object"`,
    );
  if (expect(schema.properties, `${path}."properties"`, "object", false, problems)) {
    const bad = Object.entries(schema.properties as Entry).find(([, sub]) => !isObject(sub));
    if (bad)
      problems.push(
        `its ${path}."properties".${JSON.stringify(bad[0])} is ${kind(bad[1])}, not an object`,
      );
  }
  if (schema.required === undefined) return;
  if (!Array.isArray(schema.required))
    problems.push(`its ${path}."required" is ${kind(schema.required)}, not an array of strings`);
  else {
    const at = schema.required.findIndex((item) => typeof item !== "string");
    if (at >= 0)
      problems.push(`its ${path}."required"[${at}] is ${kind(schema.required[at])}, not a string`);
  }
}

/**
 * Whether `value` (at `path`) is of `type`; a missing value is a problem only when `required`.
 * True only for a present value of the right kind.
 */
function expect(
  value: unknown,
  path: string,
  type: "string" | "boolean" | "object",
  required: boolean,
  problems: string[],
): boolean {
  const article = type === "object" ? "an" : "a";
  if (value === undefined) {
    if (required) problems.push(`its ${path} is missing (${article} ${type} is required)`);
    return false;
  }
  const ok = type === "object" ? isObject(value) : typeof value === type;
  if (!ok) problems.push(`its ${path} is ${kind(value)}, not ${article} ${type}`);
  return ok;
}

function isObject(value: unknown): value is Entry {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What kind of JSON value `value` is, for a message. */
function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** A value in a message: a string JSON-quoted, anything else by its kind. */
function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : kind(value);
}

function malformed(
  entry: unknown,
  index: number,
  name: string | null,
  problems: string[],
): MalformedTool {
  return { index, name, problems, entry: entry as JsonValue };
}

/** The fields of a valid entry that zcp uses; of its annotations, the ones MCP defines. */
function listedTool(entry: Entry & { name: string }): UpstreamTool {
  const annotations = entry.annotations as Entry | undefined;
  const known = annotations
    ? Object.fromEntries(
        Object.keys(ANNOTATIONS)
          .filter((key) => Object.hasOwn(annotations, key))
          .map((key) => [key, annotations[key]]),
      )
    : undefined;
  return {
    name: entry.name,
    ...(entry.title !== undefined ? { title: entry.title as string } : {}),
    ...(entry.description !== undefined ? { description: entry.description as string } : {}),
    inputSchema: entry.inputSchema as UpstreamTool["inputSchema"],
    ...(entry.outputSchema !== undefined
      ? { outputSchema: entry.outputSchema as UpstreamTool["outputSchema"] }
      : {}),
    ...(known !== undefined ? { annotations: known } : {}),
  };
}
