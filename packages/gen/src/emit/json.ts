/**
 * `JSON.stringify(value, null, 2)`, assembled from the texts of large parts seen before (by
 * object identity): in watch mode the tool definitions and artifact entries of unchanged tools
 * are the same objects, so the multi-megabyte JSON files are mostly concatenation.
 */
export class JsonTexts {
  private readonly texts = new WeakMap<object, Map<number, string>>();

  /** `value` as it appears `depth` levels deep in a pretty-printed document. */
  part(value: object, depth: number): string {
    let byDepth = this.texts.get(value);
    const known = byDepth?.get(depth);
    if (known !== undefined) return known;
    const text = indent(JSON.stringify(value, null, 2), depth);
    if (!byDepth) this.texts.set(value, (byDepth = new Map()));
    byDepth.set(depth, text);
    return text;
  }

  /** An object whose values are reusable parts, at `depth`. */
  object(entries: { readonly [key: string]: object }, depth = 0): string {
    const keys = Object.keys(entries);
    if (keys.length === 0) return "{}";
    const pad = "  ".repeat(depth + 1);
    return `{\n${keys.map((key) => `${pad}${JSON.stringify(key)}: ${this.part(entries[key]!, depth + 1)}`).join(",\n")}\n${"  ".repeat(depth)}}`;
  }

  /** An array of reusable parts, at `depth`. */
  array(items: readonly object[], depth = 0): string {
    if (items.length === 0) return "[]";
    const pad = "  ".repeat(depth + 1);
    return `[\n${items.map((item) => `${pad}${this.part(item, depth + 1)}`).join(",\n")}\n${"  ".repeat(depth)}]`;
  }
}

function indent(text: string, depth: number): string {
  return depth === 0 ? text : text.replaceAll("\n", `\n${"  ".repeat(depth)}`);
}
