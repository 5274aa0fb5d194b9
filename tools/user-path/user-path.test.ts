/**
 * The user's path, taken as a user takes it: every package packed with `pnpm pack`, a new project
 * in a folder outside the workspace, the tarballs installed with npm (no pnpm, no workspace, the
 * workspace's bins off the PATH), the files of docs/getting-started.md's "Use it in your project" section,
 * `npx zcp gen`, `npx tsc`, and the compiled server listed and called by the official MCP SDK
 * client over stdio: `node dist/server.js`, the `zcp-serve` bin, that page's MCP host entries
 * started from another folder, the one-file bundle alone in an empty folder, and `dist/` on a
 * production install (`npm ci --omit=dev`) that holds none of the build tools. Then the add-ons:
 * `@zcp/agent` with the `openai` SDK (a compiled script of the project runs its tools through
 * `runAgent` against a loopback fake of the Responses API), and `@zcp/redis` (`npx zcp-serve
 * --transport http --store redis://…` on a real redis-server, skipped with the reason where none
 * can run and CI is not set). `publint` and `@arethetypeswrong/cli` (profile `esm-only`: the
 * packages are ESM only, deliberately) check every tarball, @zcp/code's too.
 *
 * Figures (tarball contents and sizes, install sizes, the bundle's size) are printed after the
 * run; with USER_PATH_REPORT=1 they are also written to report.json and report.md beside this
 * file. USER_PATH_KEEP=1 keeps the temporary folder and prints its path.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, cp, lstat, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createClient } from "@redis/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  StdioClientTransport,
  type StdioServerParameters,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  LoggingMessageNotificationSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFake } from "../../packages/agent/test/fake/server.js";
import { functionCall, message, response } from "../../packages/agent/test/fake/openai.js";
import { redisAvailable, startRedis } from "../redis-server.js";
import {
  DEV_TOOLS,
  NPM_FLAGS,
  ok,
  ownStderr,
  packPackage,
  run,
  USER_ENV,
  userTemp,
  WORKSPACE,
  type Ran,
  type Tarball,
} from "./packing.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** In dependency order (@zcp/server's optional peers @zcp/code and @zcp/redis before it); the folder name under packages/. */
const PACKAGES = ["runtime", "client", "code", "redis", "server", "gen", "agent"] as const;
type PackageDir = (typeof PACKAGES)[number];
/** The OpenAI SDK a user of @zcp/agent/openai installs beside it (its optional peer). */
const OPENAI_SDK = "openai@6.49.0";
/** Null when a real redis-server can run here, else why not (printed; under CI it throws instead). */
const REDIS_MISSING = redisAvailable();
/** Exact versions of the package linters. */
const LINTERS = ["publint@0.3.25", "@arethetypeswrong/cli@0.18.5"];
/** Nothing of this may reach a production install of @zcp/runtime + @zcp/server. */
const BUILD_ONLY = [
  "tsx",
  "esbuild",
  "typescript",
  "ts-morph",
  "@ts-morph/common",
  "prettier",
  "gpt-tokenizer",
  "@zcp/gen",
  "chokidar",
];
const BUILD_ONLY_SCOPES = ["@esbuild/", "@typescript/"];
/** The placeholder for the project's folder in the README's host entries. */
const PLACEHOLDER = "/path/to/my-tools";
const WRITE_REPORT = process.env.USER_PATH_REPORT === "1";
const KEEP = process.env.USER_PATH_KEEP === "1";

// ---------------------------------------------------------------------------------------------
// Files

/** Bytes under a folder (file sizes, symlinks not followed), and the number of files. */
async function folderSize(folder: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      const inner = await folderSize(file);
      bytes += inner.bytes;
      files += inner.files;
    } else {
      bytes += (await lstat(file)).size;
      files += 1;
    }
  }
  return { bytes, files };
}

/** The packages npm installed, by their node_modules path (from npm's hidden lockfile). */
async function installedPackages(project: string): Promise<string[]> {
  const lock = JSON.parse(
    await readFile(path.join(project, "node_modules/.package-lock.json"), "utf8"),
  ) as { packages: Record<string, unknown> };
  return Object.keys(lock.packages).filter((key) => key.startsWith("node_modules/"));
}

/** The package name of a node_modules path (`node_modules/a/node_modules/@s/b` → `@s/b`). */
function packageName(key: string): string {
  return key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
}

/** Every target an `exports` map names (conditions and subpaths, nested). */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === "string") return [exports];
  if (exports === null || typeof exports !== "object") return [];
  return Object.values(exports).flatMap(exportTargets);
}

// ---------------------------------------------------------------------------------------------
// The README section

interface Section {
  source: string;
  text: string;
  /** Blocks whose info string names a file: ```ts src/tools.ts */
  files: Map<string, string>;
  /** The unnamed JSON block with `mcpServers`. */
  hosts: { mcpServers: Record<string, { command: string; args?: string[]; cwd?: string }> };
}

/** The getting-started page's section, with its named file blocks. */
async function readSection(): Promise<Section> {
  for (const source of ["docs/getting-started.md"]) {
    const markdown = await readFile(path.join(WORKSPACE, source), "utf8");
    const start = markdown.indexOf("## Use it in your project");
    if (start < 0) continue;
    const end = markdown.indexOf("\n## ", start + 1);
    const text = markdown.slice(start, end < 0 ? undefined : end);
    const files = new Map<string, string>();
    let hosts: Section["hosts"] | undefined;
    for (const match of text.matchAll(/^```(\w+)(?: +(\S+))?\n([\s\S]*?)^```$/gm)) {
      const [, , name, body] = match as unknown as [string, string, string | undefined, string];
      if (name !== undefined) files.set(name, body);
      else if (body.includes('"mcpServers"')) hosts = JSON.parse(body) as Section["hosts"];
    }
    if (!files.has("src/tools.ts")) continue;
    if (hosts === undefined)
      throw new Error(`${source}: "Use it in your project" has no JSON block with "mcpServers"`);
    return { source, text, files, hosts };
  }
  throw new Error(
    'no "Use it in your project" section with a ```ts src/tools.ts block in docs/getting-started.md',
  );
}

/** Written by the test only (not in the README): generated types reject wrong calls at compile time. */
const TYPED_CLIENT_CHECK = `import type { ZcpClient } from "@zcp/client";
import type { ToolArgs, ToolResults } from "./zcp.gen/types.js";

export async function typedCalls(client: ZcpClient<ToolArgs, ToolResults>): Promise<number> {
  const result = await client.call("orders.total", { lines: [{ sku: "tea", qty: 1, price: 350 }], discount: 5 });
  await client.call("greet", { name: "Ada", tone: "formal" });
  // @ts-expect-error tone is formal or casual
  await client.call("greet", { name: "Ada", tone: "rude" });
  // @ts-expect-error no such tool
  await client.call("orders.cancel", {});
  // @ts-expect-error lines are required
  await client.call("orders.total", { discount: 5 });
  // @ts-expect-error times is a number
  await client.call("text.repeat", { text: "a", times: "2" });
  return result.ok && "value" in result ? result.value.total + result.value.count : 0;
}
`;

/** Flags of the strictest user tsconfigs (as in @tsconfig/strictest): generated code must compile under them too. */
const STRICTEST = {
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitReturns: true,
  noImplicitOverride: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noFallthroughCasesInSwitch: true,
  isolatedModules: true,
  verbatimModuleSyntax: true,
  noEmit: true,
};

// ---------------------------------------------------------------------------------------------
// The MCP checks, the same for every way of starting the server

const TOOL_NAMES = ["greet", "orders_total", "text_repeat"];

interface McpRun {
  tools: Tool[];
  stderr: string;
}

async function checkMcp(server: StdioServerParameters, label: string): Promise<McpRun> {
  const client = new Client({ name: "user-path", version: "1.0.0" });
  const logs: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(String(notification.params.data));
  });
  const transport = new StdioClientTransport({ env: USER_ENV, ...server, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort(), label).toEqual(TOOL_NAMES);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const orders = byName.get("orders_total")!;
    expect(Object.keys(orders.inputSchema.properties ?? {}), label).toEqual(["lines", "discount"]);
    expect(orders.inputSchema.required, label).toEqual(["lines"]);
    expect(
      (orders.inputSchema.properties as Record<string, { default?: unknown }>).discount!.default,
      label,
    ).toBe(0);
    expect(orders.outputSchema?.properties, label).toHaveProperty("total");
    expect(orders.annotations, label).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    const greet = byName.get("greet")!;
    expect((greet.inputSchema.properties as Record<string, unknown>).tone, label).toMatchObject({
      enum: ["formal", "casual"],
      default: "casual",
    });
    expect(byName.get("text_repeat")!.inputSchema.properties, label).not.toHaveProperty("context");

    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;
    const total = await call("orders_total", {
      lines: [
        { sku: "tea", qty: 2, price: 350 },
        { sku: "cake", qty: 1, price: 500 },
      ],
      discount: 10,
    });
    expect(total.isError ?? false, label).toBe(false);
    expect(total.structuredContent, label).toEqual({ total: 1080, count: 2 });
    expect(total.content, label).toEqual([{ type: "text", text: '{"total":1080,"count":2}' }]);
    expect(
      (await call("orders_total", { lines: [{ sku: "tea", qty: 2, price: 350 }] }))
        .structuredContent,
      label,
    ).toEqual({ total: 700, count: 1 });
    expect((await call("greet", { name: "Ada" })).content, label).toEqual([
      { type: "text", text: '"Hi Ada!"' },
    ]);
    expect((await call("greet", { name: "Ada", tone: "formal" })).content, label).toEqual([
      { type: "text", text: '"Good day, Ada."' },
    ]);
    const rude = await call("greet", { name: "Ada", tone: "rude" });
    expect(rude.isError, label).toBe(true);
    expect(JSON.stringify(rude.content), label).toContain("invalid:$.tone");
    expect((await call("text_repeat", { text: "ab", times: 3 })).content, label).toEqual([
      { type: "text", text: '"ababab"' },
    ]);
    const fraction = await call("text_repeat", { text: "ab", times: 2.5 });
    expect(fraction.isError, label).toBe(true);
    expect(JSON.stringify(fraction.content), label).toContain("invalid:$.times");
    expect(logs, label).toContain("repeating 3 times");
    return { tools, stderr };
  } catch (error) {
    (error as Error).message += `\n--- ${label}: server stderr\n${stderr}`;
    throw error;
  } finally {
    await client.close();
  }
}

// ---------------------------------------------------------------------------------------------
// @zcp/agent: a user's script, and the loopback fake of the OpenAI Responses API it talks to

/** Written by the test: the project's own registry served to a model through @zcp/agent/openai's loop. */
const AGENT_SCRIPT = `import OpenAI from "openai";
import { createRuntime } from "@zcp/runtime";
import { runAgent } from "@zcp/agent/openai";
import generated from "./zcp.gen/index.js";

const client = new OpenAI({ baseURL: process.argv[2], apiKey: "not-needed-with-the-fake" });
const result = await runAgent({
  client,
  session: createRuntime(generated).session(),
  model: "gpt-test",
  instructions: "You price orders with the tools you have.",
  input: "What do two teas at 350 cents cost with a 10% discount?",
});
for (const outcome of result.outcomes)
  console.log(\`\${outcome.call.name} \${outcome.call.arguments} -> \${outcome.text}\`);
console.log(\`answer (\${result.stop}, \${result.turns} turns): \${result.text}\`);
console.log(\`usage: \${JSON.stringify(result.usage)}; last response \${result.lastResponseId}\`);
`;

// ---------------------------------------------------------------------------------------------
// @zcp/redis: what the test reads from Redis itself

/** `KEYS <pattern>` on the Redis at `url`, sorted. */
async function redisKeys(url: string, pattern: string): Promise<string[]> {
  const client = createClient({ url });
  await client.connect();
  try {
    return (await client.keys(pattern)).sort();
  } finally {
    await client.close();
  }
}

// ---------------------------------------------------------------------------------------------

interface Packed extends Tarball {
  dir: PackageDir;
}

interface Figures {
  node: string;
  npm: string;
  tarballs: Omit<Packed, "manifest" | "unpacked" | "tarball">[];
  steps: Record<string, number>;
  project?: { packages: number; bytes: number };
  production?: {
    packages: number;
    bytes: number;
    zcpBytes: number;
    largest: { name: string; bytes: number }[];
    names: string[];
  };
  bundle?: { bytes: number; minifiedBytes: number };
  publint: Record<string, string>;
  attw: Record<string, { problems: string[] }>;
}

describe("the user's path: packed tarballs, npm, a new project outside the workspace", () => {
  let tmp: string;
  let packs: string;
  let project: string;
  let elsewhere: string;
  let section: Section;
  const packed = new Map<PackageDir, Packed>();
  const figures: Figures = {
    node: process.version,
    npm: "",
    tarballs: [],
    steps: {},
    publint: {},
    attw: {},
  };
  let lint: string;
  let lintInstall: Promise<Ran>;
  const tarball = (dir: PackageDir): string => packed.get(dir)!.tarball;

  beforeAll(async () => {
    // Outside the workspace; nothing above it may resolve a package or configure a project.
    tmp = await userTemp("zcp-user-path-");
    packs = path.join(tmp, "packs");
    project = path.join(tmp, "my-tools");
    elsewhere = path.join(tmp, "elsewhere");
    lint = path.join(tmp, "lint");
    await Promise.all(
      [packs, project, elsewhere, lint].map((folder) => mkdir(folder, { recursive: true })),
    );
    figures.npm = (await ok("npm", ["--version"], { cwd: tmp })).stdout.trim();
    section = await readSection();

    // The linters install while the packages are packed and the project installs.
    await writeFile(
      path.join(lint, "package.json"),
      JSON.stringify({ name: "lint", private: true }, null, 2),
    );
    lintInstall = ok("npm", ["install", ...NPM_FLAGS, ...LINTERS], { cwd: lint });
    lintInstall.catch(() => {}); // awaited by the lint tests

    let started = performance.now();
    for (const dir of PACKAGES) {
      const entry: Packed = {
        dir,
        ...(await packPackage(
          path.join(WORKSPACE, "packages", dir),
          packs,
          path.join(tmp, "unpacked", dir),
        )),
      };
      packed.set(dir, entry);
      const { manifest: _manifest, unpacked: _unpacked, tarball: _tarball, ...figure } = entry;
      figures.tarballs.push(figure);
    }
    figures.steps[`pnpm pack (${PACKAGES.length} packages)`] = Math.round(
      performance.now() - started,
    );

    // The project: the README's files, then npm install of the tarballs and the dev tools.
    for (const [name, body] of section.files) {
      await mkdir(path.dirname(path.join(project, name)), { recursive: true });
      await writeFile(path.join(project, name), body);
    }
    await writeFile(path.join(project, "src/typed-client.check.ts"), TYPED_CLIENT_CHECK);
    started = performance.now();
    // @zcp/client is not on the registry yet: its tarball goes in too (the section's native client, and the typed-client check, install it).
    await ok(
      "npm",
      ["install", ...NPM_FLAGS, tarball("runtime"), tarball("server"), tarball("client")],
      { cwd: project },
    );
    figures.steps["npm install @zcp/runtime @zcp/server @zcp/client"] = Math.round(
      performance.now() - started,
    );
    started = performance.now();
    await ok("npm", ["install", "-D", ...NPM_FLAGS, tarball("gen"), ...DEV_TOOLS], {
      cwd: project,
    });
    figures.steps[`npm install -D @zcp/gen ${DEV_TOOLS.join(" ")}`] = Math.round(
      performance.now() - started,
    );
    figures.project = {
      packages: (await installedPackages(project)).length,
      bytes: (await folderSize(path.join(project, "node_modules"))).bytes,
    };
  }, 300_000);

  afterAll(async () => {
    const lines = [
      `user path (node ${figures.node}, npm ${figures.npm})`,
      ...figures.tarballs.map(
        (t) =>
          `  ${t.name}@${t.version}: tarball ${t.bytes} B, unpacked ${t.unpackedBytes} B in ${t.files.length} files (${t.declarationMapBytes} B of .d.ts.map)`,
      ),
      ...(figures.project
        ? [`  project install: ${figures.project.packages} packages, ${figures.project.bytes} B`]
        : []),
      ...(figures.production
        ? [
            `  production install (npm ci --omit=dev): ${figures.production.packages} packages, ${figures.production.bytes} B (@zcp: ${figures.production.zcpBytes} B)`,
          ]
        : []),
      ...(figures.bundle
        ? [
            `  bundle/server.mjs: ${figures.bundle.bytes} B (${figures.bundle.minifiedBytes} B with --minify)`,
          ]
        : []),
      ...Object.entries(figures.steps).map(([step, ms]) => `  ${step}: ${ms} ms`),
    ];
    console.log(lines.join("\n"));
    if (WRITE_REPORT) await writeReport(figures);
    if (KEEP) console.log(`kept ${tmp}`);
    else if (tmp) await rm(tmp, { recursive: true, force: true });
  }, 60_000);

  it("packs every package with versions instead of workspace: ranges, and what exports and bin name in the tarball", () => {
    const versions = new Map([...packed.values()].map((entry) => [entry.name, entry.version]));
    for (const entry of packed.values()) {
      const text = JSON.stringify(entry.manifest);
      expect(text, entry.name).not.toContain("workspace:");
      expect(entry.manifest.type, entry.name).toBe("module");
      for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
        for (const [dependency, range] of Object.entries(
          (entry.manifest[field] ?? {}) as Record<string, string>,
        )) {
          if (versions.has(dependency))
            expect(range, `${entry.name} ${field} ${dependency}`).toBe(versions.get(dependency));
        }
      }
      const paths = new Set(entry.files.map((file) => file.path));
      const targets = [
        ...exportTargets(entry.manifest.exports),
        ...Object.values((entry.manifest.bin ?? {}) as Record<string, string>),
      ];
      expect(targets.length, entry.name).toBeGreaterThan(0);
      for (const target of targets)
        expect(
          paths.has(path.posix.normalize(target)),
          `${entry.name}: ${target} in the tarball`,
        ).toBe(true);
      for (const bin of Object.values((entry.manifest.bin ?? {}) as Record<string, string>)) {
        expect(
          readFileSync(path.join(entry.unpacked, bin), "utf8").split("\n")[0],
          `${entry.name}: ${bin}`,
        ).toBe("#!/usr/bin/env node");
      }
      // Only the build output and the package's documents: no sources, tests or build info.
      for (const file of paths)
        expect(file, entry.name).toMatch(
          /^(dist\/.*\.(js|d\.ts|d\.ts\.map)|package\.json|README\.md|LICENSE)$/,
        );
    }
  });

  it("ships every package's README and LICENSE", () => {
    for (const entry of packed.values()) {
      const paths = entry.files.map((file) => file.path);
      expect(paths, `${entry.name} tarball`).toContain("LICENSE");
      expect(paths, `${entry.name} tarball (package.json "files" lists README.md)`).toContain(
        "README.md",
      );
    }
  });

  it("the README section names what this test installs and runs", () => {
    for (const text of [
      '"type": "module"',
      "npm install @zcp/runtime @zcp/server",
      "npm install -D @zcp/gen typescript @types/node esbuild",
      "npm install @zcp/client",
      "npm run build",
      "npm run bundle",
      "npx zcp-serve --registry dist/zcp.gen/index.js",
      "--omit=dev",
    ]) {
      expect(section.text, `${section.source}: ${text}`).toContain(text);
    }
    expect([...section.files.keys()].sort()).toEqual([
      "package.json",
      "src/client.ts",
      "src/server.ts",
      "src/tools.ts",
      "tsconfig.json",
      "zcp.config.json",
    ]);
  });

  it("npx zcp gen writes the registry, and --check finds it fresh", async () => {
    const gen = await ok("npx", ["zcp", "gen"], { cwd: project });
    figures.steps["npx zcp gen"] = gen.ms;
    expect(gen.stdout).toMatch(/^zcp gen: 3 tools, registry [0-9a-f]{12}; /);
    expect(ownStderr(gen)).toBe("");
    for (const file of ["index.ts", "registry.ts", "dispatch.ts", "validators.ts", "types.ts"])
      expect(existsSync(path.join(project, "src/zcp.gen", file)), file).toBe(true);
    const registry = await readFile(path.join(project, "src/zcp.gen/registry.ts"), "utf8");
    expect(registry).toContain(
      '"TOOL @25il51 greet(name:str, tone:formal|casual=casual) -> scalar"',
    );
    expect(registry).toContain(
      "orders.total(lines:{sku:str,qty:int,price:num}[], discount:num=0) -> scalar",
    );
    expect(registry).toContain("text.repeat(text:str, times:int) -> scalar");
    const check = await ok("npx", ["zcp", "gen", "--check"], { cwd: project });
    expect(ownStderr(check)).toBe("");
  }, 120_000);

  it("npx tsc compiles the project, generated code and the packages' declarations included, with no output", async () => {
    const tsc = await run("npx", ["tsc"], { cwd: project });
    figures.steps["npx tsc"] = tsc.ms;
    expect({ code: tsc.code, output: tsc.stdout + ownStderr(tsc) }).toEqual({
      code: 0,
      output: "",
    });
    for (const file of [
      "dist/server.js",
      "dist/tools.js",
      "dist/client.js",
      "dist/zcp.gen/index.js",
    ])
      expect(existsSync(path.join(project, file)), file).toBe(true);
    // skipLibCheck is off in the README's tsconfig: the shipped .d.ts files are checked too.
    expect(section.files.get("tsconfig.json")).not.toContain("skipLibCheck");
  }, 120_000);

  it("npm run build runs zcp gen && tsc from the package.json scripts", async () => {
    const build = await ok("npm", ["run", "build"], { cwd: project });
    figures.steps["npm run build (again)"] = build.ms;
  }, 120_000);

  it("node dist/server.js serves MCP on stdio to the official SDK client", async () => {
    const started = performance.now();
    await checkMcp(
      { command: "node", args: ["dist/server.js"], cwd: project },
      "node dist/server.js",
    );
    figures.steps["MCP session: node dist/server.js"] = Math.round(performance.now() - started);
  }, 60_000);

  it("npx zcp-serve --registry dist/zcp.gen/index.js serves the same", async () => {
    const started = performance.now();
    const { stderr } = await checkMcp(
      { command: "npx", args: ["zcp-serve", "--registry", "dist/zcp.gen/index.js"], cwd: project },
      "npx zcp-serve",
    );
    expect(stderr).toContain("zcp-serve: 3 tools on surface mcp");
    figures.steps["MCP session: npx zcp-serve"] = Math.round(performance.now() - started);
  }, 60_000);

  it("the README's gateway: zcp gen --from-mcp, then zcp-serve, in front of a real MCP server", async () => {
    // The README's two commands, with the memory server from the workspace instead of `npx -y`.
    const memory = path.join(
      path.dirname(
        createRequire(path.join(WORKSPACE, "packages/server/package.json")).resolve(
          "@modelcontextprotocol/server-memory/package.json",
        ),
      ),
      "dist/index.js",
    );
    const gateway = path.join(project, "gateway");
    await mkdir(gateway, { recursive: true });
    await ok("npx", ["zcp", "gen", "--from-mcp", `node ${JSON.stringify(memory)}`], {
      cwd: gateway,
    });
    const client = new Client({ name: "user-path", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        env: USER_ENV,
        command: "npx",
        args: ["zcp-serve", "--registry", "zcp.gen/index.js"],
        cwd: gateway,
        stderr: "pipe",
      }),
    );
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("memory_server_read_graph");
      const graph = await client.callTool({ name: "memory_server_read_graph", arguments: {} });
      expect(graph.isError).toBeUndefined();
      expect(graph.structuredContent).toHaveProperty("entities");
    } finally {
      await client.close();
    }
  }, 120_000);

  it("the README's MCP host entries work when a host starts them from another folder", async () => {
    const entries = Object.entries(section.hosts.mcpServers);
    expect(entries.length).toBeGreaterThanOrEqual(2);
    for (const [name, entry] of entries) {
      const args = (entry.args ?? []).map((arg) => arg.replaceAll(PLACEHOLDER, project));
      expect(args.join(" "), name).toContain(project);
      await checkMcp(
        {
          command: entry.command,
          args,
          cwd: entry.cwd?.replaceAll(PLACEHOLDER, project) ?? elsewhere,
        },
        `host entry ${name}`,
      );
    }
  }, 120_000);

  it("the native client (src/client.ts) lists planner lines and calls with generated types", async () => {
    const ran = await ok("node", ["dist/client.js"], { cwd: project, timeoutMs: 60_000 });
    const lines = ran.stdout.trim().split("\n");
    expect(lines.filter((line) => line.startsWith("TOOL @"))).toHaveLength(3);
    expect(JSON.parse(lines.at(-1)!)).toEqual({ ok: true, value: { total: 700, count: 1 } });
    expect(ran.stderr).toContain("zcp-serve: serving native ZCP on stdio");
  }, 60_000);

  it("npm run bundle makes one ESM file that runs alone in an empty folder", async () => {
    const bundle = await ok("npm", ["run", "bundle"], { cwd: project });
    figures.steps["npm run bundle"] = bundle.ms;
    const file = path.join(project, "bundle/server.mjs");
    const code = await readFile(file, "utf8");
    // A CJS dependency's require() of a Node built-in becomes esbuild's __require shim, which throws "Dynamic require of ... is not
    // supported" in ESM unless the bundle gets a createRequire banner. There is none of it: the README's command needs no banner.
    expect(
      code.includes("Dynamic require of"),
      "the bundle has esbuild's dynamic-require shim: it needs a createRequire banner",
    ).toBe(false);
    const alone = path.join(tmp, "bundle-alone");
    await mkdir(alone);
    await copyFile(file, path.join(alone, "server.mjs"));
    expect(await readdir(alone)).toEqual(["server.mjs"]);
    await checkMcp({ command: "node", args: ["server.mjs"], cwd: alone }, "bundle alone");
    await ok(
      "npx",
      [
        "esbuild",
        "dist/server.js",
        "--bundle",
        "--platform=node",
        "--format=esm",
        "--minify",
        "--outfile=bundle/server.min.mjs",
      ],
      { cwd: project },
    );
    figures.bundle = {
      bytes: (await lstat(file)).size,
      minifiedBytes: (await lstat(path.join(project, "bundle/server.min.mjs"))).size,
    };
  }, 60_000);

  it("a production install (npm ci --omit=dev) has none of the build tools, and dist/ runs on it", async () => {
    const deploy = path.join(tmp, "deploy");
    await mkdir(deploy);
    const manifest = JSON.parse(await readFile(path.join(project, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      "@zcp/client",
      "@zcp/runtime",
      "@zcp/server",
    ]);
    expect(Object.keys(manifest.devDependencies).sort()).toEqual([
      "@types/node",
      "@zcp/gen",
      "esbuild",
      "typescript",
    ]);
    await copyFile(path.join(project, "package.json"), path.join(deploy, "package.json"));
    await copyFile(path.join(project, "package-lock.json"), path.join(deploy, "package-lock.json"));
    const ci = await ok(
      "npm",
      ["ci", "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline"],
      { cwd: deploy },
    );
    figures.steps["npm ci --omit=dev"] = ci.ms;
    const keys = await installedPackages(deploy);
    const names = [...new Set(keys.map(packageName))].sort();
    const found = names.filter(
      (name) =>
        BUILD_ONLY.includes(name) || BUILD_ONLY_SCOPES.some((scope) => name.startsWith(scope)),
    );
    expect(found).toEqual([]);
    for (const name of BUILD_ONLY)
      expect(existsSync(path.join(deploy, "node_modules", name)), name).toBe(false);
    expect(names).toEqual(
      expect.arrayContaining([
        "@zcp/runtime",
        "@zcp/server",
        "@zcp/client",
        "@modelcontextprotocol/server",
        "@modelcontextprotocol/client",
      ]),
    );
    // The v1 SDK is the tests' 2025 client only: nothing in production needs it.
    expect(names).not.toContain("@modelcontextprotocol/sdk");
    figures.production = {
      packages: keys.length,
      bytes: (await folderSize(path.join(deploy, "node_modules"))).bytes,
      zcpBytes: (await folderSize(path.join(deploy, "node_modules/@zcp"))).bytes,
      largest: (
        await Promise.all(
          names.map(async (name) => ({
            name,
            bytes: (await folderSize(path.join(deploy, "node_modules", name))).bytes,
          })),
        )
      )
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 8),
      names,
    };
    await cp(path.join(project, "dist"), path.join(deploy, "dist"), { recursive: true });
    await checkMcp(
      { command: "node", args: ["dist/server.js"], cwd: deploy },
      "production install",
    );
  }, 120_000);

  it("publint passes on every tarball (--strict: warnings fail too)", async () => {
    await lintInstall;
    await Promise.all(
      [...packed.values()].map(async (entry) => {
        const ran = await ok("npx", ["publint", "run", "--strict", entry.tarball], { cwd: lint });
        figures.publint[entry.name] = ran.stdout.trim().split("\n").at(-1)!;
        expect(ran.stdout, entry.name).toContain("All good!");
      }),
    );
  }, 120_000);

  it("@arethetypeswrong/cli passes on every tarball with --profile esm-only (the packages are ESM only)", async () => {
    await lintInstall;
    await Promise.all(
      [...packed.values()].map(async (entry) => {
        const ran = await run(
          "npx",
          ["attw", entry.tarball, "--profile", "esm-only", "--format", "json"],
          { cwd: lint },
        );
        const json = JSON.parse(ran.stdout) as {
          analysis: { problems: { kind: string; entrypoint: string; resolutionKind?: string }[] };
        };
        const problems = json.analysis.problems.map(
          (problem) => `${problem.kind} ${problem.entrypoint} (${problem.resolutionKind ?? "-"})`,
        );
        figures.attw[entry.name] = { problems };
        expect(ran.code, `${entry.name}: ${problems.join(", ")}\n${ran.stderr}`).toBe(0);
        // What the strict profile would add are the CommonJS and node10 resolutions only: ESM only, by design.
        for (const problem of json.analysis.problems)
          expect(["node10", "node16-cjs"], `${entry.name}: ${problem.kind}`).toContain(
            problem.resolutionKind,
          );
      }),
    );
  }, 120_000);

  it("the generated code also compiles under the strictest user tsconfig flags", async () => {
    const base = JSON.parse(section.files.get("tsconfig.json")!) as {
      compilerOptions: Record<string, unknown>;
    };
    const strictest = { ...base, compilerOptions: { ...base.compilerOptions, ...STRICTEST } };
    await writeFile(
      path.join(project, "tsconfig.strictest.json"),
      JSON.stringify(strictest, null, 2),
    );
    const tsc = await run("npx", ["tsc", "-p", "tsconfig.strictest.json"], { cwd: project });
    expect({ code: tsc.code, output: tsc.stdout + ownStderr(tsc) }).toEqual({
      code: 0,
      output: "",
    });
  }, 120_000);

  // The two steps below add dependencies to the project: they come after the production install, which checks its exact list.

  it("npm install @zcp/agent openai: a script runs the project's tools through runAgent of @zcp/agent/openai", async () => {
    const install = await ok("npm", ["install", ...NPM_FLAGS, tarball("agent"), OPENAI_SDK], {
      cwd: project,
    });
    figures.steps[`npm install @zcp/agent ${OPENAI_SDK}`] = install.ms;
    // A TypeScript file of the project: tsc checks @zcp/agent's declarations against the real SDK's (skipLibCheck off).
    await writeFile(path.join(project, "src/agent.ts"), AGENT_SCRIPT);
    const tsc = await run("npx", ["tsc"], { cwd: project });
    expect({ code: tsc.code, output: tsc.stdout + ownStderr(tsc) }).toEqual({
      code: 0,
      output: "",
    });
    const fake = await startFake();
    fake.script(
      "/v1/responses",
      {
        json: response(
          [
            functionCall(
              "call_1",
              "orders_total",
              '{"lines":[{"sku":"tea","qty":2,"price":350}],"discount":10}',
            ),
          ],
          "resp_1",
        ),
      },
      { json: response([message("630 cents for both.")], "resp_2") },
    );
    try {
      const ran = await ok("node", ["dist/agent.js", `${fake.url}/v1`], {
        cwd: project,
        timeoutMs: 60_000,
      });
      figures.steps["node dist/agent.js (runAgent, 2 turns on a fake OpenAI)"] = ran.ms;
      expect(ownStderr(ran)).toBe("");
      expect(ran.stdout.trim().split("\n")).toEqual([
        'orders_total {"lines":[{"sku":"tea","qty":2,"price":350}],"discount":10} -> {"ok":true,"value":{"total":630,"count":1}}',
        "answer (answer, 2 turns): 630 cents for both.",
        'usage: {"inputTokens":20,"outputTokens":10,"cachedInputTokens":0}; last response resp_2',
      ]);
      // The wire: the project's three tools in the first request, the call's output with previous_response_id in the second.
      expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
        "POST /v1/responses",
        "POST /v1/responses",
      ]);
      const [first, second] = fake.bodies("/v1/responses") as Record<string, unknown>[];
      expect(first).toMatchObject({ model: "gpt-test" });
      expect(
        (first!.tools as { type: string; name: string }[]).map((tool) => tool.name).sort(),
      ).toEqual(TOOL_NAMES);
      expect(second).toMatchObject({
        previous_response_id: "resp_1",
        input: [
          {
            type: "function_call_output",
            call_id: "call_1",
            output: '{"ok":true,"value":{"total":630,"count":1}}',
          },
        ],
      });
    } finally {
      await fake.close();
    }
  }, 180_000);

  it.skipIf(REDIS_MISSING !== null)(
    "npm install @zcp/redis: npx zcp-serve --store redis://… serves over HTTP with its sessions in a real redis-server",
    async () => {
      const install = await ok("npm", ["install", ...NPM_FLAGS, tarball("redis")], {
        cwd: project,
      });
      figures.steps["npm install @zcp/redis"] = install.ms;
      const redis = await startRedis();
      const started = performance.now();
      // Its own process group: npx runs the bin in a child, and the group is stopped together.
      const child = spawn(
        "npx",
        [
          "zcp-serve",
          "--registry",
          "dist/zcp.gen/index.js",
          "--transport",
          "http",
          "--port",
          "0",
          "--store",
          redis.url,
        ],
        { cwd: project, env: USER_ENV, detached: true, stdio: ["ignore", "pipe", "pipe"] },
      );
      let stderr = "";
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      try {
        // Port 0: the port the OS chose is in the log line.
        const url = await new Promise<URL>((resolve, reject) => {
          child.stderr.on("data", (chunk: Buffer) => {
            stderr += chunk.toString("utf8");
            const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
            if (match) resolve(new URL(match[1]!));
          });
          void exited.then((code) => reject(new Error(`zcp-serve exited (${code}): ${stderr}`)));
        });
        const ready = await fetch(new URL("/readyz", url));
        expect({ status: ready.status, body: await ready.json() }).toEqual({
          status: 200,
          body: { status: "ready" },
        });
        const client = new Client({ name: "user-path", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(url));
        try {
          expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
            TOOL_NAMES,
          );
          const total = (await client.callTool({
            name: "orders_total",
            arguments: { lines: [{ sku: "tea", qty: 2, price: 350 }], discount: 10 },
          })) as CallToolResult;
          expect(total.structuredContent).toEqual({ total: 630, count: 1 });
          // The session's state is in Redis, not in the process.
          expect(await redisKeys(redis.url, "zcp:session:*")).toHaveLength(1);
        } finally {
          await client.close();
        }
        figures.steps["zcp-serve --store redis://…: ready, MCP session over HTTP"] = Math.round(
          performance.now() - started,
        );
      } catch (error) {
        (error as Error).message += `\n--- zcp-serve stderr\n${stderr}`;
        throw error;
      } finally {
        if (child.exitCode === null && child.signalCode === null)
          process.kill(-child.pid!, "SIGTERM");
        await exited;
        await redis.stop();
      }
    },
    180_000,
  );
});

async function writeReport(figures: Figures): Promise<void> {
  await writeFile(path.join(HERE, "report.json"), `${JSON.stringify(figures, null, 2)}\n`);
  const kb = (bytes: number) =>
    bytes >= 1024 * 1024
      ? `${(bytes / 1024 / 1024).toFixed(1)} MiB`
      : `${(bytes / 1024).toFixed(1)} KiB`;
  const md = [
    "# The user's path: figures",
    "",
    `Written by \`USER_PATH_REPORT=1 pnpm vitest run tools/user-path/\` (node ${figures.node}, npm ${figures.npm}).`,
    "",
    "## Tarballs (`pnpm pack`)",
    "",
    "| package | tarball | unpacked | files | of which .d.ts.map | publint | attw --profile esm-only: problems outside the profile |",
    "| --- | ---: | ---: | ---: | ---: | --- | --- |",
    ...figures.tarballs.map(
      (t) =>
        `| ${t.name}@${t.version} | ${t.bytes} B (${kb(t.bytes)}) | ${t.unpackedBytes} B (${kb(t.unpackedBytes)}) | ${t.files.length} | ${t.declarationMapBytes} B | ${figures.publint[t.name] ?? "-"} | ${figures.attw[t.name] ? (figures.attw[t.name]!.problems.length === 0 ? "none" : `${figures.attw[t.name]!.problems.length} ignored (node10, node16-cjs)`) : "-"} |`,
    ),
    "",
    "## Installs and the bundle",
    "",
    "| what | packages | bytes |",
    "| --- | ---: | ---: |",
    ...(figures.project
      ? [
          `| the project (dependencies and dev tools) | ${figures.project.packages} | ${figures.project.bytes} (${kb(figures.project.bytes)}) |`,
        ]
      : []),
    ...(figures.production
      ? [
          `| production, \`npm ci --omit=dev\` | ${figures.production.packages} | ${figures.production.bytes} (${kb(figures.production.bytes)}), of which @zcp ${figures.production.zcpBytes} |`,
        ]
      : []),
    ...(figures.bundle
      ? [
          `| \`bundle/server.mjs\` (esbuild, one ESM file) | - | ${figures.bundle.bytes} (${kb(figures.bundle.bytes)}); ${figures.bundle.minifiedBytes} with --minify |`,
        ]
      : []),
    "",
    "## Steps (ms)",
    "",
    "| step | ms |",
    "| --- | ---: |",
    ...Object.entries(figures.steps).map(([step, ms]) => `| ${step} | ${ms} |`),
    "",
    "## Tarball contents",
    "",
    ...figures.tarballs.flatMap((t) => [
      `### ${t.name}`,
      "",
      "```",
      ...t.files.map((file) => `${String(file.bytes).padStart(8)}  ${file.path}`),
      "```",
      "",
    ]),
    ...(figures.production
      ? [
          "## Production install",
          "",
          `Largest packages: ${figures.production.largest.map((entry) => `${entry.name} ${kb(entry.bytes)}`).join(", ")}.`,
          "",
          `All ${figures.production.packages}: ${figures.production.names.join(", ")}.`,
          "",
        ]
      : []),
  ];
  await writeFile(path.join(HERE, "report.md"), md.join("\n"));
}
