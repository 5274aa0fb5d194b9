/**
 * The tests' stand-in for `zcp gen --from-mcp`: lists an upstream's tools with the SDK client
 * (in either MCP era: it probes, as zcp gen does) and models them as a generated module whose
 * dispatch is a real `upstream(...)`, as the generated `dispatch.ts` of a gateway project is.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { GeneratedModule, OutputMode, ToolContext, ToolDefinition } from "@zcp/runtime";
import {
  combineToolHashes,
  deriveId,
  providerName,
  REGISTRY_FORMAT_VERSION,
  renderPlannerLine,
  toolHash,
  type JsonSchema,
} from "@zcp/runtime/definition";
import {
  expandServer,
  upstream,
  type Upstream,
  type UpstreamOptions,
  type UpstreamServer,
} from "../src/gateway/index.js";

const require = createRequire(import.meta.url);

/** The upstreams of the package's devDependencies: each one's package.json. */
const PACKAGES = {
  memory: require.resolve("@modelcontextprotocol/server-memory/package.json"),
  everything: require.resolve("@modelcontextprotocol/server-everything/package.json"),
  filesystem: require.resolve("@modelcontextprotocol/server-filesystem/package.json"),
};

/** `node <package>/dist/index.js ...args`: an upstream from the workspace's devDependencies. */
export function npmServer(
  pkg: keyof typeof PACKAGES,
  ...args: string[]
): { command: string; args: string[] } {
  const main = path.join(path.dirname(PACKAGES[pkg]), "dist/index.js");
  return { command: process.execPath, args: [main, ...args] };
}

const ERA_UPSTREAM = fileURLToPath(new URL("./era-upstream.ts", import.meta.url));
/** tsx's loader by its path: an upstream started by zcp-serve may run where `tsx` does not resolve. */
const TSX = fileURLToPath(new URL("../../../node_modules/tsx/dist/loader.mjs", import.meta.url));

/** The era upstream (era-upstream.ts) over stdio, as the gateway describes it. */
export const stdioEra = (era: string) => ({
  command: process.execPath,
  args: ["--import", TSX, ERA_UPSTREAM, "stdio", era],
});

/** The era upstream over HTTP, started on `port` (0: any); resolves once it listens. */
export async function httpEra(
  era: string,
  port = 0,
): Promise<{ url: string; port: number; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    ["--import", TSX, ERA_UPSTREAM, "http", era, String(port)],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const listening = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`era-upstream exited (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${listening}/mcp`,
    port: listening,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}

/** A context for calling an `Upstream` directly: never aborted, progress and logs dropped. */
export const CALL_CONTEXT = {
  sessionId: "s",
  signal: new AbortController().signal,
  progress: () => undefined,
  log: () => undefined,
} as unknown as ToolContext;

export interface GatewayModule {
  readonly module: GeneratedModule;
  readonly upstream: Upstream;
}

/** The upstream's tools as a module, aliased `<name>.<tool>` (`-` made `_`), with `modes` overriding outputs (default `auto`). */
export async function gatewayModule(
  server: UpstreamServer,
  name: string,
  modes: { readonly [tool: string]: OutputMode } = {},
): Promise<GatewayModule> {
  const client = new Client(
    { name: "zcp-test-lister", version: "0" },
    { versionNegotiation: { mode: "auto" } },
  );
  const expanded = expandServer(server, process.env);
  await client.connect(
    "url" in expanded
      ? new StreamableHTTPClientTransport(new URL(expanded.url))
      : new StdioClientTransport({
          command: expanded.command,
          args: [...(expanded.args ?? [])],
          env: { ...expanded.env },
          stderr: "ignore",
        }),
  );
  const { tools: listed } = await client.listTools();
  await client.close();
  const shared = upstream(server, { name });
  const tools = listed
    .map((tool): ToolDefinition => {
      const alias = `${name}.${tool.name.replace(/-/g, "_")}`;
      const { $schema: _, ...inputSchema } = tool.inputSchema as Record<string, unknown>;
      const base = {
        id: deriveId(alias),
        alias,
        name: providerName(alias),
        title: tool.title ?? null,
        descriptionShort: tool.description ?? "",
        description: tool.description ?? "",
        inputSchema: inputSchema as JsonSchema,
        outputSchema: null,
        outputMode: modes[tool.name] ?? "auto",
        handleKind: "generic",
        handleParams: {},
        defaults: {},
        flags: [],
        groups: [],
        stages: [],
        scopes: [],
        deprecated: null,
        call: { kind: "object", context: 1 },
        dates: [],
      } satisfies Omit<ToolDefinition, "hash" | "source" | "planner" | "plannerBare">;
      const withLines = {
        ...base,
        planner: renderPlannerLine(base),
        plannerBare: renderPlannerLine(base, { paramDocs: false, toolDocs: false }),
      };
      return {
        ...withLines,
        hash: toolHash(withLines),
        source: { file: `mcp:${name}`, export: tool.name },
      };
    })
    .sort((a, b) => (a.alias < b.alias ? -1 : 1));
  return {
    upstream: shared,
    module: {
      registry: {
        version: REGISTRY_FORMAT_VERSION,
        generator: "gateway-test",
        hash: combineToolHashes(tools),
        tools,
        names: Object.fromEntries(tools.map((tool) => [tool.name, tool.alias])),
      },
      validators: Object.fromEntries(
        tools.map((tool) => [tool.id, (input: unknown) => ({ ok: true as const, value: input })]),
      ),
      dispatch: Object.fromEntries(
        tools.map((tool) => [
          tool.id,
          (args, context) => shared.call(tool.source.export, args, context),
        ]),
      ),
    },
  };
}

/** The built gateway, as a compiled gateway module imports it (and zcp-serve's `closeUpstreams`). */
const GATEWAY = pathToFileURL(fileURLToPath(new URL("../dist/gateway/index.js", import.meta.url)));

/**
 * Writes to `file` a compiled gateway module over `server` (what `zcp gen --from-mcp` writes, in
 * one file), for the zcp-serve bin to serve; its tools are listed from the upstream now.
 */
export async function writeGatewayModule(
  server: UpstreamServer,
  options: UpstreamOptions & { readonly name: string },
  file: string,
): Promise<void> {
  const { module, upstream: lister } = await gatewayModule(server, options.name);
  await lister.close();
  writeFileSync(
    file,
    `import { upstream } from ${JSON.stringify(GATEWAY.href)};
const server = upstream(${JSON.stringify(server)}, ${JSON.stringify(options)});
const registry = ${JSON.stringify(module.registry)};
export default {
  registry,
  validators: Object.fromEntries(registry.tools.map((tool) => [tool.id, (value) => ({ ok: true, value })])),
  dispatch: Object.fromEntries(
    registry.tools.map((tool) => [tool.id, (args, context) => server.call(tool.source.export, args, context)]),
  ),
};
`,
  );
}
