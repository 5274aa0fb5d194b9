/**
 * The lint's check of each package entry's names (api.ts) on a small workspace written for the
 * test, and on this one: `--update` writes the lists, an unchanged tree passes, an added, removed
 * or retyped name fails with the difference and the command to update, an entry without a list
 * or a list without an entry fails, and the repository's lists are up to date.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { check, update } from "./api.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const UPDATE =
  "a package's names changed: review the change, then run node --import tsx tools/lint/api.ts --update and commit the lists";

/** Writes `files` (paths from the root) into `root`, or into a new workspace. */
function write(
  files: { readonly [file: string]: string },
  root = mkdtempSync(path.join(os.tmpdir(), "zcp-api-")),
): string {
  if (!made.includes(root)) made.push(root);
  for (const [file, text] of Object.entries(files)) {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  return root;
}

/** Package `a` with a root entry and `./wire`, the root re-exporting package `b`'s entry. */
const WORKSPACE = {
  "packages/a/package.json": JSON.stringify({
    name: "@zcp/a",
    exports: {
      ".": { types: "./dist/index.d.ts", default: "./dist/index.js" },
      "./wire": { types: "./dist/wire/index.d.ts", default: "./dist/wire/index.js" },
      "./package.json": "./package.json",
    },
  }),
  "packages/a/src/index.ts": [
    'export * from "./parts.js";',
    'export type { Frame } from "./wire/index.js";',
    'export { b as fromB } from "@zcp/b";',
    "export enum Mode { On }",
    "",
  ].join("\n"),
  "packages/a/src/parts.ts": [
    'import { external } from "elsewhere";',
    'import { helper as help } from "./helper.js";',
    "export function run(): void {}",
    "export const LIMIT = 1;",
    "export class Part {}",
    "export interface Options {}",
    "export type Name = string;",
    "export { external, help };",
    "",
  ].join("\n"),
  "packages/a/src/helper.ts": "export function helper(): void {}\n",
  "packages/a/src/wire/index.ts": "export class Frame {}\n",
  "packages/b/package.json": JSON.stringify({
    name: "@zcp/b",
    exports: { ".": { types: "./dist/index.d.ts" } },
  }),
  "packages/b/src/index.ts": "export let b = 2;\n",
};

describe("the entries' names", () => {
  it("writes each entry's names with their kinds, sorted, and passes the tree it read", () => {
    const root = write(WORKSPACE);
    update(root);
    expect(readFileSync(path.join(root, "tools/lint/api/a.txt"), "utf8")).toBe(
      [
        "# @zcp/a: reviewed exported names (node --import tsx tools/lint/api.ts --update)",
        "Frame class type-only",
        "LIMIT const",
        "Mode enum",
        "Name type",
        "Options interface",
        "Part class",
        "external unresolved",
        "fromB let",
        "help function",
        "run function",
        "",
      ].join("\n"),
    );
    expect(readFileSync(path.join(root, "tools/lint/api/a.wire.txt"), "utf8")).toContain(
      "\nFrame class\n",
    );
    expect(check(root)).toEqual([]);
  });

  it("fails on an added, a removed and a retyped name, with the command that updates the lists", () => {
    const root = write(WORKSPACE);
    update(root);
    write(
      {
        "packages/a/src/parts.ts": [
          'import { external } from "elsewhere";',
          'import { helper as help } from "./helper.js";',
          "export function run(): void {}",
          "export function added(): void {}",
          "export class Part {}",
          "export interface Options {}",
          "export type Name = number | string;",
          "export type LIMIT = 1;",
          "export { external, help };",
          "",
        ].join("\n"),
      },
      root,
    );
    expect(check(root)).toEqual([
      "@zcp/a exports names tools/lint/api/a.txt does not list:\n  + LIMIT type\n  + added function\n  - LIMIT const",
      UPDATE,
    ]);
  });

  it("fails on an entry without a list and a list without an entry, which --update fixes", () => {
    const root = write(WORKSPACE);
    update(root);
    write(
      {
        "tools/lint/api/a.gone.txt": "# @zcp/a/gone\nx const\n",
        "packages/b/package.json": JSON.stringify({
          name: "@zcp/b",
          exports: {
            ".": { types: "./dist/index.d.ts" },
            "./more/deep": { types: "./dist/more/deep.d.ts" },
          },
        }),
        "packages/b/src/more/deep.ts": "export const deep = 1;\n",
      },
      root,
    );
    expect(check(root)).toEqual([
      "@zcp/b/more/deep has no reviewed list tools/lint/api/b.more.deep.txt",
      "tools/lint/api/a.gone.txt lists an entry that no package.json exports",
      UPDATE,
    ]);
    update(root);
    expect(check(root)).toEqual([]);
  });

  it("finds the repository's lists up to date", () => {
    expect(check(ROOT)).toEqual([]);
  });
});
