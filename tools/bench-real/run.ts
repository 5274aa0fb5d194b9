/**
 * `pnpm bench:real`: real MCP servers against their zcp ports. For each server (servers.ts) and
 * each client era (connect.ts), the server's call script (scripts/) runs on:
 *
 * - `original`: the npm package over stdio;
 * - `gateway`: `zcp gen --from-mcp` in front of the original, served plainly (every result whole);
 * - `port`: the fixture's port served plainly (every result whole, every tool listed);
 * - `port+discovery`: the port's discover view (zcp's tool search; drive.ts says how it is driven);
 * - `port+budgets`: the port with the runtime's default token budget (8000 estimated tokens: a
 *   result that fits is inline, one past it a handle with its first page inline, read back with
 *   `zcp_handle` when the agent needs it whole);
 * - `port+discovery+budgets`: both.
 * - `port+code`: `zcp-serve --code` (the port with `@zcp/code`'s runner): every tool and `zcp_run`
 *   listed, the script run as its programs (programs.ts);
 * - `port+code+discovery`: code mode in the discover view (the searches as `port+discovery`'s).
 * - `port+code-only`: `zcp-serve --code-only`: `zcp_run` alone listed, its description carrying
 *   the port's API text; the same programs as `port+code`.
 *
 * Each run starts from the same state; the original runs as a user starts it, unchanged, and the
 * scripts are the same on every configuration. Writes report.json and report.md beside this file (report.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createCodeRunner } from "@zcp/code";
import { closeUpstreams } from "@zcp/server/gateway";
import type { RuntimeOptions } from "@zcp/runtime";
import type { McpServerOptions } from "@zcp/server";
import {
  connectModule,
  connectOriginal,
  ERAS,
  generateGateway,
  type Connection,
  WHOLE,
  type Era,
} from "./connect.ts";
import { drive, type DriveOptions, type RunRecord } from "./drive.ts";
import { writeReport, type ServerReport } from "./report.ts";
import { startFakeGitHub } from "./github/fake-api.ts";
import { realServers } from "./servers.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-bench-real-"));

const DISCOVER = { exposure: { defaults: { mcp: { profile: "discover" } } } } as const;
/** `zcp-serve --code`'s runner (its defaults; the server's message limit is the default's 1 MiB). */
const code = createCodeRunner();

interface Config {
  readonly name: string;
  /** The runtime options of a port's server (absent: the original or the gateway). */
  readonly runtime?: RuntimeOptions;
  /** The MCP server's options (`codeOnly`). */
  readonly mcp?: McpServerOptions;
  readonly drive: DriveOptions;
}

const PORT_CONFIGS: readonly Config[] = [
  { name: "port", runtime: WHOLE, drive: {} },
  { name: "port+discovery", runtime: { ...WHOLE, ...DISCOVER }, drive: { discover: true } },
  // The runtime's defaults: `maxResultTokens` 8000, what a user gets without setting a budget.
  { name: "port+budgets", runtime: {}, drive: { handles: true } },
  {
    name: "port+discovery+budgets",
    runtime: DISCOVER,
    drive: { discover: true, handles: true },
  },
  { name: "port+code", runtime: { ...WHOLE, code }, drive: { code: true } },
  {
    name: "port+code+discovery",
    runtime: { ...WHOLE, ...DISCOVER, code },
    drive: { code: true, discover: true },
  },
  {
    name: "port+code-only",
    runtime: { ...WHOLE, code },
    mcp: { codeOnly: true },
    drive: { code: true, codeOnly: true },
  },
];

const github = await startFakeGitHub();
const servers = realServers(TMP, github);
const reports: ServerReport[] = [];
for (const server of servers) {
  server.reset();
  process.stdout.write(`${server.name}: zcp gen --from-mcp\n`);
  const gateway = await generateGateway(server.original, path.join(TMP, `gateway-${server.name}`));
  const runs: Record<string, Partial<Record<Era, RunRecord>>> = {};
  const record = async (
    name: string,
    era: Era,
    connect: () => Promise<Connection>,
    options: DriveOptions,
  ) => {
    server.reset();
    const connection = await connect();
    try {
      (runs[name] ??= {})[era] = await drive(connection, server.script, options);
    } finally {
      await connection.close();
    }
  };
  for (const era of ERAS) {
    process.stdout.write(`${server.name}: ${era} client\n`);
    await record("original", era, () => connectOriginal(server.original, era), {});
    await record("gateway", era, () => connectModule(gateway, era, WHOLE), {});
    for (const config of PORT_CONFIGS)
      await record(
        config.name,
        era,
        () =>
          connectModule(
            server.port,
            era,
            { ...config.runtime, config: server.portConfig },
            config.mcp,
          ),
        config.drive,
      );
  }
  await closeUpstreams();
  reports.push({
    server: server.name,
    package: server.original.package,
    calls: server.script.steps.map((step) => step.tool),
    runs,
  });
}
await github.close();
await code.close();
writeReport(HERE, reports);
fs.rmSync(TMP, { recursive: true, force: true });
process.stdout.write(fs.readFileSync(path.join(HERE, "report.md"), "utf8"));
