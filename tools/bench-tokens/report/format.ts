/** How the report writes numbers and markdown tables. */
export const int = (n: number) => Math.round(n).toLocaleString("en-US");
export const x = (n: number) => `${n.toFixed(2)}x`;
export const one = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
export const row = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
/** A markdown table's header: each column's title, and whether it is a figure (right-aligned). */
export const head = (columns: readonly (readonly [string, boolean])[]) =>
  [
    row(columns.map(([title]) => title)),
    row(columns.map(([, figure]) => (figure ? "---:" : "---"))),
  ].join("\n");
export const percent = (n: number) => `${Math.round(n * 100)}%`;
export const list = (items: readonly string[]) => (items.length === 0 ? "none" : items.join(", "));
export const ms = (n: number) => `${n.toFixed(2)} ms`;
