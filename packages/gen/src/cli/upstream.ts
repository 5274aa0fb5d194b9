/**
 * cli: what `zcp gen` does for gateways (`"fromMcp"`): the server of `--from-mcp`, and under
 * `--check` the drift error when the upstream's listing is not the one the manifest records.
 */
import type { Config } from "../config.js";
import { compareDiagnostics } from "../diagnostics.js";
import type { GenerateResult } from "../pipeline.js";
import { driftDiagnostics } from "./drift.js";
import { serverFromArgument, type UpstreamServer } from "../upstream/server.js";

/** The server `--from-mcp <value>` names, or what is wrong with the value. */
export function fromMcpServer(value: string): UpstreamServer | string {
  return (
    serverFromArgument(value) ??
    `--from-mcp takes a command line ("npx -y @modelcontextprotocol/server-memory") or an http(s) URL, got ${JSON.stringify(value)}`
  );
}

/** `result` with the drift error (ZCP1706) when the upstream listing changed since the output was written. */
export function upstreamDrift(config: Config, result: GenerateResult, cwd: string): GenerateResult {
  if (!result.gateway) return result;
  const drift = driftDiagnostics(config.outDir, result.gateway.listingHash, cwd);
  if (drift.length === 0) return result;
  return { ...result, diagnostics: [...result.diagnostics, ...drift].sort(compareDiagnostics) };
}
