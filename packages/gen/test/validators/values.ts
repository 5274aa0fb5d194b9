/**
 * Values generated from a tool's input schema: valid ones, and mutations of them (wrong types,
 * missing and extra keys, out-of-range numbers, bad formats and patterns, numeric and boolean
 * strings), for the agreement with the oracle (ajv.test.ts).
 */
import type { JsonValue } from "@zcp/runtime";
import type { Schema } from "./helpers.js";
import { isRecord, isSchema, type Oracle, setKey } from "./oracle.js";

const WORDS = [
  "a",
  "id",
  "name",
  "Shanghai",
  "x y",
  "it's",
  'say "hi"',
  "héllo",
  "天气",
  "🌤 sun",
  "𝄞",
  "tab\there",
  "line\nbreak",
  "back\\slash",
  "$ref",
  "constructor",
  "1",
  "0.5",
  "true",
  "",
];
const CHARS = [..."abcxyzABC019 _-.'\"é天😀𝄞"];

const VALID_FORMATS: { [format: string]: (g: Values) => string } = {
  date: (g) => `${2000 + g.int(30)}-${pad(1 + g.int(12))}-${pad(1 + g.int(28))}`,
  time: (g) =>
    `${pad(g.int(24))}:${pad(g.int(60))}:${pad(g.int(60))}${g.pick(["Z", "+01:00", "-05:30", ".5Z"])}`,
  "date-time": (g) => `${VALID_FORMATS.date!(g)}T${VALID_FORMATS.time!(g)}`,
  duration: (g) => g.pick(["P1D", "PT5M", "P1Y2M3DT4H5M6S", "P2W", "PT0S"]),
  email: (g) => `${g.pick(["ann", "bob.smith", "x+y"])}@${g.pick(["example.com", "mail.co.uk"])}`,
  hostname: (g) => g.pick(["localhost", "example.com", "a-b.c", "xn--bcher-kva.example"]),
  ipv4: (g) => `${g.int(256)}.${g.int(256)}.${g.int(256)}.${g.int(256)}`,
  ipv6: (g) =>
    g.pick(["::1", "fe80::1", "2001:db8::ff00:42:8329", "::ffff:192.168.0.1", "1:2:3:4:5:6:7:8"]),
  uri: (g) =>
    g.pick([
      "https://example.com/a?b=1#c",
      "mailto:ann@example.com",
      "urn:isbn:0451450523",
      "file:///etc/hosts",
    ]),
  uuid: (g) => `${g.hex(8)}-${g.hex(4)}-${g.hex(4)}-${g.hex(4)}-${g.hex(12)}`,
};

const INVALID_FORMATS: { [format: string]: readonly string[] } = {
  date: ["2023-02-29", "2024-13-01", "2024-1-1", "today"],
  time: ["25:00:00Z", "10:00:00", "10:60:00Z"],
  "date-time": ["2024-01-01", "2024-01-01T10:00:00", "2024-02-30T10:00:00Z"],
  duration: ["P", "PT", "1D", "P1DT"],
  email: ["ann", "ann@", "@example.com", "ann@example"],
  hostname: ["-a.com", "a..b", "a_b.com", ""],
  ipv4: ["256.0.0.1", "1.2.3", "01.2.3.4"],
  ipv6: ["1::2::3", "12345::", "1:2:3"],
  uri: ["example.com", "/relative", "x:", "http://a b"],
  uuid: ["123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400"],
};

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** A string matching a regular expression of the common subset (classes, groups, quantifiers). */
function sample(source: string, g: Values): string {
  let i = 0;
  const alternation = (): string => {
    const options: (() => string)[] = [];
    let sequence: (() => string)[] = [];
    const flush = () => {
      const parts = sequence;
      options.push(() => parts.map((part) => part()).join(""));
      sequence = [];
    };
    while (i < source.length && source[i] !== ")") {
      if (source[i] === "|") {
        i++;
        flush();
        continue;
      }
      let atom = atomAt();
      const quantifier = /^(\?|\*|\+|\{(\d+)(,(\d*))?\})\??/.exec(source.slice(i));
      if (quantifier) {
        i += quantifier[0].length;
        const min =
          quantifier[1] === "?" || quantifier[1] === "*"
            ? 0
            : quantifier[1] === "+"
              ? 1
              : Number(quantifier[2]);
        const max =
          quantifier[1] === "?"
            ? 1
            : quantifier[3] === undefined && quantifier[2] !== undefined
              ? min
              : quantifier[4]
                ? Number(quantifier[4])
                : min + 3;
        const inner = atom;
        atom = () => {
          let out = "";
          for (let n = min + g.int(max - min + 1); n > 0; n--) out += inner();
          return out;
        };
      }
      sequence.push(atom);
    }
    flush();
    return g.pick(options)();
  };
  const escaped = (ch: string): string[] => {
    if (ch === "d") return [..."0123456789"];
    if (ch === "w") return [..."abcXYZ_019"];
    if (ch === "s") return [" "];
    return [ch];
  };
  const atomAt = (): (() => string) => {
    const ch = source[i++]!;
    if (ch === "^" || ch === "$") return () => "";
    if (ch === ".") return () => g.pick(CHARS.filter((c) => c !== "\n"));
    if (ch === "\\") {
      const set = escaped(source[i++]!);
      return () => g.pick(set);
    }
    if (ch === "(") {
      if (source.startsWith("?:", i)) i += 2;
      const start = i;
      let depth = 0;
      for (; i < source.length; i++) {
        if (source[i] === "\\") i++;
        else if (source[i] === "(") depth++;
        else if (source[i] === ")" && depth-- === 0) break;
      }
      const inner = source.slice(start, i++);
      return () => sample(inner, g);
    }
    if (ch === "[") {
      const set: string[] = [];
      while (source[i] !== "]") {
        let first = source[i++]!;
        if (first === "\\") {
          set.push(...escaped(source[i++]!));
          continue;
        }
        if (source[i] === "-" && source[i + 1] !== "]") {
          const last = source[i + 1]!;
          i += 2;
          for (let code = first.charCodeAt(0); code <= last.charCodeAt(0); code++)
            set.push(String.fromCharCode(code));
          continue;
        }
        set.push(first);
        first = "";
      }
      i++;
      return () => g.pick(set);
    }
    return () => ch;
  };
  return alternation();
}

/** Valid values of a tool's schema, and mutations of them. */
export class Values {
  constructor(
    readonly next: () => number,
    private readonly oracle: Oracle,
  ) {}

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  hex(n: number): string {
    let out = "";
    for (let i = 0; i < n; i++) out += "0123456789abcdef"[this.int(16)];
    return out;
  }

  text(min: number, max: number): string {
    let out = "";
    for (let n = min + this.int(max - min + 1); n > 0; n--) out += this.pick(CHARS);
    return out;
  }

  /** Any JSON value. */
  any(depth: number): unknown {
    const roll = this.int(depth > 2 ? 5 : 7);
    if (roll === 0) return null;
    if (roll === 1) return this.chance(0.5);
    if (roll === 2) return this.int(2000) - 1000;
    if (roll === 3) return this.int(1000) / 8;
    if (roll === 4) return this.pick(WORDS);
    if (roll === 5) return Array.from({ length: this.int(3) }, () => this.any(depth + 1));
    const object: Record<string, unknown> = {};
    for (let n = this.int(3); n > 0; n--) setKey(object, this.pick(WORDS), this.any(depth + 1));
    return object;
  }

  valid(schema: JsonValue | undefined, depth: number): unknown {
    if (!isSchema(schema)) return this.any(depth);
    if (typeof schema.$ref === "string") return this.valid(this.oracle.def(schema.$ref), depth + 1);
    if (Array.isArray(schema.anyOf)) {
      let branches = schema.anyOf;
      if (depth > 3) {
        const plain = branches.filter((branch) => !JSON.stringify(branch).includes("$ref"));
        if (plain.length > 0) branches = plain;
      }
      return this.valid(this.pick(branches), depth + 1);
    }
    if (schema.const !== undefined) return schema.const;
    if (Array.isArray(schema.enum)) return this.pick(schema.enum);
    const types =
      typeof schema.type === "string"
        ? [schema.type]
        : Array.isArray(schema.type)
          ? (schema.type as string[])
          : null;
    if (types === null) return this.any(depth);
    const type = this.pick(
      depth > 3 && types.some((t) => t !== "array" && t !== "object")
        ? types.filter((t) => t !== "array" && t !== "object")
        : types,
    );
    if (type === "null") return null;
    if (type === "boolean") return this.chance(0.5);
    if (type === "integer" || type === "number") return this.number(schema, type === "integer");
    if (type === "string") return this.string(schema);
    if (type === "array") return this.array(schema, depth);
    return this.object(schema, depth);
  }

  number(schema: Schema, integer: boolean): number {
    const low =
      typeof schema.minimum === "number"
        ? schema.minimum
        : typeof schema.exclusiveMinimum === "number"
          ? schema.exclusiveMinimum
          : -1000;
    const high =
      typeof schema.maximum === "number"
        ? schema.maximum
        : typeof schema.exclusiveMaximum === "number"
          ? schema.exclusiveMaximum
          : 1000;
    for (let attempt = 0; attempt < 50; attempt++) {
      let value: number;
      if (attempt === 0 && this.chance(0.3)) {
        // The edges: inclusive bounds are valid, exclusive ones are not (the check below retries).
        value = this.pick([low, high]);
      } else if (typeof schema.multipleOf === "number") {
        const m = schema.multipleOf;
        const k =
          Math.ceil(low / m) + this.int(Math.max(1, Math.floor(high / m) - Math.ceil(low / m) + 1));
        value = k * m;
      } else if (integer || this.chance(0.5)) {
        value = Math.ceil(low) + this.int(Math.max(1, Math.floor(high) - Math.ceil(low) + 1));
      } else {
        value = low + Math.round(this.next() * (high - low) * 100) / 100;
      }
      if (typeof schema.exclusiveMinimum === "number" && value <= schema.exclusiveMinimum) continue;
      if (typeof schema.exclusiveMaximum === "number" && value >= schema.exclusiveMaximum) continue;
      if (value < low || value > high || (integer && !Number.isInteger(value))) continue;
      return Object.is(value, -0) ? 0 : value;
    }
    return integer ? Math.ceil(low) : low;
  }

  string(schema: Schema): string {
    if (typeof schema.format === "string") {
      for (let attempt = 0; attempt < 20; attempt++) {
        const value = VALID_FORMATS[schema.format]!(this);
        if (typeof schema.minLength !== "number" || [...value].length >= schema.minLength)
          return value;
      }
    }
    const min = typeof schema.minLength === "number" ? schema.minLength : 0;
    const max = typeof schema.maxLength === "number" ? schema.maxLength : min + 10;
    for (let attempt = 0; attempt < 30; attempt++) {
      const value =
        typeof schema.pattern === "string"
          ? sample(schema.pattern, this)
          : this.chance(0.2)
            ? this.pick(WORDS)
            : this.text(min, max);
      const length = [...value].length;
      if (length >= min && length <= max) return value;
    }
    return this.text(min, max);
  }

  array(schema: Schema, depth: number): unknown[] {
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    const max =
      typeof schema.maxItems === "number"
        ? schema.maxItems
        : schema.items === false
          ? prefix.length
          : min + 4;
    const length = depth > 3 ? min : min + this.int(max - min + 1);
    const out: unknown[] = [];
    const seen = new Set<string>();
    for (let attempts = 0; out.length < length && attempts < length * 10; attempts++) {
      const index = out.length;
      const item = this.valid(index < prefix.length ? prefix[index] : schema.items, depth + 1);
      if (schema.uniqueItems === true) {
        const key = canonical(item);
        if (seen.has(key)) continue;
        seen.add(key);
      }
      out.push(item);
    }
    return out;
  }

  object(schema: Schema, depth: number): Record<string, unknown> {
    const properties = isSchema(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(properties)) {
      if (required.has(key) || (depth <= 3 && this.chance(0.6)))
        setKey(out, key, this.valid(properties[key], depth + 1));
    }
    const extra = schema.additionalProperties;
    if (isSchema(extra) && depth <= 3) {
      const names = isSchema(schema.propertyNames) ? schema.propertyNames : null;
      for (let n = this.int(3); n > 0; n--) {
        const key =
          names && typeof names.pattern === "string"
            ? sample(names.pattern, this)
            : this.pick(WORDS);
        if (!Object.prototype.hasOwnProperty.call(properties, key))
          setKey(out, key, this.valid(extra, depth + 1));
      }
    }
    return out;
  }

  /** A copy of `value` (valid for `schema`) with one change somewhere inside. */
  mutate(schema: JsonValue | undefined, value: unknown, depth: number): unknown {
    const resolved = this.resolve(schema, value);
    if (depth < 6 && this.chance(0.6)) {
      if (Array.isArray(value) && value.length > 0) {
        const index = this.int(value.length);
        const prefix =
          isSchema(resolved) && Array.isArray(resolved.prefixItems) ? resolved.prefixItems : [];
        const itemSchema =
          index < prefix.length ? prefix[index] : isSchema(resolved) ? resolved.items : undefined;
        const copy = value.slice();
        copy[index] = this.mutate(itemSchema, value[index], depth + 1);
        return copy;
      }
      if (isRecord(value) && Object.keys(value).length > 0) {
        const key = this.pick(Object.keys(value));
        const properties =
          isSchema(resolved) && isSchema(resolved.properties) ? resolved.properties : {};
        const sub = Object.prototype.hasOwnProperty.call(properties, key)
          ? properties[key]
          : isSchema(resolved)
            ? resolved.additionalProperties
            : undefined;
        const copy = clone(value) as Record<string, unknown>;
        setKey(copy, key, this.mutate(sub, value[key], depth + 1));
        return copy;
      }
    }
    return this.change(isSchema(resolved) ? resolved : {}, value);
  }

  /** The schema that applies to `value`: through `$ref`, and the `anyOf` branch it matches. */
  private resolve(schema: JsonValue | undefined, value: unknown): JsonValue | undefined {
    for (let i = 0; i < 10 && isSchema(schema); i++) {
      if (typeof schema.$ref === "string") schema = this.oracle.def(schema.$ref);
      else if (Array.isArray(schema.anyOf))
        schema =
          schema.anyOf.find((branch) => this.oracle.branch(branch as Schema)(value)) ??
          schema.anyOf[0];
      else break;
    }
    return schema;
  }

  private change(schema: Schema, value: unknown): unknown {
    const options: (() => unknown)[] = [
      () => this.pick([0, 1.5, -7, "x", "", true, false, null, [], {}, "1", "true", [1], { a: 1 }]),
    ];
    if (typeof value === "number") {
      options.push(
        () => String(value),
        () => String(value),
        () =>
          this.pick([
            `${value}.0`,
            `${value}e0`,
            `-${value}`,
            ` ${value}`,
            `${value} `,
            `+${value}`,
            `0${value}`,
            `${value}.`,
            "0x1A",
            "Infinity",
            "NaN",
            "1e400",
            "-0",
            "1.5",
            "1E2",
          ]),
        () => value + 0.5,
        () => -value - 1,
      );
    }
    if (typeof value === "boolean")
      options.push(
        () => String(value),
        () => String(value),
        () => this.pick(["TRUE", "yes", "1", "0", " true", 1]),
      );
    if (typeof value === "string") {
      options.push(
        () => this.pick(["123", "1.5", "true", "false", "null", ""]),
        () => `${value}${this.text(1, 6)}`,
        () => value.slice(1),
        () => this.pick(["😀", "😀😀", "😀😀😀😀", "é", "ab"]),
      );
      if (typeof schema.format === "string")
        options.push(() => this.pick(INVALID_FORMATS[schema.format as string] ?? ["?"]));
      if (typeof schema.pattern === "string") options.push(() => `!${value}`);
    }
    for (const keyword of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
      const limit = schema[keyword];
      if (typeof limit !== "number") continue;
      const edges = [
        limit,
        limit - 1,
        limit + 1,
        limit - 0.5,
        limit + 0.5,
        String(limit - 1),
        String(limit),
        String(limit + 1),
      ];
      for (let weight = 0; weight < 4; weight++) options.push(() => this.pick(edges));
    }
    if (typeof schema.multipleOf === "number" && typeof value === "number")
      options.push(() => value + (schema.multipleOf as number) / 2);
    const values = schema.enum;
    if (Array.isArray(values)) {
      options.push(() =>
        this.pick([
          "other",
          99,
          ...values.map((item: JsonValue) =>
            typeof item === "number" ? String(item) : `${item}x`,
          ),
        ]),
      );
    }
    if (Array.isArray(value)) {
      options.push(
        () => [...value, ...value],
        () => value.slice(0, -1),
        () => [],
        () => [...value, this.any(2)],
        () => (value.length > 0 ? [...value, clone(value[0])] : [null]),
        // Equal to an earlier item only once coerced.
        () =>
          value.length > 0 && (typeof value[0] === "number" || typeof value[0] === "boolean")
            ? [...value, String(value[0])]
            : [...value, "1", 1],
      );
    }
    if (isRecord(value)) {
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      options.push(
        () => {
          const copy = clone(value) as Record<string, unknown>;
          const key =
            required.length > 0 ? this.pick(required) : this.pick(Object.keys(copy).concat("none"));
          delete copy[key];
          return copy;
        },
        () => {
          const copy = clone(value) as Record<string, unknown>;
          setKey(
            copy,
            this.pick(["zzz", "extra", "a b", "constructor", "__proto__", "-1.5", "01"]),
            this.any(2),
          );
          return copy;
        },
      );
    }
    return this.pick(options)();
  }
}

export function clone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clone);
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setKey(out, key, clone(value[key]));
    return out;
  }
  return value;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isRecord(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "undefined";
}

// ---------------------------------------------------------------------------------------------
// The generated module, in a scratch folder
