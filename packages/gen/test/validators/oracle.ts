/**
 * The validators' oracle: Ajv (draft 2020-12, formats on, strict) on one tool's input schema, and
 * the documented coercions, computed here independently of the generated code.
 */
import type { JsonValue } from "@zcp/runtime";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { Schema } from "./helpers.js";

export function ajv(options: { ownProperties?: boolean } = {}): Ajv2020 {
  const instance = new Ajv2020({
    strict: true,
    allowUnionTypes: true,
    strictTuples: false,
    ...options,
  });
  addFormats.default(instance);
  return instance;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isSchema(value: JsonValue | undefined): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Sets a key as an own data property, `__proto__` included. */
export function setKey(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * Ajv on one tool's input schema, and the documented coercions, interpreted from the schema: a
 * string becomes a number where the schema's type allows number or integer and not string when
 * it is a finite JSON number, and a boolean where it allows boolean and not string when it is
 * "true" or "false"; `anyOf` takes the first branch whose coerced value Ajv accepts.
 */
export class Oracle {
  private readonly whole: ValidateFunction;
  private readonly branches = new Map<Schema, ValidateFunction>();

  constructor(
    private readonly ajv: Ajv2020,
    private readonly root: Schema,
  ) {
    this.whole = ajv.compile(root);
  }

  accepts(value: unknown): boolean {
    return this.whole(value) as boolean;
  }

  coerce(schema: JsonValue | undefined, value: unknown): unknown {
    if (!isSchema(schema)) return value;
    let current = value;
    const types =
      typeof schema.type === "string"
        ? [schema.type]
        : Array.isArray(schema.type)
          ? (schema.type as string[])
          : null;
    if (types && !types.includes("string") && typeof current === "string") {
      if (types.includes("boolean") && (current === "true" || current === "false"))
        current = current === "true";
      else if (
        (types.includes("number") || types.includes("integer")) &&
        JSON_NUMBER.test(current) &&
        Number.isFinite(Number(current))
      )
        current = Number(current);
    }
    if (typeof schema.$ref === "string") current = this.coerce(this.def(schema.$ref), current);
    if (Array.isArray(schema.anyOf)) {
      for (const branch of schema.anyOf) {
        const candidate = this.coerce(branch, current);
        if (this.branch(branch as Schema)(candidate)) {
          current = candidate;
          break;
        }
      }
    }
    if (Array.isArray(current)) {
      const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
      const items = schema.items;
      current = current.map((item: unknown, index) =>
        index < prefix.length
          ? this.coerce(prefix[index], item)
          : isSchema(items)
            ? this.coerce(items, item)
            : item,
      );
    } else if (isRecord(current)) {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      const extra = schema.additionalProperties;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(current)) {
        const own = Object.prototype.hasOwnProperty.call(properties, key);
        setKey(
          out,
          key,
          own
            ? this.coerce(properties[key], current[key])
            : isSchema(extra)
              ? this.coerce(extra, current[key])
              : current[key],
        );
      }
      current = out;
    }
    return current;
  }

  def(ref: string): Schema {
    return (this.root.$defs as { [name: string]: Schema })[ref.slice("#/$defs/".length)]!;
  }

  branch(schema: Schema): ValidateFunction {
    let validate = this.branches.get(schema);
    if (!validate)
      this.branches.set(
        schema,
        (validate = this.ajv.compile(
          this.root.$defs ? { ...schema, $defs: this.root.$defs } : schema,
        )),
      );
    return validate;
  }
}
