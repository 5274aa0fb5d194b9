/**
 * Writing and checking the output folder: only changed files are written, files of the
 * previous run that this run does not generate are removed, and --check reports stale,
 * missing and extra files without touching anything.
 */
import fs from "node:fs";
import path from "node:path";
import { ARTIFACT_PROVIDERS, artifactSet } from "@zcp/runtime";
import { describe, expect, it } from "vitest";
import {
  GENERATED_FILES,
  generatedRegistry,
  JSON_FILES,
  runZcp,
  scratchProject,
  STRICT_TSCONFIG,
  TOOL_DEPENDENT_FILES,
} from "./helpers.js";

const TOOL = (alias: string, fn: string) =>
  `/**\n * Echo a value.\n * @tool ${alias}\n */\nexport function ${fn}(value: string): string {\n  return value;\n}\n`;

function project() {
  return scratchProject({
    "zcp.config.json": "{}",
    "tsconfig.json": STRICT_TSCONFIG,
    "src/echo.ts": TOOL("echo.say", "say"),
  });
}

describe("write and check", () => {
  it("writes only what changed and is byte-stable across runs", () => {
    const dir = project();
    const first = runZcp(dir, ["gen", "--reporter", "json"]);
    expect(JSON.parse(first.stdout).written).toEqual(GENERATED_FILES);
    const registryTs = path.join(dir, "src/zcp.gen/registry.ts");
    const before = fs.statSync(registryTs).mtimeMs;
    const second = JSON.parse(runZcp(dir, ["gen", "--force", "--reporter", "json"]).stdout);
    expect(second.written).toEqual([]);
    expect(fs.statSync(registryTs).mtimeMs).toBe(before);
  });

  it("writes the JSON files with jsonFiles (the lean sets too with leanArtifacts), and removes them when it is turned off", () => {
    const dir = project();
    const config = path.join(dir, "zcp.config.json");
    const out = path.join(dir, "src/zcp.gen");
    const manifest = () => JSON.parse(fs.readFileSync(path.join(out, "registry.json"), "utf8"));
    const lean = JSON_FILES.map((file) => file.replace("artifacts/", "artifacts/lean/"));
    // Without jsonFiles, leanArtifacts writes nothing more.
    fs.writeFileSync(config, JSON.stringify({ leanArtifacts: true }));
    expect(JSON.parse(runZcp(dir, ["gen", "--reporter", "json"]).stdout).written).toEqual(
      GENERATED_FILES,
    );
    expect(Object.keys(manifest())).toEqual(["version", "generator", "hash", "index", "files"]);

    fs.writeFileSync(config, JSON.stringify({ jsonFiles: true, leanArtifacts: true }));
    const on = JSON.parse(runZcp(dir, ["gen", "--reporter", "json"]).stdout);
    expect(on.written).toEqual([...JSON_FILES, ...lean, "registry.json"].sort());
    expect(manifest().files).toEqual(
      [
        ...GENERATED_FILES.filter((file) => file !== "registry.json"),
        ...JSON_FILES,
        ...lean,
      ].sort(),
    );
    expect(Object.keys(manifest())).toEqual([
      "version",
      "generator",
      "hash",
      "index",
      "tools",
      "files",
    ]);
    const registry = generatedRegistry(out);
    expect(manifest().tools).toEqual(registry.tools);
    // One compact line per definition.
    expect(fs.readFileSync(path.join(out, "registry.json"), "utf8")).toContain(
      `\n    ${JSON.stringify(registry.tools[0])}\n`,
    );
    for (const provider of ARTIFACT_PROVIDERS) {
      for (const [folder, options] of [
        ["artifacts", {}],
        ["artifacts/lean", { lean: true }],
      ] as const) {
        expect(fs.readFileSync(path.join(out, folder, `${provider}.json`), "utf8")).toBe(
          `${JSON.stringify(artifactSet(registry, provider, options), null, 2)}\n`,
        );
      }
    }

    fs.writeFileSync(config, JSON.stringify({ jsonFiles: true }));
    expect(JSON.parse(runZcp(dir, ["gen", "--reporter", "json"]).stdout).removed).toEqual(lean);
    expect(fs.existsSync(path.join(out, "artifacts/lean"))).toBe(false);
    fs.writeFileSync(config, "{}");
    expect(JSON.parse(runZcp(dir, ["gen", "--reporter", "json"]).stdout).removed).toEqual(
      JSON_FILES,
    );
    expect(fs.existsSync(path.join(out, "artifacts"))).toBe(false);
  });

  it("removes, on its first run, what a format-2 manifest lists and format 3 no longer writes", () => {
    const dir = project();
    const out = path.join(dir, "src/zcp.gen");
    const old = ["artifacts.ts", "lean.ts", "artifacts/mcp.json", "artifacts/lean/mcp.json"];
    for (const file of old) {
      fs.mkdirSync(path.dirname(path.join(out, file)), { recursive: true });
      fs.writeFileSync(path.join(out, file), "// format 2\n");
    }
    fs.writeFileSync(
      path.join(out, "registry.json"),
      JSON.stringify({ version: 2, hash: "000000000000", tools: [], names: {}, files: old }),
    );
    const first = JSON.parse(runZcp(dir, ["gen", "--reporter", "json"]).stdout);
    expect(first.removed).toEqual(old);
    expect(fs.readdirSync(out).sort()).toEqual(GENERATED_FILES);
  });

  it("--check reports stale, missing and extra files, exits 1, and writes nothing", () => {
    const dir = project();
    runZcp(dir, ["gen"]);
    const out = path.join(dir, "src/zcp.gen");
    fs.appendFileSync(path.join(out, "registry.ts"), "// edited\n");
    fs.rmSync(path.join(out, "registry.json"));
    // A file the previous run generated (per its manifest) and this one does not.
    const check = runZcp(dir, ["gen", "--check"]);
    expect(check.status).toBe(1);
    expect(check.stdout).toContain("stale: src/zcp.gen/registry.ts");
    expect(check.stdout).toContain("missing: src/zcp.gen/registry.json");
    expect(fs.existsSync(path.join(out, "registry.json"))).toBe(false);
    expect(fs.readFileSync(path.join(out, "registry.ts"), "utf8")).toContain("// edited");

    runZcp(dir, ["gen"]);
    const manifest = JSON.parse(fs.readFileSync(path.join(out, "registry.json"), "utf8"));
    manifest.files.push("legacy/old.json");
    fs.writeFileSync(path.join(out, "registry.json"), JSON.stringify(manifest));
    fs.mkdirSync(path.join(out, "legacy"));
    fs.writeFileSync(path.join(out, "legacy/old.json"), "{}");
    fs.writeFileSync(path.join(out, "notes.txt"), "mine");
    const extra = runZcp(dir, ["gen", "--check", "--reporter", "json"]);
    expect(JSON.parse(extra.stdout).check).toEqual({
      stale: ["registry.json"],
      missing: [],
      extra: ["legacy/old.json"],
    });
    expect(extra.status).toBe(1);

    const write = JSON.parse(runZcp(dir, ["gen", "--reporter", "json"]).stdout);
    expect(write.removed).toEqual(["legacy/old.json"]);
    expect(fs.existsSync(path.join(out, "legacy"))).toBe(false);
    // Files zcp never generated are not its to delete.
    expect(fs.readFileSync(path.join(out, "notes.txt"), "utf8")).toBe("mine");
    expect(runZcp(dir, ["gen", "--check"]).status).toBe(0);
  });

  it("never deletes outside the output folder, whatever the manifest says", () => {
    const dir = project();
    runZcp(dir, ["gen"]);
    const manifestPath = path.join(dir, "src/zcp.gen/registry.json");
    const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
    manifest.files.push("../echo.ts", "/etc/hostname");
    fs.writeFileSync(manifestPath, JSON.stringify(manifest));
    runZcp(dir, ["gen"]);
    expect(fs.existsSync(path.join(dir, "src/echo.ts"))).toBe(true);
  });

  it("the no-change fast path replays the result and notices edits", () => {
    const dir = project();
    runZcp(dir, ["gen"]);
    const cached = JSON.parse(runZcp(dir, ["gen", "--reporter", "json"]).stdout);
    expect(cached).toMatchObject({ ok: true, tools: 1, cached: true });
    fs.writeFileSync(path.join(dir, "src/more.ts"), TOOL("echo.again", "again"));
    const added = JSON.parse(runZcp(dir, ["gen", "--reporter", "json"]).stdout);
    expect(added).toMatchObject({ tools: 2, cached: false, written: TOOL_DEPENDENT_FILES });
    fs.writeFileSync(path.join(dir, "src/zcp.gen/registry.ts"), "tampered");
    const repaired = JSON.parse(runZcp(dir, ["gen", "--reporter", "json"]).stdout);
    expect(repaired).toMatchObject({ cached: false, written: ["registry.ts"] });
  });
});
