/**
 * What the user's path test (user-path.test.ts, add-ons.ts) shares: sizes of what npm installed,
 * the README's "Use it in your project" section, the MCP checks every way of starting the
 * server passes, and the figures it prints and writes (USER_PATH_REPORT=1).
 */
import { lstat, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  StdioClientTransport,
  type StdioServerParameters,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  LoggingMessageNotificationSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";
import { type Tarball, USER_ENV, WORKSPACE } from "./packing.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** In dependency order (@zcp/server's optional peers @zcp/code and @zcp/redis before it); the folder name under packages/. */
export const PACKAGES = ["runtime", "client", "code", "redis", "server", "gen", "agent"] as const;
export type PackageDir = (typeof PACKAGES)[number];

// ---------------------------------------------------------------------------------------------
// Files

/** Bytes under a folder (file sizes, symlinks not followed), and the number of files. */
export async function folderSize(folder: string): Promise<{ bytes: number; files: number }> {
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
export async function installedPackages(project: string): Promise<string[]> {
  const lock = JSON.parse(
    await readFile(path.join(project, "node_modules/.package-lock.json"), "utf8"),
  ) as { packages: Record<string, unknown> };
  return Object.keys(lock.packages).filter((key) => key.startsWith("node_modules/"));
}

/** The package name of a node_modules path (`node_modules/a/node_modules/@s/b` → `@s/b`). */
export function packageName(key: string): string {
  return key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
}

/** Every target an `exports` map names (conditions and subpaths, nested). */
export function exportTargets(exports: unknown): string[] {
  if (typeof exports === "string") return [exports];
  if (exports === null || typeof exports !== "object") return [];
  return Object.values(exports).flatMap(exportTargets);
}

// ---------------------------------------------------------------------------------------------
// The README section

export interface Section {
  source: string;
  text: string;
  /** Blocks whose info string names a file: ```ts src/tools.ts */
  files: Map<string, string>;
  /** The unnamed JSON block with `mcpServers`. */
  hosts: { mcpServers: Record<string, { command: string; args?: string[]; cwd?: string }> };
}

/** The getting-started page's section, with its named file blocks. */
export async function readSection(): Promise<Section> {
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
export const TYPED_CLIENT_CHECK = `import type { ZcpClient } from "@zcp/client";
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
export const STRICTEST = {
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

export const TOOL_NAMES = ["greet", "orders_total", "text_repeat"];

interface McpRun {
  tools: Tool[];
  stderr: string;
}

export async function checkMcp(server: StdioServerParameters, label: string): Promise<McpRun> {
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
      { type: "text", text: "Hi Ada!" },
    ]);
    expect((await call("greet", { name: "Ada", tone: "formal" })).content, label).toEqual([
      { type: "text", text: "Good day, Ada." },
    ]);
    const rude = await call("greet", { name: "Ada", tone: "rude" });
    expect(rude.isError, label).toBe(true);
    expect(JSON.stringify(rude.content), label).toContain("invalid:$.tone");
    expect((await call("text_repeat", { text: "ab", times: 3 })).content, label).toEqual([
      { type: "text", text: "ababab" },
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

export interface Packed extends Tarball {
  dir: PackageDir;
}

export interface Figures {
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

export async function writeReport(figures: Figures): Promise<void> {
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
