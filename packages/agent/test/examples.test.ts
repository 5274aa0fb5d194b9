/**
 * The examples run end to end (against the fake provider) and print exactly the lines of the
 * `// prints:` comment block at the end of each file. They import `@zcp/agent` as a user does,
 * from dist: run `pnpm build` first.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** The lines of the file's trailing `// prints:` block, without their `// `. */
function printed(file: string): string[] {
  const text = fs.readFileSync(path.join(REPO, file), "utf8");
  const block = text.slice(text.lastIndexOf("// prints:\n") + "// prints:\n".length);
  return block
    .trimEnd()
    .split("\n")
    .map((line) => line.replace(/^\/\/ ?/, ""));
}

it.each(["openai-responses", "openai-chat", "anthropic"])("examples/%s.ts", (name) => {
  const file = `packages/agent/examples/${name}.ts`;
  const expected = printed(file);
  expect(expected.length).toBeGreaterThan(1);
  const run = spawnSync(process.execPath, ["--import", "tsx", file], {
    cwd: REPO,
    encoding: "utf8",
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  expect(run.stdout.trimEnd().split("\n")).toEqual(expected);
});
