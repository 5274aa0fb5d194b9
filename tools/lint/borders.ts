/**
 * The lint's border check, over imports.ts's graph:
 *
 * - Rooms (the table in rooms.ts): a file of a package's `src/` imports another room only if its
 *   own room lists it, reaches no file outside its package's `src/` by a relative path, and sits
 *   in a room at all. The table itself must name rooms that exist and form an order.
 * - Packages: a package's `src/` imports only the packages its package.json lists in
 *   `dependencies` or `peerDependencies` (or itself); its tests and examples may add its
 *   `devDependencies` and the workspace's.
 *
 * Prints each crossing with the rule it breaks and exits 1; silent with exit 0 when there is none.
 *
 *   node --import tsx tools/lint/borders.ts [root]     (default: the repository)
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { cycles } from "./cycles.ts";
import { packageName, resolve, sources, specifiers } from "./imports.ts";
import { ROOMS, type Rooms } from "./rooms.ts";

/** Every problem in the repository at `root`, as the lines the command prints. */
export function borders(root: string, rooms: { readonly [pkg: string]: Rooms } = ROOMS): string[] {
  const packages = path.join(root, "packages");
  return readdirSync(packages)
    .filter((name) => existsSync(path.join(packages, name, "package.json")))
    .flatMap((name) => [
      ...dependencyCrossings(root, name),
      ...(rooms[name] ? roomCrossings(root, name, rooms[name]) : []),
    ]);
}

/** Imports of packages that `name`'s package.json does not list where the importing file is. */
function dependencyCrossings(root: string, name: string): string[] {
  const dir = path.join(root, "packages", name);
  const manifest = readJson(path.join(dir, "package.json"));
  const workspace = readJson(path.join(root, "package.json"));
  const runtime = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const development = new Set([
    ...runtime,
    ...Object.keys(manifest.devDependencies ?? {}),
    ...Object.keys(workspace.devDependencies ?? {}),
  ]);
  return sources(dir).flatMap((file) => {
    const shipped = isInside(path.join(dir, "src"), file);
    const listed = shipped ? runtime : development;
    return specifiers(file)
      .filter((specifier) => {
        const imported = packageName(specifier);
        return imported !== undefined && !listed.has(imported);
      })
      .map((specifier) =>
        shipped
          ? `${repoPath(root, file)} imports ${specifier}: packages/${name}/package.json lists ${packageName(specifier)} in neither dependencies nor peerDependencies (devDependencies are for its tests)`
          : `${repoPath(root, file)} imports ${specifier}: neither packages/${name}/package.json nor the workspace's lists ${packageName(specifier)}`,
      );
  });
}

/** The room crossings of package `name`'s `src/`, and the problems of its table. */
function roomCrossings(root: string, name: string, rooms: Rooms): string[] {
  const src = path.join(root, "packages", name, "src");
  const files = sources(src);
  const local = (file: string) => path.relative(src, file).split(path.sep).join("/");
  const names = Object.keys(rooms);
  const roomOf = (file: string) =>
    names
      .filter((room) => (room.endsWith("/") ? file.startsWith(room) : file === room))
      .sort((a, b) => b.length - a.length)[0];
  const table = `the ${name} table of tools/lint/rooms.ts`;
  const problems: string[] = [];
  const problem = (message: string) => problems.push(message);

  // The table: every room and every listed import names files that exist, in an order.
  const exists = (entry: string) =>
    files.some((file) =>
      entry.endsWith("/") ? local(file).startsWith(entry) : local(file) === entry,
    );
  for (const [room, may] of Object.entries(rooms)) {
    if (!exists(room)) problem(`${table} names room ${room}, which packages/${name}/src has not`);
    for (const entry of may.filter((entry) => !exists(entry)))
      problem(`${table} lets ${room} import ${entry}, which packages/${name}/src has not`);
    for (const entry of may.filter((entry) => exists(entry) && !roomOf(entry)))
      problem(`${table} lets ${room} import ${entry}, which is in no room`);
  }
  const loops = cycles(
    new Map(names.map((room) => [room, rooms[room]!.flatMap((entry) => roomOf(entry) ?? [])])),
  );
  for (const loop of loops)
    problem(`${table} is not an order: ${loop.join(", ")} import each other`);

  // The files: each in a room, importing only the rooms it may.
  for (const file of files) {
    const room = roomOf(local(file));
    if (!room) {
      problem(`${repoPath(root, file)} is in no room: place it in ${table}`);
      continue;
    }
    const may = rooms[room]!;
    for (const specifier of specifiers(file).filter((specifier) => specifier.startsWith("."))) {
      const target = resolve(file, specifier);
      if (!target) continue;
      const from = repoPath(root, file);
      if (!isInside(src, target)) {
        problem(
          `${from} imports ${specifier}, outside packages/${name}/src: import another package by its name`,
        );
        continue;
      }
      const to = local(target);
      if (roomOf(to) === room) continue;
      if (may.some((entry) => (entry.endsWith("/") ? to.startsWith(entry) : to === entry)))
        continue;
      problem(
        `${from} imports ${specifier}: ${room} may import ${may.length > 0 ? `only ${may.join(", ")}` : "no other room"} (${table})`,
      );
    }
  }
  return problems;
}

function readJson(file: string): {
  name?: string;
  dependencies?: object;
  peerDependencies?: object;
  devDependencies?: object;
} {
  return JSON.parse(readFileSync(file, "utf8"));
}

function isInside(dir: string, file: string): boolean {
  return !path.relative(dir, file).startsWith("..");
}

function repoPath(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join("/");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(
    process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "../.."),
  );
  const problems = borders(root);
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  if (problems.length > 0) process.exitCode = 1;
}
