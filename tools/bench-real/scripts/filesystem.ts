/**
 * The filesystem server's task: find your way around a small project in a temporary folder,
 * fix a bug in one file, write a changelog and file it. `seedProject` writes the folder afresh
 * before every run, so every server answers the same calls on the same files.
 */
import fs from "node:fs";
import path from "node:path";
import type { Script } from "../script.ts";

const FILES: Readonly<Record<string, string>> = {
  "README.md":
    "# invoice-kit\n\nSmall helpers to total invoices and format amounts.\n\n## Usage\n\n```ts\nimport { total } from './src/util';\ntotal([{ amount: 120, vat: 0.2 }]);\n```\n\nRun `npm test` before sending a pull request.\n",
  "package.json":
    '{\n  "name": "invoice-kit",\n  "version": "1.4.0",\n  "type": "module",\n  "scripts": { "test": "node --test" }\n}\n',
  "src/index.ts":
    'export { total, formatAmount } from "./util.js";\nexport type { Line } from "./util.js";\n',
  "src/util.ts":
    'export interface Line {\n  amount: number;\n  vat: number;\n}\n\n/** The total of the lines, VAT included. */\nexport function total(lines: Line[]): number {\n  let sum = 0;\n  for (const line of lines) {\n    sum += line.amount * line.vat;\n  }\n  return sum;\n}\n\n/** An amount with two decimals and its currency. */\nexport function formatAmount(value: number, currency = "EUR"): string {\n  return `${value.toFixed(2)} ${currency}`;\n}\n',
  "src/util.test.ts":
    'import { test } from "node:test";\nimport assert from "node:assert";\nimport { total } from "./util.js";\n\ntest("total adds VAT", () => {\n  assert.equal(total([{ amount: 100, vat: 0.2 }]), 120);\n});\n',
  "docs/guide.md":
    "# Guide\n\nA line has an amount before VAT and a VAT rate (0.2 for 20%).\n`total` returns the sum of the lines with VAT.\n`formatAmount` writes an amount with two decimals and a currency code.\n",
  "node_modules/.keep": "",
};

/** Writes the project afresh into `root` (emptied first). */
export function seedProject(root: string): void {
  fs.rmSync(root, { recursive: true, force: true });
  for (const [file, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
}

export function filesystemScript(root: string): Script {
  const at = (file: string) => path.join(root, file);
  return {
    server: "filesystem",
    task: `The invoice totals in ${root} are wrong. Find the bug, fix it, and note the fix in a changelog at the project's root.`,
    steps: [
      { tool: "list_allowed_directories", args: {} },
      {
        tool: "directory_tree",
        args: { path: root, excludePatterns: ["node_modules"] },
        needs: "all",
      },
      { tool: "search_files", args: { path: root, pattern: "**/*.ts" }, needs: "all" },
      // Chosen from the tree and the search the agent read.
      { tool: "read_text_file", args: { path: at("src/util.ts") }, needs: "all", decision: true },
      {
        tool: "read_multiple_files",
        args: { paths: [at("docs/guide.md"), at("src/util.test.ts")] },
        needs: "all",
      },
      {
        // The fix comes from the code the agent read.
        decision: true,
        tool: "edit_file",
        args: {
          path: at("src/util.ts"),
          edits: [
            {
              oldText: "sum += line.amount * line.vat;",
              newText: "sum += line.amount * (1 + line.vat);",
            },
          ],
        },
        needs: "all",
      },
      { tool: "read_text_file", args: { path: at("README.md"), head: 3 }, needs: "all" },
      {
        // The changelog follows the README the agent read.
        decision: true,
        tool: "write_file",
        args: {
          path: at("docs/CHANGELOG.md"),
          content:
            "# Changelog\n\n## 1.4.1\n\n- `total` adds VAT to each line instead of returning the VAT alone.\n",
        },
      },
      {
        tool: "move_file",
        args: { source: at("docs/CHANGELOG.md"), destination: at("CHANGELOG.md") },
      },
      { tool: "list_directory_with_sizes", args: { path: root }, needs: "all" },
    ],
  };
}
