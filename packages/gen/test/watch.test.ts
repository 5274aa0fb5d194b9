/**
 * `zcp gen --watch`: after each change the output equals what a cold run produces, including
 * changes to a type declared in another file than the tools that use it.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { describe, expect, it } from "vitest";
import { runZcp, scratchProject, STRICT_TSCONFIG, TOOL_DEPENDENT_FILES, ZCP_BIN } from "./helpers.js";

const TYPES = `export interface Query {\n  /** What to find. */\n  text: string;\n}\n`;
const TOOLS = `import type { Query } from "./types.js";\n\n/**\n * Find things.\n * @tool find.things\n */\nexport function find(query: Query, limit: number): string[] {\n  return [query.text, String(limit)];\n}\n`;

function snapshot(dir: string): Record<string, string> {
  const out = path.join(dir, "src/zcp.gen");
  const files = fs.readdirSync(out, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return Object.fromEntries(
    files.map((entry) => path.join(entry.parentPath, entry.name)).sort().map((file) => [path.relative(out, file), fs.readFileSync(file, "utf8")]),
  );
}

describe("zcp gen --watch", () => {
  it("regenerates incrementally and matches a cold run after every change", async () => {
    const dir = scratchProject({ "zcp.config.json": "{}", "tsconfig.json": STRICT_TSCONFIG, "src/types.ts": TYPES, "src/tools.ts": TOOLS });
    const cold = scratchProject({ "zcp.config.json": "{}", "tsconfig.json": STRICT_TSCONFIG, "src/types.ts": TYPES, "src/tools.ts": TOOLS });
    const child = spawn(process.execPath, [ZCP_BIN, "gen", "--watch", "--reporter", "json"], { cwd: dir });
    const lines = readline.createInterface({ input: child.stdout });
    const reports: string[] = [];
    const waiters: ((line: string) => void)[] = [];
    lines.on("line", (line) => (waiters.length ? waiters.shift()!(line) : reports.push(line)));
    const next = () => new Promise<Record<string, unknown>>((resolve) => {
      const take = (line: string) => resolve(JSON.parse(line));
      if (reports.length) take(reports.shift()!);
      else waiters.push(take);
    });
    const change = async (file: string, text: string) => {
      fs.writeFileSync(path.join(dir, file), text);
      fs.writeFileSync(path.join(cold, file), text);
      const report = await next();
      runZcp(cold, ["gen", "--force"]);
      expect(snapshot(dir)).toEqual(snapshot(cold));
      return report;
    };
    try {
      expect(await next()).toMatchObject({ ok: true, tools: 1 });
      // A type used by the tool, declared in another file.
      const typeChange = await change("src/types.ts", TYPES.replace("text: string;", "text: string;\n  /** @minimum 1 */\n  page?: number;"));
      // The schema changed, the call did not: dispatch.ts (and the fixed loader) stay as they are.
      // types.ts changes with the new optional property.
      expect(typeChange).toMatchObject({ ok: true, written: TOOL_DEPENDENT_FILES.filter((file) => file !== "dispatch.ts") });
      expect(snapshot(dir)["registry.json"]).toContain('"page"');
      // A new file with a tool.
      await change("src/more.ts", `/**\n * Count.\n * @tool count.things\n */\nexport const count = (n: number): number => n;\n`);
      expect(JSON.parse(snapshot(dir)["registry.json"]!).tools).toHaveLength(2);
      // A broken edit reports an error; fixing it recovers.
      const broken = await change("src/more.ts", `/**\n * Count.\n * @tool count.things\n */\nexport const count = (n: () => void): number => 1;\n`);
      expect(broken).toMatchObject({ ok: false });
      await change("src/more.ts", `/**\n * Count.\n * @tool count.things\n */\nexport const count = (n: number): number => n;\n`);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
