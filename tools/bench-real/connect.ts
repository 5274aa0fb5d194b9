/**
 * How `pnpm bench:real` and the ports' behaviour tests reach a server: an original over stdio (as
 * a host starts it: `node <package>/dist/index.js`), and a port or a gateway (a generated module)
 * served by zcp's MCP server in process, through bench:tokens' connections (the official v2 SDK
 * client in memory on the 2025 era, pinned to 2026-07-28 over zcp's web-standard handler).
 *
 * The two clients: "2026" is the official v2 client that speaks 2026-07-28 (`mode: "auto"`
 * against an original over stdio, which probes with `server/discover` and falls back to
 * 2025-11-25 when the server is a 2025 one, as every original here is; pinned against a port,
 * over zcp's web-standard handler); "2025" is the official SDK's 1.x client (1.32.2, the
 * `initialize` handshake, up to 2025-11-25), what hosts of 2025 run, over stdio to an original
 * and in memory to zcp's MCP server.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { createRuntime, type GeneratedModule, type RuntimeOptions } from "@zcp/runtime";
import type { McpClient } from "../bench-tokens/surfaces/mcp-listing.ts";
import { createMcpServer, type McpServerOptions } from "@zcp/server";
import { connectModern } from "../bench-tokens/surfaces/mcp.ts";

export type Era = "2026" | "2025";

/** A plain MCP server's runtime: every result whole (no handles). */
export const WHOLE: RuntimeOptions = { maxResultTokens: Number.POSITIVE_INFINITY };
export const ERAS: readonly Era[] = ["2026", "2025"];

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");
const ZCP = path.join(REPO, "packages/gen/dist/bin/zcp.js");
const own = createRequire(path.join(HERE, "package.json"));

/** An original server: its npm package, started over stdio with these arguments and environment. */
export interface Original {
  readonly package: string;
  /** Node's own options, before the entry (a preload). */
  readonly nodeArgs?: readonly string[];
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/** The command that starts an original (its package's `dist/index.js` with this Node). */
function originalCommand(original: Original): { command: string; args: string[] } {
  const entry = path.join(
    path.dirname(own.resolve(`${original.package}/package.json`)),
    "dist/index.js",
  );
  return {
    command: process.execPath,
    args: [...(original.nodeArgs ?? []), entry, ...original.args],
  };
}

export interface Connection {
  readonly client: McpClient;
  /** The protocol version the client and server agreed on. */
  readonly era: string;
  readonly close: () => Promise<void>;
}

const CLIENT_INFO = { name: "bench-real", version: "0.1.0" };

/** The original over stdio, with the era's client. */
export async function connectOriginal(original: Original, era: Era): Promise<Connection> {
  const spawn = {
    ...originalCommand(original),
    env: { PATH: process.env["PATH"] ?? "", ...original.env },
    stderr: "ignore" as const,
  };
  if (era === "2025") {
    const { client, era: agreed } = await connectV1(new V1StdioClientTransport(spawn));
    return { client, era: agreed, close: () => client.close() };
  }
  const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StdioClientTransport(spawn));
  return { client, era: client.getNegotiatedProtocolVersion() ?? "?", close: () => client.close() };
}

/**
 * A 1.x client connected over `transport`, and the version it agreed on: the client has no
 * getter for it, but hands it to `transport.setProtocolVersion` (which HTTP transports use for
 * their header), so the transport is given one that keeps it.
 */
async function connectV1(
  transport: Parameters<V1Client["connect"]>[0],
): Promise<{ client: V1Client; era: string }> {
  let era = "?";
  const previous = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (version: string) => {
    era = version;
    previous?.(version);
  };
  const client = new V1Client(CLIENT_INFO);
  await client.connect(transport);
  return { client, era };
}

/**
 * A generated module (a port or a gateway) served by zcp's MCP server (with the server's `mcp`
 * options, e.g. `codeOnly`), with the era's client.
 */
export async function connectModule(
  generated: GeneratedModule,
  era: Era,
  options: RuntimeOptions = {},
  mcp: McpServerOptions = {},
): Promise<Connection> {
  const runtime = createRuntime(generated, options);
  if (era === "2026") {
    const { client, close } = await connectModern(runtime, mcp);
    return { client, era: (client as Client).getNegotiatedProtocolVersion() ?? "?", close };
  }
  const server = createMcpServer(runtime, mcp);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.server.connect(serverSide);
  const { client, era: agreed } = await connectV1(clientSide);
  return {
    client,
    era: agreed,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/**
 * The gateway in front of an original, as docs/gateway.md writes it: `zcp gen --from-mcp
 * "<command>"` in a folder of its own (with the zcp packages linked into its node_modules), and
 * the generated `zcp.gen/index.js` loaded.
 */
export async function generateGateway(original: Original, dir: string): Promise<GeneratedModule> {
  fs.mkdirSync(path.join(dir, "node_modules/@zcp"), { recursive: true });
  for (const pkg of ["runtime", "server"])
    fs.symlinkSync(path.join(REPO, "packages", pkg), path.join(dir, "node_modules/@zcp", pkg));
  const { command, args } = originalCommand(original);
  const env = Object.entries(original.env ?? {}).map(([key, value]) => `${key}=${value}`);
  // `--from-mcp` takes one command line; an environment goes in front through env(1).
  const line = [...(env.length > 0 ? ["env", ...env] : []), command, ...args].join(" ");
  const run = spawnSync(process.execPath, [ZCP, "gen", "--from-mcp", line], {
    cwd: dir,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`zcp gen --from-mcp failed (${run.status}): ${run.stderr}`);
  const module = (await import(pathToFileURL(path.join(dir, "zcp.gen/index.js")).href)) as {
    generated: GeneratedModule;
  };
  return module.generated;
}
