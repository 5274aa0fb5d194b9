/**
 * The README documents every export of its entry points: a name added to `src/index.ts` or
 * `src/codegen/index.ts` or `src/definition/index.ts` without a word in the README fails here.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";

const README = fs.readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** The names an entry file exports (values and types), read from its export lists. */
function exportedNames(entry: string): string[] {
  const source = fs.readFileSync(new URL(`../src/${entry}`, import.meta.url), "utf8");
  const lists = [...source.matchAll(/export (?:type )?\{([^}]*)\}/g)].map((match) => match[1]!);
  return lists
    .flatMap((list) => list.split(",").map((name) => name.trim().replace(/^type /, "")))
    .filter(Boolean);
}

describe("README", () => {
  it.each(["index.ts", "codegen/index.ts", "definition/index.ts"])(
    "names every export of src/%s",
    (entry) => {
      const names = exportedNames(entry);
      expect(names.length).toBeGreaterThan(10);
      expect(
        names.filter(
          (name) => !README.includes(`\`${name}\``) && !new RegExp(`\\b${name}\\b`).test(README),
        ),
      ).toEqual([]);
    },
  );
});
