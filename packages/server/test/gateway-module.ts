/**
 * The tests' stand-in for `zcp gen --from-mcp`: lists an upstream's tools with the SDK client
 * and models them as a generated module whose dispatch is a real `upstream(...)`, as the
 * generated `dispatch.ts` of a gateway project is.
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { GeneratedModule, OutputMode, ToolContext, ToolDefinition } from "@zcp/runtime";
import {
  combineToolHashes,
  deriveId,
  providerName,
  REGISTRY_FORMAT_VERSION,
  renderPlannerLine,
  toolHash,
  type JsonSchema,
} from "@zcp/runtime/codegen";
import {
  expandServer,
  upstream,
  type Upstream,
  type StdioUpstream,
  type UpstreamOptions,
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
  server: StdioUpstream,
  name: string,
  modes: { readonly [tool: string]: OutputMode } = {},
): Promise<GatewayModule> {
  const client = new Client({ name: "zcp-test-lister", version: "0" });
  const expanded = expandServer(server, process.env) as typeof server;
  await client.connect(
    new StdioClientTransport({
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
  server: StdioUpstream,
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
