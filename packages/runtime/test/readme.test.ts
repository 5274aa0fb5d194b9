/**
 * The runtime's reference in docs/ documents every export of its entry points: a name added to
 * an entry point of `@zcp/runtime` without a word in those pages fails here. The names are the
 * entries' reviewed lists (`tools/lint/api/runtime*.txt`), which the lint keeps equal to what
 * each entry exports, values and types alike.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";

/** The pages that were the runtime's README: its API, sessions, code mode and encodings. */
const README = ["runtime.md", "sessions.md", "code-mode.md", "text-formats.md"]
  .map((page) => fs.readFileSync(new URL(`../../../docs/${page}`, import.meta.url), "utf8"))
  .join("\n");

/** The names an entry exports, from its reviewed list (`<name> <kind>` lines after a comment). */
function exportedNames(list: string): string[] {
  return fs
    .readFileSync(new URL(`../../../tools/lint/api/${list}.txt`, import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => line.split(" ")[0]!);
}

describe("docs/", () => {
  it.each([
    ["runtime", 10],
    ["runtime.codegen", 10],
    ["runtime.codegen.symbols", 2],
    ["runtime.definition", 10],
    ["runtime.wire", 10],
  ] as const)("names every export of the entry listed in %s.txt", (list, least) => {
    const names = exportedNames(list);
    expect(names.length).toBeGreaterThan(least);
    expect(
      names.filter(
        (name) => !README.includes(`\`${name}\``) && !new RegExp(`\\b${name}\\b`).test(README),
      ),
    ).toEqual([]);
  });
});
