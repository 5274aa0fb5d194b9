/**
 * The lint's link check: every relative link in the root README, the packages' READMEs and
 * `docs/` points at a file or folder that exists, and a `#fragment` into a markdown file at one
 * of its headings (GitHub's anchors: lower case, punctuation dropped, spaces to hyphens, `-1`
 * `-2` for repeats). Links inside fenced code blocks and inline code are not links. Prints each
 * broken one as `file:line: target` and exits 1; silent with exit 0 when there is none.
 *
 *   node --import tsx tools/lint/links.ts [root]     (default: the repository)
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

export interface BrokenLink {
  file: string;
  line: number;
  target: string;
}

/** The markdown files the check reads, relative to `root`. */
export function documents(root: string): string[] {
  const files = ["README.md"];
  const packages = path.join(root, "packages");
  if (existsSync(packages))
    for (const name of readdirSync(packages).sort())
      if (existsSync(path.join(packages, name, "README.md")))
        files.push(`packages/${name}/README.md`);
  const docs = path.join(root, "docs");
  if (existsSync(docs))
    for (const entry of readdirSync(docs, { recursive: true, encoding: "utf8" }).sort())
      if (entry.endsWith(".md")) files.push(`docs/${entry.split(path.sep).join("/")}`);
  return files.filter((file) => existsSync(path.join(root, file)));
}

/** Each line's text outside fenced code blocks and inline code (code lines become empty). */
function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split("\n").map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line.replace(/`[^`]*`/g, "");
  });
}

/** The anchors GitHub gives a markdown file's headings. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of proseLines(markdown.replace(/`([^`]*)`/g, "$1"))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

/** The relative links of the documents under `root` whose file or heading does not exist. */
export function brokenLinks(root: string): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const file of documents(root)) {
    const lines = proseLines(readFileSync(path.join(root, file), "utf8"));
    for (const [index, line] of lines.entries()) {
      for (const match of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = match[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: and the like
        const [pathPart, fragment] = target.split("#", 2) as [string, string | undefined];
        const resolved = pathPart
          ? path.resolve(root, path.dirname(file), pathPart)
          : path.join(root, file);
        const ok =
          existsSync(resolved) &&
          (fragment === undefined ||
            !resolved.endsWith(".md") ||
            anchors(readFileSync(resolved, "utf8")).has(fragment));
        if (!ok) broken.push({ file, line: index + 1, target });
      }
    }
  }
  return broken;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(
    process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "../.."),
  );
  const broken = brokenLinks(root);
  for (const link of broken) process.stderr.write(`${link.file}:${link.line}: ${link.target}\n`);
  if (broken.length > 0) {
    process.stderr.write(`${broken.length} broken relative link(s)\n`);
    process.exitCode = 1;
  }
}
