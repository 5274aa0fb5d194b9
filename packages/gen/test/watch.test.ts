/**
 * `zcp gen --watch`: after each change the output equals what a cold run produces, including
 * changes to a type declared in another file than the tools that use it, saves by rename
 * (atomic saves, `sed -i`), deletes, renames and new folders; what it leaves for the no-change
 * fast path is trusted by `--check` only for the texts that produced the output.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { describe, expect, it } from "vitest";
import { readFastPath, saveFastPath } from "../src/cli/fast-path.js";
import { loadConfig } from "../src/config.js";
import { Generator } from "../src/pipeline.js";
import { hashText } from "../src/scan/source-text.js";
import { compareOutput, writeOutput } from "../src/write/index.js";
import {
  runZcp,
  runZcpAsync,
  scratchProject,
  STRICT_TSCONFIG,
  TOOL_DEPENDENT_FILES,
  ZCP_BIN,
} from "./helpers.js";

const TYPES = `export interface Query {\n  /** What to find. */\n  text: string;\n}\n`;
const TOOLS = `import type { Query } from "./types.js";\n\n/**\n * Find things.\n * @tool find.things\n */\nexport function find(query: Query, limit: number): string[] {\n  return [query.text, String(limit)];\n}\n`;

function snapshot(dir: string): Record<string, string> {
  const out = path.join(dir, "src/zcp.gen");
  const files = fs
    .readdirSync(out, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile());
  return Object.fromEntries(
    files
      .map((entry) => path.join(entry.parentPath, entry.name))
      .sort()
      .map((file) => [path.relative(out, file), fs.readFileSync(file, "utf8")]),
  );
}

describe("zcp gen --watch", () => {
  it("regenerates incrementally and matches a cold run after every change", async () => {
    const dir = scratchProject({
      "zcp.config.json": "{}",
      "tsconfig.json": STRICT_TSCONFIG,
      "src/types.ts": TYPES,
      "src/tools.ts": TOOLS,
    });
    const cold = scratchProject({
      "zcp.config.json": "{}",
      "tsconfig.json": STRICT_TSCONFIG,
      "src/types.ts": TYPES,
      "src/tools.ts": TOOLS,
    });
    const child = spawn(process.execPath, [ZCP_BIN, "gen", "--watch", "--reporter", "json"], {
      cwd: dir,
    });
    const lines = readline.createInterface({ input: child.stdout });
    const reports: string[] = [];
    const waiters: ((line: string) => void)[] = [];
    lines.on("line", (line) => (waiters.length ? waiters.shift()!(line) : reports.push(line)));
    const next = () =>
      new Promise<Record<string, unknown>>((resolve) => {
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
      const typeChange = await change(
        "src/types.ts",
        TYPES.replace("text: string;", "text: string;\n  /** @minimum 1 */\n  page?: number;"),
      );
      // The schema changed, the call did not: dispatch.ts (and the fixed loader) stay as they are.
      // types.ts changes with the new optional property.
      expect(typeChange).toMatchObject({
        ok: true,
        written: TOOL_DEPENDENT_FILES.filter((file) => file !== "dispatch.ts"),
      });
      expect(snapshot(dir)["registry.ts"]).toContain('"page"');
      // A new file with a tool.
      await change(
        "src/more.ts",
        `/**\n * Count.\n * @tool count.things\n */\nexport const count = (n: number): number => n;\n`,
      );
      expect(Object.keys(JSON.parse(snapshot(dir)["registry.json"]!).index)).toHaveLength(2);
      // A broken edit reports an error; fixing it recovers.
      const broken = await change(
        "src/more.ts",
        `/**\n * Count.\n * @tool count.things\n */\nexport const count = (n: () => void): number => 1;\n`,
      );
      expect(broken).toMatchObject({ ok: false });
      await change(
        "src/more.ts",
        `/**\n * Count.\n * @tool count.things\n */\nexport const count = (n: number): number => n;\n`,
      );
    } finally {
      child.kill("SIGTERM");
    }
  });
});

const TOOL = (alias: string, fn: string, description = "Echo a value.") =>
  `/**\n * ${description}\n * @tool ${alias}\n */\nexport function ${fn}(value: string): string {\n  return value;\n}\n`;

/** `zcp gen --watch --reporter json` in `cwd`: its report lines as they come, and a way to stop it. */
function startWatch(cwd: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    [ZCP_BIN, "gen", "--watch", "--reporter", "json"],
    { cwd },
  );
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  const reports: Record<string, unknown>[] = [];
  const waiters: ((report: Record<string, unknown>) => void)[] = [];
  readline.createInterface({ input: child.stdout! }).on("line", (line) => {
    const report = JSON.parse(line) as Record<string, unknown>;
    if (waiters.length) waiters.shift()!(report);
    else reports.push(report);
  });
  /** The next report line; fails after `ms` without one. */
  const next = (what = "the first run", ms = 20_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      if (reports.length) return resolve(reports.shift()!);
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `no report from zcp gen --watch within ${ms} ms after ${what}; stderr:\n${stderr}`,
            ),
          ),
        ms,
      );
      waiters.push((report) => {
        clearTimeout(timer);
        resolve(report);
      });
    });
  /** Stops it as Ctrl+C or a process manager would; resolves to its exit code. */
  const stop = async () => {
    child.kill("SIGTERM");
    return exited;
  };
  return { next, stop, stderr: () => stderr };
}

describe("zcp gen --watch: saves by rename, deletes, renames, new folders", () => {
  it("regenerates after each, and leaves a fast path that --check trusts", async () => {
    const files = {
      "zcp.config.json": "{}",
      "tsconfig.json": STRICT_TSCONFIG,
      "src/types.ts": TYPES,
      "src/tools.ts": TOOLS,
      "src/echo.ts": TOOL("echo.say", "say"),
      "src/gone.ts": TOOL("gone.soon", "soon"),
    };
    const dir = scratchProject(files);
    const cold = scratchProject(files);
    const first = runZcp(cold, ["gen"]);
    expect(first.status, first.stderr).toBe(0);
    const watcher = startWatch(dir);
    /**
     * Applies `edit` to both projects, regenerates the cold one from scratch, and waits for the
     * watcher's output to equal it, reported with the cold run's verdict. Every step changes the
     * output, so equality means the watcher saw the change (a report of an earlier step cannot
     * pass for it, and a run it split into two only adds a line).
     */
    const step = async (what: string, edit: (root: string) => void, ok = true) => {
      const before = snapshot(cold);
      edit(dir);
      edit(cold);
      const regenerated = await runZcpAsync(cold, ["gen", "--force"]);
      expect(regenerated.status, `${what}: ${regenerated.stderr}`).toBe(ok ? 0 : 1);
      expect(snapshot(cold), `${what} changes the output`).not.toEqual(before);
      for (;;) {
        const report = await watcher.next(what);
        if (report.ok === ok && JSON.stringify(snapshot(dir)) === JSON.stringify(snapshot(cold)))
          break;
      }
      expect(snapshot(dir), what).toEqual(snapshot(cold));
    };
    /** An editor's atomic save: the new text goes to a temporary file, renamed over the old one. */
    const atomicSave = (file: string, text: string) => {
      const temporary = path.join(path.dirname(file), "x.tmp");
      fs.writeFileSync(temporary, text);
      fs.renameSync(temporary, file);
    };
    try {
      expect(await watcher.next()).toMatchObject({ ok: true, tools: 3 });
      await step("an atomic save of a tool file", (root) =>
        atomicSave(path.join(root, "src/echo.ts"), TOOL("echo.say", "say", "Echo a value back.")),
      );
      await step("a second atomic save of the same file", (root) =>
        atomicSave(path.join(root, "src/echo.ts"), TOOL("echo.shout", "say", "Echo a value back.")),
      );
      await step("an atomic save of a type the tools use", (root) =>
        atomicSave(
          path.join(root, "src/types.ts"),
          TYPES.replace("text: string;", "text: string;\n  page?: number;"),
        ),
      );
      await step("sed -i on a tool file", (root) => {
        const sed = spawnSync(
          "sed",
          ["-i", "s/Find things/Find all the things/", path.join(root, "src/tools.ts")],
          { encoding: "utf8" },
        );
        expect(sed.status, sed.stderr).toBe(0);
      });
      await step("a deleted tool file", (root) => fs.rmSync(path.join(root, "src/gone.ts")));
      await step("a renamed tool file", (root) =>
        fs.renameSync(path.join(root, "src/echo.ts"), path.join(root, "src/speak.ts")),
      );
      await step("a new folder with a new tool file", (root) => {
        fs.mkdirSync(path.join(root, "src/extra/deep"), { recursive: true });
        fs.writeFileSync(
          path.join(root, "src/extra/deep/count.ts"),
          `/**\n * Count.\n * @tool count.things\n */\nexport const count = (n: number): number => n;\n`,
        );
      });
      await step("a renamed folder", (root) =>
        fs.renameSync(path.join(root, "src/extra"), path.join(root, "src/more")),
      );
      // The tool's import fails (ZCP1203, the tool is left out), then finds the file again.
      await step(
        "a deleted imported file",
        (root) => fs.rmSync(path.join(root, "src/types.ts")),
        false,
      );
      await step("the imported file created again", (root) =>
        fs.writeFileSync(
          path.join(root, "src/types.ts"),
          TYPES.replace("What to find.", "What to look for."),
        ),
      );
      await step("an atomic save of the config", (root) =>
        atomicSave(
          path.join(root, "zcp.config.json"),
          JSON.stringify({ exclude: ["src/more/**"] }),
        ),
      );
    } finally {
      expect(await watcher.stop(), watcher.stderr()).toBe(0);
    }
    // Nothing changed since: what watch mode saved for the fast path holds, and is used.
    const check = runZcp(dir, ["gen", "--check", "--reporter", "json"]);
    expect(check.status, check.stdout + check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ ok: true, tools: 2, cached: true });
    expect(snapshot(dir)).toEqual(snapshot(cold));
  });
});

// Independent projects: their runs share the CPUs.
describe.concurrent("the no-change fast path", () => {
  function project() {
    return scratchProject({
      "zcp.config.json": "{}",
      "tsconfig.json": STRICT_TSCONFIG,
      "src/types.ts": TYPES,
      "src/tools.ts": TOOLS,
      // A configured file that does not mention the tag: not a root of the program.
      "src/plain.ts": `export function plain(value: string): string {\n  return value;\n}\n`,
    });
  }
  const gen = async (dir: string, ...args: string[]) => {
    const result = await runZcpAsync(dir, ["gen", "--reporter", "json", ...args]);
    return {
      status: result.status,
      ...(JSON.parse(result.stdout) as { ok: boolean; tools: number; cached: boolean }),
    };
  };

  it("stays cached when only modification times change", async () => {
    const dir = project();
    expect(await gen(dir)).toMatchObject({ status: 0, cached: false });
    const later = new Date(Date.now() + 60_000);
    for (const file of [
      "zcp.config.json",
      "tsconfig.json",
      "src/types.ts",
      "src/tools.ts",
      "src/plain.ts",
    ])
      fs.utimesSync(path.join(dir, file), later, later);
    expect(await gen(dir)).toMatchObject({ status: 0, tools: 1, cached: true });
    expect(await gen(dir, "--check")).toMatchObject({ status: 0, cached: true });
  });

  it("is not taken after @tool is added to a file that had none", async () => {
    const dir = project();
    expect(await gen(dir)).toMatchObject({ status: 0, tools: 1, cached: false });
    expect(await gen(dir)).toMatchObject({ tools: 1, cached: true });
    fs.writeFileSync(path.join(dir, "src/plain.ts"), TOOL("plain.echo", "plain"));
    // The registry on disk lacks the new tool: --check must say so rather than replay the old run.
    expect(await gen(dir, "--check")).toMatchObject({
      status: 1,
      ok: false,
      tools: 2,
      cached: false,
    });
    expect(await gen(dir)).toMatchObject({ status: 0, tools: 2, cached: false });
    expect(await gen(dir, "--check")).toMatchObject({ status: 0, tools: 2, cached: true });
  });

  it("is not taken after a configured file, an imported file or the tsconfig changes", async () => {
    const dir = project();
    await gen(dir);
    const edits: [string, (text: string) => string][] = [
      ["src/plain.ts", (text) => `// a comment\n${text}`],
      ["src/types.ts", (text) => text.replace("What to find.", "What to look for.")],
      [
        "tsconfig.json",
        (text) => text.replace('"strict":true', '"strict":true,"exactOptionalPropertyTypes":false'),
      ],
    ];
    for (const [file, edit] of edits) {
      fs.writeFileSync(path.join(dir, file), edit(fs.readFileSync(path.join(dir, file), "utf8")));
      expect(await gen(dir, "--check"), file).toMatchObject({ cached: false });
      expect(await gen(dir), file).toMatchObject({ status: 0 });
      expect(await gen(dir), file).toMatchObject({ status: 0, cached: true });
    }
  });

  it("records the texts the run read, not the disk when saving: a change after the run is noticed", async () => {
    const dir = project();
    const config = loadConfig(dir).config!;
    const result = await new Generator(config).generate();
    writeOutput(config.outDir, result.files, compareOutput(config.outDir, result.files));
    const tools = path.join(dir, "src/tools.ts");
    expect(result.inputs.get(tools)).toBe(hashText(TOOLS));
    // Every configured file is an input, also one that is not part of the program.
    expect(result.inputs.get(path.join(dir, "src/plain.ts"))).toMatch(/^[0-9a-f]{64}$/);
    await saveFastPath(config, result);
    expect(await readFastPath(config)).toMatchObject({ tools: 1, hash: result.registry.hash });

    // A change that a watcher missed, made after the run and before its result is saved.
    fs.writeFileSync(tools, TOOLS.replace("Find things.", "Find other things."));
    await saveFastPath(config, result);
    expect(await readFastPath(config)).toBeNull();
    // Recorded hashes that differ from the disk give no fast path either, whatever the cause.
    fs.writeFileSync(tools, TOOLS);
    const tampered = {
      ...result,
      inputs: new Map(
        [...result.inputs].map(([file, hash]) => [
          file,
          file === tools ? hashText("another text") : hash,
        ]),
      ),
    };
    await saveFastPath(config, tampered);
    expect(await readFastPath(config)).toBeNull();
    await saveFastPath(config, result);
    expect(await readFastPath(config)).not.toBeNull();
  });

  it("saves nothing for output that is not on disk as generated", async () => {
    const dir = project();
    const config = loadConfig(dir).config!;
    const result = await new Generator(config).generate();
    // Generated, not written (as under --check on a stale folder).
    await saveFastPath(config, result);
    expect(await readFastPath(config)).toBeNull();
    writeOutput(config.outDir, result.files, compareOutput(config.outDir, result.files));
    fs.appendFileSync(path.join(config.outDir, "registry.ts"), "// edited\n");
    await saveFastPath(config, result);
    expect(await readFastPath(config)).toBeNull();
  });
});
