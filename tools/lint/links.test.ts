/**
 * The lint's link check (links.ts) on small trees written for the test, and on the repository:
 * which links it finds broken (a missing file, a missing heading), which it leaves alone (code,
 * absolute URLs, folders), and that the repository's READMEs and docs/ have none.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { brokenLinks, documents } from "./links.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A repository of `files`, and the broken links the check finds in it. */
function check(files: { readonly [file: string]: string }): string[] {
  const root = mkdtempSync(path.join(os.tmpdir(), "zcp-links-"));
  made.push(root);
  for (const [file, text] of Object.entries(files)) {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  return brokenLinks(root).map((link) => `${link.file}:${link.line}: ${link.target}`);
}

describe("brokenLinks", () => {
  it("finds a link to a missing file and to a missing heading", () => {
    expect(
      check({
        "README.md": "# zcp\n\n[docs](docs/README.md) and [gone](docs/gone.md)\n",
        "docs/README.md": "# Docs\n\n[a](a.md#two-eras) [b](a.md#no-such) [up](../README.md#zcp)\n",
        "docs/a.md": "# A\n\n## Two `eras`\n",
      }),
    ).toEqual(["README.md:3: docs/gone.md", "docs/README.md:3: a.md#no-such"]);
  });

  it("reads the packages' READMEs, and anchors within the same file", () => {
    expect(
      check({
        "README.md": "# zcp\n",
        "packages/gen/README.md": "# gen\n\n## Why: this?\n\n[why](#why-this) [not](#why)\n",
      }),
    ).toEqual(["packages/gen/README.md:5: #why"]);
  });

  it("leaves code, absolute URLs and folders alone, and numbers repeated headings", () => {
    expect(
      check({
        "README.md": [
          "# zcp",
          "## Tests",
          "## Tests",
          "[web](https://example.com/x) [mail](mailto:a@b.c) [dir](packages) [second](#tests-1)",
          "`[inline](nowhere.md)`",
          "```md",
          "[fenced](nowhere.md)",
          "```",
          "",
        ].join("\n"),
        "packages/.keep": "",
      }),
    ).toEqual([]);
  });

  it("finds no broken link in the repository", () => {
    expect(documents(ROOT)).toContain("docs/README.md");
    expect(brokenLinks(ROOT)).toEqual([]);
  });
});
