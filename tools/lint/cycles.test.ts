/**
 * The lint's cycle check (cycles.ts) on small trees written for the test, and on the repository:
 * which loops it finds (type-only imports and re-exports included), which it does not (imports
 * across packages, modules that are not files), that it covers tools/ as well as packages/, and
 * that the repository has none.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cycles, importGraph, report } from "./cycles.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A repository of `files` (paths from its root). */
function repository(files: { readonly [file: string]: string }): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "zcp-cycles-"));
  made.push(root);
  for (const [file, text] of Object.entries(files)) {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  return root;
}

/** The cycles the check finds in a repository of `files` (paths under `packages/`). */
function check(files: { readonly [file: string]: string }): string[][] {
  const root = repository(
    Object.fromEntries(Object.entries(files).map(([file, text]) => [`packages/${file}`, text])),
  );
  return cycles(importGraph(root)).map((cycle) =>
    cycle.map((file) => path.relative(path.join(root, "packages"), file)),
  );
}

describe("the cycle check", () => {
  it("finds a loop of type-only imports, re-exports and folder indexes, each once", () => {
    expect(
      check({
        "a/src/one.ts": 'import type { Two } from "./two.js";\nexport type One = Two;\n',
        "a/src/two.ts": 'export { three } from "./deep/index.js";\nexport type Two = 2;\n',
        "a/src/deep/index.ts": 'import "../one.js";\nexport const three = 3;\n',
        "a/src/alone.ts": 'import { three } from "./deep/index.js";\nexport const x = three;\n',
        "a/src/self.ts": 'import "./self.js";\n',
      }),
    ).toEqual([["a/src/deep/index.ts", "a/src/one.ts", "a/src/two.ts"], ["a/src/self.ts"]]);
  });

  it("finds none across packages, in packages and modules that are not files, or in tests", () => {
    expect(
      check({
        "a/src/x.ts": 'import { y } from "@zcp/b";\nimport "node:fs";\nexport const x = y;\n',
        "b/src/y.ts": 'import { x } from "@zcp/a";\nexport const y = x;\n',
        "a/test/t.ts": 'import "./u.js";\n',
        "a/test/u.ts": 'import "./t.js";\n',
      }),
    ).toEqual([]);
  });

  it("reports a new cycle in tools/, not one in installed or generated files, and fails on it", () => {
    const root = repository({
      "tools/bench/run.ts": 'import "./report.js";\n',
      "tools/bench/report.ts": 'import "./run.js";\n',
      "tools/bench/alone.ts": 'import "./report.js";\n',
      "tools/lint/node_modules/x/a.ts": 'import "./b.js";\n',
      "tools/lint/node_modules/x/b.ts": 'import "./a.js";\n',
      "tools/conformance/src/zcp.gen/a.ts": 'import "./a.js";\n',
    });
    expect(report(root)).toEqual([
      "import cycle (2 files): move the shared names to the module that owns them\n  tools/bench/report.ts\n  tools/bench/run.ts",
    ]);
  });

  it("finds none in packages/", () => {
    expect(cycles(importGraph(ROOT))).toEqual([]);
  });

  it("finds none in packages/ or tools/", () => {
    expect(report(ROOT)).toEqual([]);
  });
});
