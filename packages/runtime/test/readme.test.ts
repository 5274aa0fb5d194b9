/**
 * The runtime's reference in docs/ documents every export of its entry points: a name added to
 * an entry point (`src/index.ts`, `src/codegen/index.ts`, `src/definition/index.ts`, `src/wire/index.ts`) without a word in those pages fails here.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";

/** The pages that were the runtime's README: its API, sessions, code mode and encodings. */
const README = ["runtime.md", "sessions.md", "code-mode.md", "text-formats.md"]
  .map((page) => fs.readFileSync(new URL(`../../../docs/${page}`, import.meta.url), "utf8"))
  .join("\n");

/** The names an entry file exports (values and types), read from its export lists. */
function exportedNames(entry: string): string[] {
  const source = fs.readFileSync(new URL(`../src/${entry}`, import.meta.url), "utf8");
  const lists = [...source.matchAll(/export (?:type )?\{([^}]*)\}/g)].map((match) => match[1]!);
  return lists
    .flatMap((list) => list.split(",").map((name) => name.trim().replace(/^type /, "")))
    .filter(Boolean);
}

describe("docs/", () => {
  it.each(["index.ts", "codegen/index.ts", "definition/index.ts", "wire/index.ts"])(
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
