/**
 * The texts the token estimate (`estimateTokens` of @zcp/runtime) is measured on, by kind:
 * JSON results (tool listings of real servers, compact and indented, one tool at a time and
 * whole; the token benchmark's recorded transcripts), prose (the repository's docs) and code
 * (the runtime's sources), each cut into pieces of about `PIECE` characters at line breaks, so
 * that the ratio is seen per result-sized piece and not only on average.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");
const PIECE = 4000;

export interface Sample {
  readonly kind: "json" | "prose" | "code";
  readonly source: string;
  readonly text: string;
}

/** Every sample, in a stable order. */
export function samples(): Sample[] {
  const out: Sample[] = [];
  const corpus = join(ROOT, "fixtures", "corpus");
  for (const file of [
    "github-mcp-server-tools.json",
    "livemcptool-tools.json",
    "bfcl-v4-live-simple.json",
  ]) {
    const items = jsonItems(readFileSync(join(corpus, file), "utf8"));
    // Each item alone is a small result; a run of them compact, and indented, a large one.
    for (const item of items.slice(0, 200))
      out.push({ kind: "json", source: file, text: JSON.stringify(item) });
    out.push(...pieces("json", file, JSON.stringify(items.slice(0, 60), null, 2)));
    out.push(...pieces("json", file, JSON.stringify(items.slice(0, 60))));
  }
  const report = readFileSync(join(ROOT, "tools", "bench-tokens", "report.json"), "utf8");
  out.push(...pieces("json", "bench-tokens/report.json", report.slice(0, 200_000)));
  for (const file of files(join(ROOT, "docs"), ".md"))
    out.push(...pieces("prose", file, readFileSync(file, "utf8")));
  for (const file of files(join(ROOT, "packages", "runtime", "src"), ".ts"))
    out.push(...pieces("code", file, readFileSync(file, "utf8")));
  return out;
}

/** The items of a JSON array or object, or of JSON lines. */
function jsonItems(text: string): unknown[] {
  if (!text.startsWith("[") && !text.startsWith("{\n"))
    return text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown);
  const value = JSON.parse(text) as unknown;
  return Array.isArray(value) ? value : Object.values(value as object);
}

function files(folder: string, ext: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(ext))
    .sort()
    .map((name) => join(folder, name));
}

/** `text` in pieces of about `PIECE` characters, cut after a line break. */
function pieces(kind: Sample["kind"], source: string, text: string): Sample[] {
  const out: Sample[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + PIECE);
    const newline = text.lastIndexOf("\n", end);
    if (end < text.length && newline > start) end = newline + 1;
    out.push({ kind, source, text: text.slice(start, end) });
    start = end;
  }
  return out;
}
