/**
 * The lint's cycle check: no import cycle between the files of a package's `src/`, type-only
 * imports included (an `import type` loop is a loop in the structure too). Every relative import
 * and export-from of each `.ts` file under `packages/<name>/src` is read with TypeScript's
 * pre-processor (no type check, no program), resolved the way the packages' `nodenext` imports
 * are (`./x.js` is `./x.ts`, a folder's `./x/index.js` its index), and each strongly connected
 * component of two or more files, or a file that imports itself, is a cycle. Prints each with
 * its files and exits 1; silent with exit 0 when there is none.
 *
 *   node --import tsx tools/lint/cycles.ts [root]     (default: the repository)
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** Each file's relative imports within its package's `src/`, resolved to files. */
export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const packages = path.join(root, "packages");
  for (const name of readdirSync(packages)) {
    const src = path.join(packages, name, "src");
    if (!existsSync(src)) continue;
    for (const file of sources(src)) {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
      const targets = importedFiles
        .map((imported) => imported.fileName)
        .filter((specifier) => specifier.startsWith("."))
        .flatMap((specifier) => resolve(file, specifier) ?? []);
      graph.set(file, [...new Set(targets)]);
    }
  }
  return graph;
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

/** The `.ts` files under `dir` (declaration files and tests' folders aside: `src/` holds none). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The file a relative specifier names (`./x.js` → `./x.ts`, `./x` → `./x/index.ts`), if any. */
function resolve(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [
    base.replace(/\.js$/, ".ts"),
    `${base}.ts`,
    path.join(base.replace(/\.js$/, ""), "index.ts"),
  ];
  return candidates.find((candidate) => existsSync(candidate) && candidate.endsWith(".ts"));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(
    process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "../.."),
  );
  const found = cycles(importGraph(root));
  for (const [number, files] of found.entries())
    process.stderr.write(
      `import cycle ${number + 1} (${files.length} files):\n${files.map((file) => `  ${path.relative(root, file)}`).join("\n")}\n`,
    );
  if (found.length > 0) {
    process.stderr.write(
      `${found.length} import cycle(s) in packages/*/src: move the shared names to the module that owns them\n`,
    );
    process.exitCode = 1;
  }
}
