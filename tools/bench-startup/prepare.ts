/**
 * The benchmark input, built from scratch on every run under tools/bench-startup/.work:
 *
 * - project/: bench-gen's synthetic 1,000-tool project (same seed, same synthesizer), with
 *   `zcp gen` run on it, so src/zcp.gen/index.ts is the generated module of today's generator;
 * - sdk/tools.ts: the same 1,000 tools as an MCP SDK server written the usual way: one
 *   `server.registerTool(name, { title, description, inputSchema: { ...zod... }, annotations,
 *   _meta }, callback)` per tool, the zod code converted from each tool's JSON input schema at
 *   build time (zod-codegen.ts), each callback calling the tool's function from the project's
 *   source modules (as the generated dispatch table does);
 * - dist/: all of it compiled with the repository's `tsc` (TypeScript 7, module nodenext), with
 *   the three child scripts, so that every side runs as plain JavaScript under `node`, as a
 *   deployed server does: no TypeScript loader on either side.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { artifactSet, type McpTool, type Registry } from "@zcp/runtime";
import { assertGenerated, makeCold, type ZcpReport } from "../bench-gen/zcp.js";
import { compileWithTsc, lastJsonLine, runNode } from "../bench-gen/measure.js";
import { synthesize, writeProject } from "../bench-gen/synth.js";
import { convertInputSchema, type Schema } from "./zod-codegen.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));

export interface Prepared {
  readonly project: string;
  /** The compiled generated module and its registry, child scripts and zod server module (all .js). */
  readonly generatedIndex: string;
  readonly generatedRegistry: string;
  readonly sdkModule: string;
  readonly children: { readonly zcp: string; readonly sdk: string };
  readonly tools: number;
  readonly zcpWarnings: number;
  readonly registryHash: string | null;
  /** JSON Schema keywords zod cannot express, dropped from the zod side, with counts. */
  readonly dropped: Record<string, number>;
  readonly bytes: Record<string, number>;
}

export async function prepare(repo: string, work: string): Promise<Prepared> {
  const project = path.join(work, "project");
  const files = synthesize();
  const manifest = writeProject(project, files, path.join(repo, "packages/runtime"));
  makeCold(project, "src/zcp.gen");
  const run = await runNode(
    [path.join(repo, "packages/gen/dist/bin/zcp.js"), "gen", "--reporter", "json", "--force"],
    project,
  );
  const report = lastJsonLine<ZcpReport>(run, "zcp gen");
  assertGenerated(report, manifest.tools, "zcp gen on the synthetic project");

  const gen = path.join(project, "src", "zcp.gen");
  const { registry } = (await import(pathToFileURL(path.join(gen, "registry.ts")).href)) as {
    registry: Registry;
  };
  const mcp = artifactSet(registry, "mcp");
  const sdkDir = path.join(work, "sdk");
  fs.mkdirSync(sdkDir, { recursive: true });
  const { code, dropped } = sdkModule(
    registry,
    mcp,
    path.relative(sdkDir, path.join(project, "src")),
  );
  const sdkModuleFile = path.join(sdkDir, "tools.ts");
  fs.writeFileSync(sdkModuleFile, code);

  const sources = [
    path.join(project, "src/**/*.ts"),
    path.join(sdkDir, "*.ts"),
    ...["child.ts", "zcp-startup.ts", "sdk-startup.ts"].map((file) => path.join(HERE, file)),
  ];
  const dist = await compileWithTsc(repo, HERE, path.join(work, "dist"), sources);
  const size = (file: string) => fs.statSync(file).size;
  return {
    project,
    generatedIndex: dist(path.join(gen, "index.ts")),
    generatedRegistry: dist(path.join(gen, "registry.ts")),
    sdkModule: dist(sdkModuleFile),
    children: {
      zcp: dist(path.join(HERE, "zcp-startup.ts")),
      sdk: dist(path.join(HERE, "sdk-startup.ts")),
    },
    tools: manifest.tools,
    zcpWarnings: report.diagnostics.length,
    registryHash: report.hash,
    dropped,
    bytes: {
      "zcp.gen/registry.ts": size(path.join(gen, "registry.ts")),
      "zcp.gen/validators.ts": size(path.join(gen, "validators.ts")),
      "zcp.gen/dispatch.ts": size(path.join(gen, "dispatch.ts")),
      "sdk/tools.ts (zod)": size(sdkModuleFile),
    },
  };
}

/** The MCP SDK server module: imports, then `registerTools(server)` with one registerTool per tool. */
function sdkModule(
  registry: Registry,
  mcp: { [id: string]: McpTool },
  sourceDir: string,
): { code: string; dropped: Record<string, number> } {
  const modules = new Map<string, string>();
  const dropped: Record<string, number> = {};
  const body: string[] = [];
  for (const tool of registry.tools) {
    const entry = mcp[tool.id];
    if (!entry) throw new Error(`${tool.alias}: no mcp artifact`);
    const file = tool.source.file.replace(/^src\//, "").replace(/\.ts$/, ".js");
    let ns = modules.get(file);
    if (!ns) modules.set(file, (ns = `m${modules.size}`));
    const conversion = convertInputSchema(tool.inputSchema as Schema, tool.alias);
    for (const [key, count] of Object.entries(conversion.dropped))
      dropped[key] = (dropped[key] ?? 0) + count;
    if (tool.call.context !== null)
      throw new Error(`${tool.alias}: tools that take a context are not supported here`);
    const fn = `${ns}.${tool.source.export}`;
    const call =
      tool.call.kind === "positional"
        ? `${fn}(${tool.call.params.map((p) => `args[${JSON.stringify(p)}]`).join(", ")})`
        : `${fn}(args)`;
    const config = [
      ...(entry.title !== undefined ? [`title: ${JSON.stringify(entry.title)}`] : []),
      `description: ${JSON.stringify(entry.description)}`,
      `inputSchema: ${conversion.shape}`,
      ...(entry.annotations !== undefined
        ? [`annotations: ${JSON.stringify(entry.annotations)}`]
        : []),
      `_meta: ${JSON.stringify(entry._meta)}`,
    ];
    const register = `server.registerTool(${JSON.stringify(entry.name)}, { ${config.join(", ")} }, async (args: any) => text(await ${call}));`;
    body.push(
      conversion.defs.length === 0
        ? `  ${register}`
        : `  {\n${conversion.defs.map((d) => `    ${d}\n`).join("")}    ${register}\n  }`,
    );
  }
  const imports = [...modules].map(
    ([file, ns]) => `import * as ${ns} from ${JSON.stringify(`${sourceDir}/${file}`)};`,
  );
  const code = [
    "// Generated by tools/bench-startup/prepare.ts: the MCP SDK side of the start-up benchmark. Do not edit.",
    'import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";',
    'import { z } from "zod";',
    ...imports,
    "",
    'const text = (value: unknown) => ({ content: [{ type: "text" as const, text: JSON.stringify(value ?? null) }] });',
    "",
    "export function registerTools(server: McpServer): void {",
    ...body,
    "}",
    "",
  ].join("\n");
  return { code, dropped };
}
