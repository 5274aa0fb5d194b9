/**
 * cli: `zcp diff OLD NEW`, the breaking changes between two registries (`src/diff/`). OLD and
 * NEW are each a registry file (`registry.json` with its tools, or a registry module `.ts`/`.js`),
 * a folder holding one, an installed package's name, or `REF:path` read with `git show`
 * (`diff/input.ts`).
 */
import { parseArgs } from "node:util";
import type { Registry } from "@zcp/runtime/definition";
import { diffRegistries } from "../diff/index.js";
import { readDiffInput } from "../diff/input.js";

const DIFF_USAGE = `Usage: zcp diff OLD NEW [options]

Compares two tool registries and reports the changes that break callers.
OLD and NEW are each one of:
  a registry file     registry.ts or registry.js (read, never run), or a registry.json with tools
  a folder            its registry.ts, registry.js or registry.json, or under zcp.gen/,
                      src/zcp.gen/ or dist/zcp.gen/
  a package name      an installed package's published registry (its "./zcp" export)
  REF:path            a file or folder as above at a git revision (read with git show)

Options:
  --reporter <kind>   text (default) or json
  --allow-breaking    exit 0 even when a change is breaking
  -h, --help          show this help

Exit codes: 0 no breaking change, 1 breaking changes, 2 usage errors.
`;

export function diff(argv: string[], cwd: string): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        reporter: { type: "string", default: "text" },
        "allow-breaking": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`zcp: ${(error as Error).message}\n\n${DIFF_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(DIFF_USAGE);
    return 0;
  }
  if (positionals.length !== 2) {
    process.stderr.write(
      `zcp: diff takes OLD and NEW, got ${positionals.length} arguments\n\n${DIFF_USAGE}`,
    );
    return 2;
  }
  if (values.reporter !== "text" && values.reporter !== "json") {
    process.stderr.write(`zcp: --reporter must be text or json, got "${values.reporter}"\n`);
    return 2;
  }
  const registries: Registry[] = [];
  for (const spec of positionals) {
    const read = readDiffInput(spec, cwd);
    if (typeof read === "string") {
      process.stderr.write(`zcp: ${read}\n`);
      return 2;
    }
    registries.push(read);
  }
  const changes = diffRegistries(registries[0]!, registries[1]!);
  const breaking = changes.filter((c) => c.breaking).length;
  if (values.reporter === "json") {
    process.stdout.write(`${JSON.stringify({ breaking, changes })}\n`);
  } else {
    for (const c of changes) {
      const level = c.breaking ? "BREAKING" : "ok";
      const at = c.path ? ` (${c.path})` : "";
      process.stdout.write(`${level} ${c.tool}: ${c.rule}: ${c.detail}${at}\n`);
    }
    process.stdout.write(
      changes.length === 0
        ? "no changes\n"
        : `${breaking} breaking, ${changes.length - breaking} not breaking\n`,
    );
  }
  return breaking > 0 && !values["allow-breaking"] ? 1 : 0;
}
