/**
 * The lint's cycle check: no import cycle between the files of a package's `src/` or of the
 * tools under `tools/`, type-only imports included (an `import type` loop is a loop in the
 * structure too). The graph is imports.ts's: every relative import and export-from of each `.ts`
 * file, resolved to a file; each strongly connected component of two or more files, or a file
 * that imports itself, is a cycle. Prints each with its files and exits 1; silent with exit 0
 * when there is none.
 *
 *   node --import tsx tools/lint/cycles.ts [root]     (default: the repository)
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { resolve, sources, specifiers } from "./imports.ts";

/** Where the check looks: each package's `src/`, or everything under `tools/`. */
type Scope = "packages" | "tools";

/** Each file's relative imports, resolved to files, in the given scopes of the repository. */
export function importGraph(
  root: string,
  scopes: readonly Scope[] = ["packages"],
): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const dir of scopes.flatMap((scope) => folders(root, scope))) {
    for (const file of sources(dir)) {
      const targets = specifiers(file)
        .filter((specifier) => specifier.startsWith("."))
        .flatMap((specifier) => resolve(file, specifier) ?? []);
      graph.set(file, [...new Set(targets)]);
    }
  }
  return graph;
}

/** The folders a scope covers. */
function folders(root: string, scope: Scope): string[] {
  if (scope === "tools")
    return existsSync(path.join(root, "tools")) ? [path.join(root, "tools")] : [];
  const packages = path.join(root, "packages");
  if (!existsSync(packages)) return [];
  return readdirSync(packages)
    .map((name) => path.join(packages, name, "src"))
    .filter((src) => existsSync(src));
}

/** The cycles of a graph: its strongly connected components of two or more files, and self-loops. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative: a deep import chain must not overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const target = edges[frame.edge++]!;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target))
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      const selfLoop = component.length === 1 && edges.includes(frame.node);
      if (component.length > 1 || selfLoop) found.push(component.sort());
    }
  }
  return found.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

/** What the check reports for a repository: each cycle, as lines of repository-relative paths. */
export function report(root: string): string[] {
  return cycles(importGraph(root, ["packages", "tools"])).map(
    (files) =>
      `import cycle (${files.length} files): move the shared names to the module that owns them\n${files.map((file) => `  ${path.relative(root, file).split(path.sep).join("/")}`).join("\n")}`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(
    process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "../.."),
  );
  const problems = report(root);
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  if (problems.length > 0) process.exitCode = 1;
}
