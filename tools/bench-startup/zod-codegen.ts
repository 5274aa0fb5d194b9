/**
 * JSON Schema → zod 4 source code, for the keywords zcp's registry uses (the synthetic
 * project's schemas: type (with ["T","null"]), properties, required, additionalProperties,
 * items, prefixItems, enum, anyOf with null, $ref/$defs (recursive), minimum, maximum,
 * minLength, maxLength, pattern, format email/date-time, minItems, maxItems, default, title,
 * description). It writes zod the way a person would write it by hand, so that the MCP SDK
 * side of the start-up benchmark pays what a server written the usual way pays.
 *
 * Anything it does not know throws (the benchmark must not silently measure a smaller schema),
 * except `uniqueItems`, which zod has no check for: it is dropped and counted.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Schema = { readonly [key: string]: Json };

export interface Conversion {
  /** `{ name: z..., ... }`: the raw shape `registerTool` takes as `inputSchema`. */
  readonly shape: string;
  /** `const def_X = ...;` lines the shape refers to ($defs), to put before it. */
  readonly defs: string[];
  /** Keywords zod cannot express, dropped (`uniqueItems`), with how many times. */
  readonly dropped: Record<string, number>;
}

const KNOWN = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "prefixItems",
  "enum",
  "anyOf",
  "$ref",
  "$defs",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "uniqueItems",
  "default",
  "title",
  "description",
]);

/** Converts a tool's object input schema into a raw zod shape plus its `$defs` constants. */
export function convertInputSchema(schema: Schema, where: string): Conversion {
  const dropped: Record<string, number> = {};
  const defs = (schema.$defs ?? {}) as { [name: string]: Schema };
  const defNames = Object.keys(defs);
  const ident = (name: string) => `def_${name.replace(/[^A-Za-z0-9_]/g, "_")}`;
  const context: Context = {
    where,
    dropped,
    defIdent: (ref) => {
      const match = /^#\/\$defs\/(.+)$/.exec(ref);
      if (!match || !defNames.includes(match[1]!))
        throw new Error(`${where}: unsupported $ref ${ref}`);
      return ident(match[1]!);
    },
  };
  if (schema.type !== "object") throw new Error(`${where}: the input schema is not an object`);
  // A def's properties that mention a def are getters: zod 4's way to write recursive types.
  const defLines = defNames.map(
    (name) => `const ${ident(name)}: z.ZodType = ${convert(defs[name]!, context, true)};`,
  );
  const rootKeys = Object.keys(schema).filter((key) => key !== "$defs");
  const root = Object.fromEntries(rootKeys.map((key) => [key, schema[key]!])) as Schema;
  return { shape: objectShape(root, context, false), defs: defLines, dropped };
}

interface Context {
  readonly where: string;
  readonly dropped: Record<string, number>;
  readonly defIdent: (ref: string) => string;
}

const lit = (value: Json) => JSON.stringify(value);

function convert(schema: Schema, context: Context, lazyRefs: boolean): string {
  for (const key of Object.keys(schema))
    if (!KNOWN.has(key)) throw new Error(`${context.where}: unsupported keyword ${key}`);
  let code = base(schema, context, lazyRefs);
  const meta: string[] = [];
  if (typeof schema.title === "string") meta.push(`title: ${lit(schema.title)}`);
  if (typeof schema.description === "string") meta.push(`description: ${lit(schema.description)}`);
  if (meta.length === 1 && typeof schema.description === "string")
    code += `.describe(${lit(schema.description)})`;
  else if (meta.length > 0) code += `.meta({ ${meta.join(", ")} })`;
  if ("default" in schema) code += `.default(${lit(schema.default!)})`;
  return code;
}

function base(schema: Schema, context: Context, lazyRefs: boolean): string {
  if (typeof schema.$ref === "string") return context.defIdent(schema.$ref);
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as Schema[];
    const nonNull = branches.filter((branch) => branch.type !== "null");
    const inner = nonNull.map((branch) => convert(branch, context, lazyRefs));
    const union = inner.length === 1 ? inner[0]! : `z.union([${inner.join(", ")}])`;
    return nonNull.length < branches.length ? `${union}.nullable()` : union;
  }
  let type = schema.type;
  let nullable = false;
  if (Array.isArray(type)) {
    const types = type.filter((t) => t !== "null");
    if (types.length !== 1) throw new Error(`${context.where}: unsupported type ${lit(type)}`);
    nullable = types.length < type.length;
    type = types[0]!;
  }
  let code: string;
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.filter((value) => value !== null);
    if (schema.enum.length > values.length) nullable = true;
    code = values.every((value) => typeof value === "string")
      ? `z.enum(${lit(values)})`
      : `z.literal(${lit(values)})`;
  } else if (type === "string") {
    code =
      schema.format === "email"
        ? "z.email()"
        : schema.format === "date-time"
          ? "z.iso.datetime({ offset: true })"
          : "z.string()";
    if (schema.format !== undefined && schema.format !== "email" && schema.format !== "date-time")
      throw new Error(`${context.where}: unsupported format ${lit(schema.format)}`);
    if (typeof schema.minLength === "number") code += `.min(${schema.minLength})`;
    if (typeof schema.maxLength === "number") code += `.max(${schema.maxLength})`;
    if (typeof schema.pattern === "string")
      code += `.regex(/${schema.pattern.replaceAll("/", "\\/")}/)`;
  } else if (type === "number" || type === "integer") {
    code = type === "integer" ? "z.int()" : "z.number()";
    if (typeof schema.minimum === "number") code += `.gte(${schema.minimum})`;
    if (typeof schema.maximum === "number") code += `.lte(${schema.maximum})`;
  } else if (type === "boolean") {
    code = "z.boolean()";
  } else if (type === "null") {
    code = "z.null()";
  } else if (type === "array") {
    if (Array.isArray(schema.prefixItems)) {
      if (schema.items !== false) throw new Error(`${context.where}: prefixItems with open items`);
      code = `z.tuple([${(schema.prefixItems as Schema[]).map((item) => convert(item, context, lazyRefs)).join(", ")}])`;
    } else {
      code = `z.array(${schema.items === undefined ? "z.unknown()" : convert(schema.items as Schema, context, lazyRefs)})`;
      if (typeof schema.minItems === "number") code += `.min(${schema.minItems})`;
      if (typeof schema.maxItems === "number") code += `.max(${schema.maxItems})`;
    }
    if (schema.uniqueItems === true)
      context.dropped.uniqueItems = (context.dropped.uniqueItems ?? 0) + 1;
  } else if (type === "object") {
    const properties = (schema.properties ?? {}) as { [name: string]: Schema };
    const extra = schema.additionalProperties;
    if (Object.keys(properties).length === 0 && extra !== undefined && typeof extra === "object") {
      code = `z.record(z.string(), ${convert(extra as Schema, context, lazyRefs)})`;
    } else {
      const shape = objectShape(schema, context, lazyRefs);
      if (extra === false) code = `z.strictObject(${shape})`;
      else if (extra !== undefined && typeof extra === "object")
        code = `z.object(${shape}).catchall(${convert(extra as Schema, context, lazyRefs)})`;
      else code = `z.object(${shape})`;
    }
  } else {
    throw new Error(`${context.where}: unsupported type ${lit(type ?? null)}`);
  }
  return nullable ? `${code}.nullable()` : code;
}

/** `{ a: ..., b: ....optional() }`; with `lazyRefs`, a property that mentions a def is a getter. */
function objectShape(schema: Schema, context: Context, lazyRefs: boolean): string {
  const properties = (schema.properties ?? {}) as { [name: string]: Schema };
  const required = new Set((schema.required ?? []) as string[]);
  const entries = Object.entries(properties).map(([name, property]) => {
    let code = convert(property, context, lazyRefs);
    if (!required.has(name) && !("default" in property)) code += ".optional()";
    const key = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : lit(name);
    return lazyRefs && code.includes("def_")
      ? `get ${key}() { return ${code}; }`
      : `${key}: ${code}`;
  });
  return `{ ${entries.join(", ")} }`;
}
