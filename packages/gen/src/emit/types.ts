/**
 * emit: `types.ts`, the TypeScript types of every tool's arguments and result as they travel
 * (handle ids and dates are strings), and the maps a typed client indexes by alias:
 *
 *     call<A extends ToolAlias>(alias: A, args: ToolArgs[A]): Promise<ToolResults[A]>
 *
 * Object schemas become named interfaces, one per distinct shape (a shared interface is
 * declared once, under its TypeScript name when that name is free), so that every property
 * type is a single line of names, literals and unions. Lines are laid out as prettier lays
 * them out (the tests check this); the only construct that wraps is a long union.
 */
import { canonicalJson, type JsonValue, type ToolDefinition } from "@zcp/runtime/codegen";
import { tsFile, type EmitContext } from "./ts-file.js";
import { PRINT_WIDTH, printKey, printString, width } from "./print.js";

type Node = { readonly [keyword: string]: unknown };

export function typesFile(context: EmitContext, tools: readonly ToolDefinition[]): string {
  const printer = new TypePrinter();
  const argsMap: [string, string][] = [];
  const resultMap: [string, string][] = [];
  for (const tool of tools) {
    const base = printer.reserve(pascalCase(tool.alias), tool.id);
    printer.defs(tool.inputSchema as Node, base);
    argsMap.push([tool.alias, printer.named(tool.inputSchema as Node, `${base}Args`)]);
    if (tool.outputSchema) {
      printer.defs(tool.outputSchema as Node, `${base}Result`);
      resultMap.push([tool.alias, printer.alias(tool.outputSchema as Node, `${base}Result`)]);
    } else {
      resultMap.push([tool.alias, "undefined"]);
    }
  }
  return tsFile(context, [
    ...printer.declarations,
    mapInterface(
      "ToolArgs",
      "The arguments of each tool, by alias (as sent: handle ids and dates are strings).",
      argsMap,
    ),
    mapInterface("ToolResults", "The result value of each tool, by alias.", resultMap),
    "/** Every tool alias. */\nexport type ToolAlias = keyof ToolArgs;\n",
  ]);
}

function mapInterface(name: string, doc: string, entries: readonly [string, string][]): string {
  const members = entries.map(([alias, type]) => member(printKey(alias), false, type, undefined));
  return `/** ${doc} */\nexport interface ${name} ${body(members)}\n`;
}

class TypePrinter {
  readonly declarations: string[] = [];
  private readonly used = new Set<string>();
  /** Declared object shapes: canonical JSON of the schema → interface name. */
  private readonly shapes = new Map<string, string>();
  /** `$defs` names of the root being printed → declared names. */
  private refs = new Map<string, string>();

  /** A free identifier for `name` (`name_<suffix>` when taken). */
  reserve(name: string, suffix: string): string {
    let free = this.used.has(name) ? `${name}_${suffix}` : name;
    for (let n = 2; this.used.has(free); n++) free = `${name}_${suffix}_${n}`;
    this.used.add(free);
    return free;
  }

  /** Declares the `$defs` of a root (recursive types) under `<base><DefName>`. */
  defs(root: Node, base: string): void {
    this.refs = new Map();
    const defs = (root.$defs ?? {}) as { [name: string]: Node };
    for (const name of Object.keys(defs))
      this.refs.set(name, this.reserve(`${base}${pascalCase(name)}`, "def"));
    for (const [name, def] of Object.entries(defs)) this.declare(this.refs.get(name)!, def);
  }

  /** The root argument object as a named interface. */
  named(root: Node, name: string): string {
    return this.objectName(root, name, true);
  }

  /** A result: an object gets the interface name, anything else a type alias. */
  alias(root: Node, name: string): string {
    if (isObject(root)) return this.objectName(root, name, true);
    const declared = this.reserve(name, "result");
    this.declarations.push(aliasText(declared, this.members(root), root.description));
    return declared;
  }

  private declare(name: string, schema: Node): void {
    this.declarations.push(
      isObject(schema)
        ? this.interfaceText(name, schema)
        : aliasText(name, this.members(schema), schema.description),
    );
  }

  /**
   * The name of the interface for an object schema, declaring it on first sight: its TypeScript
   * name (`title`) when free, else one from where it is used. `root` is a tool's own arguments or
   * result: always its own interface, with the schema's description.
   */
  private objectName(schema: Node, hint: string, root: boolean): string {
    const key = shapeKey(schema);
    const known = this.shapes.get(key);
    if (known && !root) return known;
    const name = this.reserve(
      !root && typeof schema.title === "string" ? schema.title : hint,
      "shape",
    );
    this.shapes.set(key, name);
    this.declarations.push(this.interfaceText(name, schema, root));
    return name;
  }

  /** A shared shape's description belongs to one of its uses: only roots and definitions keep it. */
  private interfaceText(name: string, schema: Node, described = true): string {
    const properties = (schema.properties ?? {}) as { [key: string]: Node };
    const required = new Set((schema.required ?? []) as string[]);
    const members = Object.entries(properties).map(([key, value]) =>
      member(
        printKey(key),
        !required.has(key),
        this.union(value, `${name}${pascalCase(key)}`),
        value.description,
      ),
    );
    if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
      members.push(
        member(
          "[key: string]",
          false,
          this.union(schema.additionalProperties as Node, `${name}Value`),
          undefined,
        ),
      );
    }
    return `${described ? doc(schema.description, "") : ""}export interface ${name} ${body(members)}\n`;
  }

  /** The members of a union type for `schema` (one member for a non-union). */
  private members(schema: Node, hint = "Item"): string[] {
    if (typeof schema.$ref === "string")
      return [this.refs.get(schema.$ref.slice(schema.$ref.lastIndexOf("/") + 1)) ?? "unknown"];
    if (schema.const !== undefined) return [literal(schema.const)];
    if (Array.isArray(schema.enum)) return schema.enum.map(literal);
    // An intersection of arrays and tuples (the only `allOf` the extract stage writes).
    if (Array.isArray(schema.allOf))
      return [
        (schema.allOf as Node[])
          .map((branch, i) => wrap(this.union(branch, `${hint}${i + 1}`)))
          .join(" & "),
      ];
    if (Array.isArray(schema.anyOf))
      return unique(
        (schema.anyOf as Node[]).flatMap((branch, i) => this.members(branch, `${hint}${i + 1}`)),
      );
    const types =
      typeof schema.type === "string"
        ? [schema.type]
        : Array.isArray(schema.type)
          ? (schema.type as string[])
          : [];
    if (types.length === 0) return ["unknown"];
    return unique(types.flatMap((type) => this.single(type, schema, hint)));
  }

  private single(type: string, schema: Node, hint: string): string[] {
    switch (type) {
      case "string":
        return ["string"];
      case "number":
      case "integer":
        return ["number"];
      case "boolean":
        return ["boolean"];
      case "null":
        return ["null"];
      case "array":
        return [this.array(schema, hint)];
      case "object":
        if (!schema.properties || Object.keys(schema.properties).length === 0) {
          const values =
            schema.additionalProperties && typeof schema.additionalProperties === "object"
              ? this.union(schema.additionalProperties as Node, `${hint}Value`)
              : null;
          // An index signature, not Record<>: a recursive alias may refer to itself through it.
          return [values === null ? "Record<string, never>" : `{ [key: string]: ${values} }`];
        }
        return [this.objectName(schema, hint, false)];
      default:
        return ["unknown"];
    }
  }

  private array(schema: Node, hint: string): string {
    if (Array.isArray(schema.prefixItems)) {
      const min = typeof schema.minItems === "number" ? schema.minItems : 0;
      const items = (schema.prefixItems as Node[]).map(
        (item, i) => `${this.union(item, `${hint}${i}`)}${i >= min ? "?" : ""}`,
      );
      if (schema.items && typeof schema.items === "object")
        items.push(`...${wrap(this.union(schema.items as Node, `${hint}Rest`))}[]`);
      return `[${items.join(", ")}]`;
    }
    const items =
      schema.items && typeof schema.items === "object"
        ? this.union(schema.items as Node, hint)
        : "unknown";
    return `${wrap(items)}[]`;
  }

  /** A one-line union. */
  private union(schema: Node, hint: string): string {
    return this.members(schema, hint).join(" | ");
  }
}

/**
 * `export type Name = A | B;` as prettier lays it out: on one line if it fits, else the union
 * on the next line, else one member per line.
 */
function aliasText(name: string, members: readonly string[], description: unknown): string {
  const union = members.join(" | ");
  const flat = `export type ${name} = ${union};`;
  let text = flat;
  if (width(flat) > PRINT_WIDTH) {
    const hugged = members.length === 1 ? huggedObject(members[0]!, "") : null;
    text =
      hugged !== null
        ? `export type ${name} = ${hugged};`
        : members.length < 2 || width(`  ${union};`) <= PRINT_WIDTH
          ? `export type ${name} =\n  ${union};`
          : `export type ${name} =${members.map((m) => `\n  | ${m}`).join("")};`;
  }
  return `${doc(description, "")}${text}\n`;
}

/** An interface or type literal body: always one member per line. */
function body(members: readonly string[]): string {
  return members.length === 0 ? "{}" : `{\n${members.join("")}}`;
}

/** One member line, `key?: type;`, with its JSDoc; a long union breaks as prettier breaks it. */
function member(key: string, optional: boolean, type: string, description: unknown): string {
  const head = `  ${key}${optional ? "?" : ""}: `;
  const line = `${head}${type};`;
  const members = splitUnion(type);
  const hugged =
    width(line) > PRINT_WIDTH && members.length === 1 ? huggedObject(type, "  ") : null;
  const text =
    hugged !== null
      ? `${head}${hugged};`
      : width(line) <= PRINT_WIDTH || members.length < 2
        ? line
        : `${head.trimEnd()}${members.map((m) => `\n    | ${m}`).join("")};`;
  return `${doc(description, "  ")}${text}\n`;
}

/**
 * An index-signature type (or an array of one) that does not fit: prettier keeps it after the
 * `=` or `:` and breaks its braces, `{\n  [key: string]: V;\n}[]`. Null for any other type.
 */
function huggedObject(type: string, indent: string): string | null {
  const match = /^\{ (\[key: string\]: .*) \}((?:\[\])*)$/.exec(type);
  return match === null ? null : `{\n${indent}  ${match[1]};\n${indent}}${match[2]}`;
}

function doc(description: unknown, indent: string): string {
  if (typeof description !== "string" || description === "") return "";
  return `${indent}/** ${description.replace(/\*\//g, "*\\/").replace(/\s+/g, " ")} */\n`;
}

/** The top-level members of a one-line union (outside brackets and quotes). */
function splitUnion(type: string): string[] {
  const members: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < type.length; i++) {
    const ch = type[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if ("([{<".includes(ch)) depth++;
    else if (")]}>".includes(ch)) depth--;
    else if (depth === 0 && type.startsWith(" | ", i)) {
      members.push(type.slice(start, i));
      start = i + 3;
      i += 2;
    }
  }
  members.push(type.slice(start));
  return members;
}

function wrap(type: string): string {
  return splitUnion(type).length > 1 ? `(${type})` : type;
}

function literal(value: unknown): string {
  return typeof value === "string" ? printString(value) : JSON.stringify(value);
}

function unique(members: string[]): string[] {
  return [...new Set(members)];
}

function isObject(schema: Node): boolean {
  return (
    schema.type === "object" &&
    !!schema.properties &&
    Object.keys(schema.properties as object).length > 0
  );
}

/** Shape keys by schema object: schemas are immutable and shared between tools. */
const SHAPE_KEYS = new WeakMap<Node, string>();

function shapeKey(schema: Node): string {
  let key = SHAPE_KEYS.get(schema);
  if (key === undefined)
    SHAPE_KEYS.set(schema, (key = canonicalJson(stripAnnotations(schema) as JsonValue)));
  return key;
}

/** The shape of a schema without the texts that do not change its type. */
function stripAnnotations(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(stripAnnotations);
  if (schema === null || typeof schema !== "object") return schema;
  const out: { [key: string]: unknown } = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "description" || key === "examples" || key === "default" || key === "deprecated")
      continue;
    out[key] =
      key === "properties" || key === "$defs"
        ? Object.fromEntries(
            Object.entries(value as object).map(([k, v]) => [k, stripAnnotations(v)]),
          )
        : stripAnnotations(value);
  }
  return out;
}

/** `weather.get_current` → `WeatherGetCurrent`. */
function pascalCase(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join("");
  return /^[A-Za-z_]/.test(name) ? name : `T${name}`;
}
