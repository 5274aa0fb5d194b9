/**
 * What the provider compilers share: reading schema nodes, and moving keywords a provider does
 * not accept into the description, so that the model still learns the constraint.
 */

export type Node = { [keyword: string]: unknown };

/** A provider could not express a tool: the reason, with a `$`-path into its parameters. */
export class Inexpressible extends Error {}

/**
 * Appends `{key: value, ...}` for the moved keywords to the description, as the Anthropic SDK
 * does for its strict mode: the model reads the constraint even where the provider drops it.
 */
export function describeMoved(node: Node, moved: readonly (readonly [string, unknown])[]): Node {
  if (moved.length === 0) return node;
  const note = `{${moved.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(", ")}}`;
  const description =
    typeof node.description === "string" && node.description
      ? `${node.description}\n\n${note}`
      : note;
  return { ...node, description };
}

export function asNode(schema: unknown): Node {
  return (schema ?? {}) as Node;
}

/** Types a node allows, from `type` (string or list). */
export function typesOf(node: Node): string[] {
  return typeof node.type === "string"
    ? [node.type]
    : Array.isArray(node.type)
      ? (node.type as string[])
      : [];
}

/**
 * `allOf` (an intersection of arrays) for providers without it: its first member, the others
 * in the description. The generated validator still checks every member.
 */
export function firstOfAllOf(node: Node, render: (item: Node) => string): Node {
  const [first, ...rest] = (node.allOf as unknown[]).map(asNode);
  const { allOf: _allOf, ...others } = node;
  return describeMoved({ ...first, ...others }, [["allOf", rest.map(render).join(" & ")]]);
}

/**
 * `patternProperties` (numeric keys beside named ones) for providers without it: their values'
 * schema as `additionalProperties`, the key patterns in the description.
 */
export function patternsAsAdditional(node: Node, render: (item: Node) => string): Node {
  const patterns = Object.entries(node.patternProperties as Node).map(
    ([source, schema]) => [source, asNode(schema)] as const,
  );
  const { patternProperties: _patterns, ...others } = node;
  const values = patterns.map(([, schema]) => schema);
  if (node.additionalProperties && typeof node.additionalProperties === "object")
    values.push(asNode(node.additionalProperties));
  return describeMoved(
    { ...others, additionalProperties: values.length === 1 ? values[0] : { anyOf: values } },
    [["patternProperties", Object.fromEntries(patterns.map(([k, v]) => [k, render(v)]))]],
  );
}

/**
 * A tuple (`prefixItems`) as a plain array: providers without tuples get the item types as an
 * `anyOf` (or the one type they share), the length bounds, and the positions in the description.
 */
export function tupleAsArray(node: Node, render: (item: Node) => string): Node {
  const prefix = (node.prefixItems as Node[]).map(asNode);
  const rest = node.items && typeof node.items === "object" ? [asNode(node.items)] : [];
  const distinct: Node[] = [];
  for (const item of [...prefix, ...rest])
    if (!distinct.some((seen) => JSON.stringify(seen) === JSON.stringify(item)))
      distinct.push(item);
  const { prefixItems: _prefix, items: _items, ...others } = node;
  const positions = `[${prefix.map(render).join(", ")}${rest.length ? `, ...${render(rest[0]!)}` : ""}]`;
  return describeMoved(
    { ...others, items: distinct.length === 1 ? distinct[0] : { anyOf: distinct } },
    [["tuple", positions]],
  );
}
