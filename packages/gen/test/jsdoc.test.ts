/**
 * JSDoc in schemas (issue 13, B4 and B5): tags and descriptions that reach a schema through
 * generic aliases, conditional types, `Exclude<>`/`Extract<>` and mapped-type keys; the
 * `@description`, `@title`, `@examples`, `@readOnly`/`@writeOnly` tags; constructor parameter
 * properties; inherited descriptions; Markdown lists; `@example` captions and values.
 *
 * One scratch project, one `zcp gen` run; each test reads the generated registry.
 */
import fs from "node:fs";
import path from "node:path";
import type { Registry } from "@zcp/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CliResult,
  generatedRegistry,
  runZcpAsync,
  scratchProject,
  STRICT_TSCONFIG,
} from "./helpers.js";

const ALIASES = `
/** A list with at least one item. @minItems 1 */
export type NonEmpty<T> = T[];

/** A lower-case slug. @pattern ^[a-z]+$ */
export type Slug = string;

/** A count of things. @minimum 0 */
export type Count = number;

export type SlugOrCount<T> = T extends "slug" ? Slug : Count;

/** Took \`T\`, not \`Slug\`, at \`string\`: nothing of \`Slug\` applies. */
export type OrSlug<T> = T extends string ? T : Slug;

/** One of the known colours. */
export type Colour = "red" | "green" | "blue";

/** A lower-case key. @pattern ^[a-z]+$ */
export type Key = string;
`;

const TOOLS = `
import type { Colour, Count, Key, NonEmpty, OrSlug, Slug, SlugOrCount } from "./aliases.js";

/**
 * Generic aliases and conditional types.
 * @tool b4.generic
 */
export function generic(
  tags: NonEmpty<string>,
  nested: { ids: NonEmpty<number> },
  slugs: NonEmpty<Slug>,
): string {
  return String(tags.length + nested.ids.length + slugs.length);
}

/**
 * Conditional types and Exclude/Extract.
 * @tool b4.conditional
 */
export function conditional(options: {
  slug: SlugOrCount<"slug">;
  count: SlugOrCount<"count">;
  warm: Exclude<Colour, "blue">;
  cold: Extract<Colour, "blue" | "green">;
  name: Exclude<Slug | Count, Count>;
  plain: OrSlug<string>;
}): string {
  return options.slug + options.count + options.warm + options.cold + options.name;
}

export interface Src {
  /** The slug. */
  slug: Slug | null;
  count?: Count;
  nested: { inner: Slug | null };
}

/**
 * Exclude, NonNullable and plain indexed access to a property typed with an alias.
 * @tool b4.indexed
 */
export function indexed(options: {
  excluded: Exclude<Src["slug"], null>;
  nonNull: NonNullable<Src["slug"]>;
  plain: Src["slug"];
  optional: Src["count"];
  deep: NonNullable<Src["nested"]["inner"]>;
}): string {
  return JSON.stringify(options);
}

/**
 * Mapped-type keys.
 * @tool b4.keys
 */
export function keys(byKey: Record<Key, number>, mapped: { [K in Key]: string }): string {
  return JSON.stringify([byKey, mapped]);
}

/**
 * Tags of a property.
 * @tool b5.tags
 */
export function tags(options: {
  /**
   * The body text.
   * @description The description tag.
   */
  described: string;
  /** @title Start date */
  start: string;
  /** @examples [1, 2] */
  listed: number;
  /**
   * @examples "a"
   * @examples "b"
   */
  each: string;
  /** @readOnly */
  id: string;
  /** @writeOnly */
  secret: string;
  /**
   * Choices:
   * - first
   * - second
   * 1. one
   * 2. two
   */
  listy: string;
  /** @example <caption>Big</caption> 5 */
  captioned: number;
  /**
   * @example
   * A small one
   * 1
   */
  lined: number;
  /** @example Paris */
  city: string;
  /** @example not json */
  size: number;
}): string {
  return JSON.stringify(options);
}

/**
 * The body of the tool.
 * @description The tool's description tag.
 * @param label The label.
 * @tool b5.toolDescription
 */
export function toolDescription(label: string, count: number): string {
  return label + count;
}

export class Point {
  /**
   * @param x The horizontal position.
   * @param y The vertical position.
   */
  constructor(
    public x: number,
    public y: number,
  ) {}
}

/**
 * Constructor parameter properties.
 * @tool b5.point
 */
export function point(at: Point, scale: number): string {
  return String(at.x * scale + at.y);
}

export interface Base {
  /** The base's name. */
  name: string;
  /** The base's kind. */
  kind: string;
}

export interface Derived extends Base {
  kind: "derived";
}

export interface Box<T> {
  /** The boxed value. */
  value: T;
}

export interface NumberBox extends Box<number> {
  value: number;
}

/**
 * Inherited descriptions.
 * @tool b5.inherited
 */
export function inherited(derived: Derived, box: NumberBox): string {
  return derived.name + box.value;
}
`;

let dir: string;
let gen: CliResult;
let registry: Registry;

beforeAll(async () => {
  dir = scratchProject({
    "zcp.config.json": "{}",
    "tsconfig.json": STRICT_TSCONFIG,
    "src/aliases.ts": ALIASES,
    "src/tools.ts": TOOLS,
  });
  gen = await runZcpAsync(dir, ["gen"]);
  registry = generatedRegistry(path.join(dir, "src/zcp.gen"));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The input schema of a tool's parameter `name`. */
function param(alias: string, name: string): Record<string, unknown> {
  const tool = registry.tools.find((t) => t.alias === alias);
  expect(tool, `tool ${alias}; stderr:\n${gen.stderr}`).toBeDefined();
  const properties = (tool!.inputSchema as { properties: Record<string, Record<string, unknown>> })
    .properties;
  return properties[name]!;
}

describe("B4: tags through generic aliases, conditional types and mapped keys", () => {
  it("applies a generic alias's tags and description to its instantiations", () => {
    expect(param("b4.generic", "tags")).toEqual({
      type: "array",
      description: "A list with at least one item.",
      items: { type: "string" },
      minItems: 1,
    });
    expect((param("b4.generic", "nested").properties as Record<string, unknown>).ids).toEqual({
      type: "array",
      description: "A list with at least one item.",
      items: { type: "number" },
      minItems: 1,
    });
    expect(param("b4.generic", "slugs")).toEqual({
      type: "array",
      description: "A list with at least one item.",
      items: { type: "string", description: "A lower-case slug.", pattern: "^[a-z]+$" },
      minItems: 1,
    });
  });

  it("follows a conditional type to the branch it takes", () => {
    expect(param("b4.conditional", "slug")).toEqual({
      type: "string",
      description: "A lower-case slug.",
      pattern: "^[a-z]+$",
    });
    expect(param("b4.conditional", "count")).toEqual({
      type: "number",
      description: "A count of things.",
      minimum: 0,
    });
    // Both branches are strings; the one taken is the type parameter, so not `Slug`'s pattern.
    expect(param("b4.conditional", "plain")).toEqual({
      type: "string",
      description: "Took `T`, not `Slug`, at `string`: nothing of `Slug` applies.",
    });
  });

  it("keeps the description and tags of the alias Exclude and Extract filter", () => {
    expect(param("b4.conditional", "warm")).toEqual({
      type: "string",
      description: "One of the known colours.",
      enum: ["green", "red"],
    });
    expect(param("b4.conditional", "cold")).toEqual({
      type: "string",
      description: "One of the known colours.",
      enum: ["blue", "green"],
    });
    expect(param("b4.conditional", "name")).toEqual({
      type: "string",
      description: "A lower-case slug.",
      pattern: "^[a-z]+$",
    });
  });

  it("follows an indexed access to the property's written type", () => {
    const slug = { type: "string", description: "A lower-case slug.", pattern: "^[a-z]+$" };
    const count = { type: "number", description: "A count of things.", minimum: 0 };
    expect(param("b4.indexed", "excluded")).toEqual(slug);
    expect(param("b4.indexed", "nonNull")).toEqual(slug);
    expect(param("b4.indexed", "plain")).toEqual({ ...slug, type: ["string", "null"] });
    expect(param("b4.indexed", "optional")).toEqual(count);
    expect(param("b4.indexed", "deep")).toEqual(slug);
  });

  it("turns @pattern on a mapped type's key alias into propertyNames", () => {
    expect(param("b4.keys", "byKey")).toEqual({
      type: "object",
      properties: {},
      required: [],
      additionalProperties: { type: "number" },
      propertyNames: { pattern: "^[a-z]+$" },
    });
    expect(param("b4.keys", "mapped")).toEqual({
      type: "object",
      properties: {},
      required: [],
      additionalProperties: { type: "string" },
      propertyNames: { pattern: "^[a-z]+$" },
    });
  });
});

describe("B5: JSDoc tags, parameter properties, inheritance, lists and examples", () => {
  it("takes @description over the body text", () => {
    expect(param("b5.tags", "described")).toEqual({
      type: "string",
      description: "The description tag.",
    });
    const tool = registry.tools.find((t) => t.alias === "b5.toolDescription");
    expect(tool?.description).toBe("The tool's description tag.");
    expect(param("b5.toolDescription", "label")).toEqual({
      type: "string",
      description: "The label.",
    });
  });

  it("maps @title, @examples, @readOnly and @writeOnly", () => {
    expect(param("b5.tags", "start")).toEqual({ type: "string", title: "Start date" });
    expect(param("b5.tags", "listed")).toEqual({ type: "number", examples: [1, 2] });
    expect(param("b5.tags", "each")).toEqual({ type: "string", examples: ["a", "b"] });
    expect(param("b5.tags", "id")).toEqual({ type: "string", readOnly: true });
    expect(param("b5.tags", "secret")).toEqual({ type: "string", writeOnly: true });
  });

  it("describes constructor parameter properties with their @param text", () => {
    expect(param("b5.point", "at").properties).toEqual({
      x: { type: "number", description: "The horizontal position." },
      y: { type: "number", description: "The vertical position." },
    });
  });

  it("keeps descriptions inherited from a base interface", () => {
    expect(param("b5.inherited", "derived").properties).toEqual({
      name: { type: "string", description: "The base's name." },
      kind: { type: "string", description: "The base's kind.", const: "derived" },
    });
    expect(param("b5.inherited", "box").properties).toEqual({
      value: { type: "number", description: "The boxed value." },
    });
  });

  it("keeps Markdown list lines on their own lines", () => {
    expect(param("b5.tags", "listy").description).toBe(
      "Choices:\n- first\n- second\n1. one\n2. two",
    );
  });

  it("drops @example captions and non-JSON examples of non-strings", () => {
    expect(param("b5.tags", "captioned")).toEqual({ type: "number", examples: [5] });
    expect(param("b5.tags", "lined")).toEqual({ type: "number", examples: [1] });
    expect(param("b5.tags", "city")).toEqual({ type: "string", examples: ["Paris"] });
    expect(param("b5.tags", "size")).toEqual({ type: "number" });
    expect(gen.stderr).toMatch(
      /tools\.ts:\d+:\d+ - warning ZCP1301: @example: "not json" is not a JSON value/,
    );
    expect(gen.status, gen.stderr).toBe(0);
  });
});
