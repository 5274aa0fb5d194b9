/**
 * emit: `JSON.stringify(value, null, 2)`, assembled from the texts of its large parts (the
 * artifact entries of `artifacts/*.json`), each printed by `part`: in watch mode the pipeline's
 * memo hands in a `part` that remembers the texts of the objects it has seen (by identity), so
 * that the multi-megabyte JSON files of unchanged tools are mostly concatenation.
 */

/** The text of `value` as it appears `depth` levels deep in a pretty-printed document. */
export type JsonPart = (value: object, depth: number) => string;

export const jsonPart: JsonPart = (value, depth) => indent(JSON.stringify(value, null, 2), depth);

/** An object whose values are parts, at `depth`. */
export function jsonObject(
  entries: { readonly [key: string]: object },
  part: JsonPart,
  depth = 0,
): string {
  const keys = Object.keys(entries);
  if (keys.length === 0) return "{}";
  const pad = "  ".repeat(depth + 1);
  return `{\n${keys.map((key) => `${pad}${JSON.stringify(key)}: ${part(entries[key]!, depth + 1)}`).join(",\n")}\n${"  ".repeat(depth)}}`;
}

function indent(text: string, depth: number): string {
  return depth === 0 ? text : text.replaceAll("\n", `\n${"  ".repeat(depth)}`);
}
