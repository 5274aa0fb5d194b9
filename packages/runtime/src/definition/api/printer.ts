/**
 * The one TypeScript type printer: JSON Schemas (as `zcp gen` emits them) to TypeScript types.
 * Two styles share every type rule (unions, literals, arrays, tuples, index signatures,
 * `$ref`s, intersections):
 *
 * - `types`: `zcp gen`'s `types.ts`. Every object shape is a named, exported interface (one per
 *   distinct shape, under its TypeScript name when that name is free), laid out as prettier
 *   lays it out; full descriptions as JSDoc.
 * - `declarations`: the API text (`renderDeclarations`). Only shapes with a TypeScript name
 *   (`title`) and `$defs` are named (once per printer); other objects are inline type literals;
 *   documentation is the first sentence of each description, as in planner lines.
 */
import { canonicalJson } from "../hash.js";
import { firstSentence } from "../planner/sentence.js";
import type { JsonValue } from "../registry.js";
import { PRINT_WIDTH, printKey, printString, width } from "./print.js";

/** A JSON Schema node as the printer reads it. */
export type SchemaNode = { readonly [keyword: string]: unknown };

/** `types`: gen's types.ts; `declarations`: the compact API text. */
export type PrintStyle = "types" | "declarations";

export interface TypePrinterOptions {
  /** Default `types`. */
  readonly style?: PrintStyle;
  /** `declarations` only: documentation comments (default true). */
  readonly docs?: boolean;
}

/** How one property of an object is documented and typed besides its schema. */
interface MemberExtras {
  /** The property is a handle parameter of this kind (`*`: any kind). */
  readonly handleKind?: string;
}

/**
 * Prints the types of schemas, collecting the named declarations (`declarations`) they need.
 * One printer per output file (or API text): names are unique within it and a shared shape is
 * declared once.
 */
export class TypePrinter {
  /** The named declarations so far, each a complete text ending in a newline. */
  readonly declarations: string[] = [];
  /** `declarations`: whether some member printed so far is a handle parameter (typed `Handle`). */
  usesHandles = false;
  private readonly used = new Set<string>();
  /** Declared object shapes: canonical JSON of the schema → interface name. */
  private readonly shapes = new Map<string, string>();
  /** `$defs` names of the root being printed → declared names. */
  private refs = new Map<string, string>();
  private readonly style: PrintStyle;
  private readonly docs: boolean;

  /** A printer in `options.style` (default `types`). */
  constructor(options: TypePrinterOptions = {}) {
    this.style = options.style ?? "types";
    this.docs = options.docs !== false;
  }

  /** A free identifier for `name`: when taken, `name_<suffix>` (`types`) or `name2`, `name3`... (`declarations`). */
  reserve(name: string, suffix: string): string {
    if (this.style === "declarations") {
      let free = name;
      for (let n = 2; this.used.has(free); n++) free = `${name}${n}`;
      this.used.add(free);
      return free;
    }
    let free = this.used.has(name) ? `${name}_${suffix}` : name;
    for (let n = 2; this.used.has(free); n++) free = `${name}_${suffix}_${n}`;
    this.used.add(free);
    return free;
  }

  /**
   * Declares the `$defs` of a root (recursive types): `types` under `<base><DefName>`;
   * `declarations` under `<DefName>`, once per printer for equal definitions.
   */
  defs(root: SchemaNode, base: string): void {
    this.refs = new Map();
    const defs = (root.$defs ?? {}) as { [name: string]: SchemaNode };
    const fresh: string[] = [];
    for (const [name, def] of Object.entries(defs)) {
      if (this.style === "types") {
        this.refs.set(name, this.reserve(`${base}${pascalCase(name)}`, "def"));
        fresh.push(name);
        continue;
      }
      const key = `$defs:${name}:${shapeKey(def)}`;
      const known = this.shapes.get(key);
      if (known !== undefined) {
        this.refs.set(name, known);
      } else {
        const declared = this.reserve(pascalCase(name), "def");
        this.shapes.set(key, declared);
        this.refs.set(name, declared);
        fresh.push(name);
      }
    }
    for (const name of fresh) this.declare(this.refs.get(name)!, defs[name]!);
  }

  /** `types`: the root argument object as a named interface. */
  named(root: SchemaNode, name: string): string {
    return this.objectName(root, name, true);
  }

  /** `types`: a result; an object gets the interface name, anything else a type alias. */
  alias(root: SchemaNode, name: string): string {
    if (isObject(root)) return this.objectName(root, name, true);
    const declared = this.reserve(name, "result");
    this.declarations.push(aliasText(declared, this.members(root), root.description));
    return declared;
  }

  /** The type of `schema` on one line; named shapes it uses are declared on the way. */
  type(schema: SchemaNode, hint = "Item"): string {
    return this.union(schema, hint);
  }

  /**
   * `declarations`: an object schema as a type literal whose members start at `indent`: on one
   * line when no member is documented and it fits the line width from `column`, else one member
   * per line with its documentation after it (`key: T; // Doc.`). `handleKinds`: the properties
   * that are handle parameters (typed `Handle`), by name.
   */
  objectLiteral(
    schema: SchemaNode,
    hint: string,
    indent: string,
    column: number,
    handleKinds: { readonly [property: string]: string } = {},
  ): string {
    const members = this.literalMembers(schema, hint, handleKinds);
    if (members.length === 0) return "{}";
    const flat = `{ ${members.map((m) => m.text).join("; ")} }`;
    if (members.every((m) => m.doc === "") && column + width(flat) <= PRINT_WIDTH) return flat;
    const lines = members.map((m) => `${indent}  ${m.text};${m.doc === "" ? "" : ` // ${m.doc}`}`);
    return `{\n${lines.join("\n")}\n${indent}}`;
  }

  private literalMembers(
    schema: SchemaNode,
    hint: string,
    handleKinds: { readonly [property: string]: string },
  ): { text: string; doc: string }[] {
    const properties = (schema.properties ?? {}) as { [key: string]: SchemaNode };
    const required = new Set((schema.required ?? []) as string[]);
    const members = Object.entries(properties).map(([key, value]) => {
      const kind = handleKinds[key];
      if (kind !== undefined) this.usesHandles = true;
      const type = kind !== undefined ? "Handle" : this.union(value, `${hint}${pascalCase(key)}`);
      return {
        text: `${printKey(key)}${required.has(key) ? "" : "?"}: ${type}`,
        doc: this.memberDoc(value, { ...(kind !== undefined ? { handleKind: kind } : {}) }),
      };
    });
    if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
      const values = schema.additionalProperties as SchemaNode;
      members.push({
        text: `[key: string]: ${this.union(values, `${hint}Value`)}`,
        doc: this.memberDoc(values, {}),
      });
    }
    return members;
  }

  /** A member's comment: its handle kind, its default and its description's first sentence. */
  private memberDoc(schema: SchemaNode, extras: MemberExtras): string {
    if (!this.docs) return "";
    const parts: string[] = [];
    if (extras.handleKind !== undefined && extras.handleKind !== "*")
      parts.push(`${printString(extras.handleKind)} handle.`);
    if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}.`);
    const sentence = sentenceOf(schema.description);
    if (sentence !== "") parts.push(sentence);
    return parts.join(" ").replace(/[\r\n\u2028\u2029]+/g, " ");
  }

  private declare(name: string, schema: SchemaNode): void {
    this.declarations.push(
      isObject(schema)
        ? this.interfaceText(name, schema)
        : this.style === "types"
          ? aliasText(name, this.members(schema), schema.description)
          : `${this.jsDoc(schema.description, "")}type ${name} = ${this.union(schema, name)};\n`,
    );
  }

  /**
   * The name of the interface for an object schema, declaring it on first sight: its TypeScript
   * name (`title`) when free, else one from where it is used. `root` is a tool's own arguments or
   * result: always its own interface, with the schema's description. `declarations`: only a
   * titled shape gets a name; any other is inline.
   */
  private objectName(schema: SchemaNode, hint: string, root: boolean): string {
    const key = shapeKey(schema);
    const known = this.shapes.get(key);
    if (known && !root) return known;
    if (this.style === "declarations" && typeof schema.title !== "string")
      return inlineFlat(this.literalMembers(schema, hint, {}));
    // A title is text (an upstream's, in a gateway): it names a type only when it is a name.
    const title =
      !root && typeof schema.title === "string"
        ? TYPE_NAME.test(schema.title)
          ? schema.title
          : pascalCase(schema.title)
        : hint;
    const name = this.reserve(title, "shape");
    this.shapes.set(key, name);
    this.declarations.push(this.interfaceText(name, schema, root));
    return name;
  }

  /** A shared shape's description belongs to one of its uses: only roots and definitions keep it. */
  private interfaceText(name: string, schema: SchemaNode, described = true): string {
    if (this.style === "declarations") {
      // The description of a shared shape is its declaration's (its TypeScript doc comment).
      const body = this.objectLiteral(schema, name, "", width(`interface ${name} `), {});
      return `${this.jsDoc(schema.description, "")}interface ${name} ${body}\n`;
    }
    const properties = (schema.properties ?? {}) as { [key: string]: SchemaNode };
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
          this.union(schema.additionalProperties as SchemaNode, `${name}Value`),
          undefined,
        ),
      );
    }
    return `${described ? doc(schema.description, "") : ""}export interface ${name} ${body(members)}\n`;
  }

  /** `declarations`: a `/** First sentence. *\/` line, or "" (no description, or no docs). */
  jsDoc(description: unknown, indent: string, prefix = ""): string {
    if (!this.docs) return "";
    const sentence = sentenceOf(description);
    const text = `${prefix}${prefix !== "" && sentence !== "" ? " " : ""}${sentence}`;
    return text === "" ? "" : `${indent}/** ${text.replace(/\*\//g, "*\\/")} */\n`;
  }

  /** The members of a union type for `schema` (one member for a non-union). */
  private members(schema: SchemaNode, hint = "Item"): string[] {
    if (typeof schema.$ref === "string")
      return [this.refs.get(schema.$ref.slice(schema.$ref.lastIndexOf("/") + 1)) ?? "unknown"];
    if (schema.const !== undefined) return [literal(schema.const)];
    if (Array.isArray(schema.enum)) return schema.enum.map(literal);
    // An intersection of arrays and tuples (the only `allOf` the extract stage writes).
    if (Array.isArray(schema.allOf))
      return [
        (schema.allOf as SchemaNode[])
          .map((branch, i) => wrap(this.union(branch, `${hint}${i + 1}`)))
          .join(" & "),
      ];
    if (Array.isArray(schema.anyOf))
      return unique(
        (schema.anyOf as SchemaNode[]).flatMap((branch, i) =>
          this.members(branch, `${hint}${i + 1}`),
        ),
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

  private single(type: string, schema: SchemaNode, hint: string): string[] {
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
              ? this.union(schema.additionalProperties as SchemaNode, `${hint}Value`)
              : null;
          // An index signature, not Record<>: a recursive alias may refer to itself through it.
          return [values === null ? "Record<string, never>" : `{ [key: string]: ${values} }`];
        }
        return [this.objectName(schema, hint, false)];
      default:
        return ["unknown"];
    }
  }

  private array(schema: SchemaNode, hint: string): string {
    if (Array.isArray(schema.prefixItems)) {
      const min = typeof schema.minItems === "number" ? schema.minItems : 0;
      const items = (schema.prefixItems as SchemaNode[]).map(
        (item, i) => `${this.union(item, `${hint}${i}`)}${i >= min ? "?" : ""}`,
      );
      if (schema.items && typeof schema.items === "object")
        items.push(`...${wrap(this.union(schema.items as SchemaNode, `${hint}Rest`))}[]`);
      return `[${items.join(", ")}]`;
    }
    const items =
      schema.items && typeof schema.items === "object"
        ? this.union(schema.items as SchemaNode, hint)
        : "unknown";
    return `${wrap(items)}[]`;
  }

  /** A one-line union. */
  private union(schema: SchemaNode, hint: string): string {
    return this.members(schema, hint).join(" | ");
  }
}

/** A name a type can be declared under as it is. */
const TYPE_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** An inline object literal on one line, whatever its width (a nested shape without a name). */
function inlineFlat(members: readonly { text: string }[]): string {
  return members.length === 0 ? "{}" : `{ ${members.map((m) => m.text).join("; ")} }`;
}

/**
 * `types`: an interface of one member per entry, `key: type;`, as gen's `ToolArgs` and
 * `ToolResults` maps are printed: `/** doc *\/` then `export interface Name {...}`.
 */
export function mapInterfaceText(
  name: string,
  description: string,
  entries: readonly (readonly [string, string])[],
): string {
  const members = entries.map(([key, type]) => member(printKey(key), false, type, undefined));
  return `/** ${description} */\nexport interface ${name} ${body(members)}\n`;
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

/** `types`: the whole description as one JSDoc line. */
function doc(description: unknown, indent: string): string {
  if (typeof description !== "string" || description === "") return "";
  return `${indent}/** ${description.replace(/\*\//g, "*\\/").replace(/\s+/g, " ")} */\n`;
}

function sentenceOf(description: unknown): string {
  return typeof description === "string" ? firstSentence(description) : "";
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

function isObject(schema: SchemaNode): boolean {
  return (
    schema.type === "object" &&
    !!schema.properties &&
    Object.keys(schema.properties as object).length > 0
  );
}

/** Shape keys by schema object: schemas are immutable and shared between tools. */
const SHAPE_KEYS = new WeakMap<SchemaNode, string>();

function shapeKey(schema: SchemaNode): string {
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

/** `weather.get_current` → `WeatherGetCurrent` (a leading digit gets a `T`). */
export function pascalCase(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join("");
  return /^[A-Za-z_]/.test(name) ? name : `T${name}`;
}
