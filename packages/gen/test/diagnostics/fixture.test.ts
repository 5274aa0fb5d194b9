/**
 * Diagnostics of `zcp gen` on fixtures/diagnostics, which triggers every per-source code; its
 * stderr is pinned by the golden expected-diagnostics.txt, for the text reporter and (field by
 * field) the JSON reporter.
 */
import fs from "node:fs";
import path from "node:path";
import { artifactSet, type ArtifactProvider } from "@zcp/runtime";
import { beforeAll, describe, expect, it } from "vitest";
import { CODES } from "../../src/diagnostics.js";
import {
  type CliResult,
  generatedRegistry,
  oneJsonLine,
  runsTogether,
  runZcpAsync,
} from "../helpers.js";
import { DIR, GOLDEN_FILE, type JsonDiagnostic, type JsonReport } from "./helpers.js";

const runs = runsTogether();

function formatJson(d: JsonDiagnostic): string {
  return `${d.file === null ? "zcp" : `${d.file}:${d.line}:${d.column}`} - ${d.severity} ${d.code}: ${d.message}`;
}

describe("fixtures/diagnostics", () => {
  const golden = fs.readFileSync(GOLDEN_FILE, "utf8");
  let text: CliResult;
  let json: CliResult;
  const started = runs(async () => {
    if (!fs.existsSync(path.join(DIR, "node_modules/@zcp/runtime/package.json"))) {
      throw new Error(
        "fixtures/diagnostics/node_modules/@zcp/runtime is missing; run pnpm install",
      );
    }
    return Promise.all([
      runZcpAsync(DIR, ["gen", "--check", "--force"]),
      runZcpAsync(DIR, ["gen", "--check", "--force", "--reporter", "json"]),
    ]);
  });

  beforeAll(async () => {
    [text, json] = await started();
  });

  it("text reporter: exits 1, stderr is exactly the golden, the checked-in output is up to date", () => {
    expect(text.stderr).toBe(golden);
    expect(text.status).toBe(1);
    expect(text.stdout).not.toMatch(/^(stale|missing|extra):/m);
    expect(text.stdout).toMatch(
      /^zcp gen --check: 14 tools, registry [0-9a-f]{12}, \d+ error\(s\), 13 warning\(s\); up to date/m,
    );
  });

  it("json reporter: ok is false, every diagnostic is complete and matches the golden, check is clean", () => {
    expect(json.status).toBe(1);
    expect(json.stderr).toBe("");
    const report = oneJsonLine<JsonReport>(json);
    expect(report.ok).toBe(false);
    expect(report.tools).toBe(14);
    expect(report.check).toEqual({ stale: [], missing: [], extra: [] });
    for (const d of report.diagnostics) {
      expect(Object.keys(d).sort()).toEqual([
        "code",
        "column",
        "file",
        "line",
        "message",
        "severity",
      ]);
      expect(["error", "warning"]).toContain(d.severity);
      expect(Object.keys(CODES)).toContain(d.code);
      expect(d.message).not.toBe("");
      expect(d.file).toMatch(/^src\/[a-z-]+\.ts$/);
      expect(d.line).toBeGreaterThan(0);
      expect(d.column).toBeGreaterThan(0);
    }
    expect(
      report.diagnostics
        .map(formatJson)
        .map((line) => `${line}\n`)
        .join(""),
    ).toBe(golden);
  });

  it("each theme file produces its code, and the valid file produces none", () => {
    const THEMES: Record<string, string[]> = {
      "syntax.ts": ["ZCP1101"],
      "misplaced.ts": ["ZCP1102"],
      "functions.ts": ["ZCP1201"],
      "not-json.ts": ["ZCP1202"],
      "unresolved.ts": ["ZCP1203"],
      "untyped.ts": ["ZCP1204"],
      "returns.ts": ["ZCP1207"],
      "lossy.ts": ["ZCP1208"],
      "forms.ts": ["ZCP1205"],
      "nested.ts": ["ZCP1206"],
      "tags.ts": ["ZCP1301"],
      "throws.ts": ["ZCP1307", "ZCP1308"],
      "constraints.ts": ["ZCP1302"],
      "warnings.ts": ["ZCP1303", "ZCP1304", "ZCP1305"],
      "providers.ts": ["ZCP1501", "ZCP1502", "ZCP1503"],
      "duplicate-ids.ts": ["ZCP1401"],
      "alias-a.ts": ["ZCP1402"],
      "alias-b.ts": ["ZCP1402"],
      "names.ts": ["ZCP1403", "ZCP1404"],
    };
    const byFile = new Map<string, Set<string>>();
    for (const match of golden.matchAll(
      /^src\/([^:]+):\d+:\d+ - (?:error|warning) (ZCP\d{4}): /gm,
    )) {
      byFile.set(match[1]!, (byFile.get(match[1]!) ?? new Set()).add(match[2]!));
    }
    expect([...byFile.keys()].sort()).toEqual(Object.keys(THEMES).sort());
    for (const [file, codes] of Object.entries(THEMES)) {
      for (const code of codes) expect(byFile.get(file), `${code} in ${file}`).toContain(code);
    }
    // The warnings are the only ones: every tool but the ZCP1305 one has a description, only
    // two tools are hard for a provider (ZCP1501, ZCP1503) besides the two that take any value
    // (ZCP1204, which also costs them strict mode and Gemini), one return type has no JSON form
    // (ZCP1207), and one array type has members the schema leaves out (ZCP1208).
    expect(golden.match(/ - warning /g)).toHaveLength(13);
  });

  it("still generates the tools without errors (and only those)", () => {
    const registry = generatedRegistry(path.join(DIR, "src/zcp.gen"));
    // A provider's problem (ZCP15xx) leaves only that provider's entry out, not the tool.
    expect(registry.tools.map((tool) => tool.alias)).toEqual([
      "config.one",
      "demo.add",
      "demo.greet",
      "demo.shout",
      "lossy.count",
      "providers.deep",
      "providers.open_map",
      "providers.tree",
      "returns.check",
      "untyped.explicit",
      "untyped.implicit",
      "warnings.computed_default",
      "warnings.extra_param",
      "warnings.undescribed",
    ]);
    const idOf = (alias: string) => registry.tools.find((tool) => tool.alias === alias)!.id;
    const artifact = (provider: ArtifactProvider) => artifactSet(registry, provider);
    expect(artifact("openai-responses")[idOf("providers.deep")]).toBeUndefined();
    expect(artifact("openai-responses")[idOf("providers.open_map")]).toMatchObject({
      strict: false,
    });
    expect(artifact("gemini")[idOf("providers.tree")]).toBeUndefined();
    expect(artifact("anthropic")[idOf("providers.deep")]).toBeDefined();
    // ZCP1204: a value without a precise type is any JSON value; ZCP1207: no output schema.
    const tool = (alias: string) => registry.tools.find((t) => t.alias === alias)!;
    expect(tool("untyped.implicit").inputSchema.properties).toEqual({ value: {} });
    expect(tool("untyped.explicit").inputSchema.properties).toEqual({ value: {} });
    expect(tool("returns.check").outputSchema).toBeNull();
    // ZCP1304: the parameter is optional, without a recorded default.
    const computed = registry.tools.find((tool) => tool.alias === "warnings.computed_default")!;
    expect(computed.inputSchema.required).toEqual([]);
    expect(computed.defaults).toEqual({});
  });
});
