/**
 * `zcp-serve`: serves a generated registry (`zcp.gen/index.js`) to MCP hosts over stdio or
 * Streamable HTTP. Logs go to stderr only; over stdio, stdout carries nothing but MCP messages.
 * Exit codes: 0 after a clean stop (stdin ended, SIGINT/SIGTERM), 1 on a failure while serving
 * (e.g. the port is taken), 2 on a usage error.
 *
 *   args.ts      the command line, checked
 *   registry.ts  the generated module and the runtime made of it
 *   serve.ts     serving it: stdio (MCP or native) or HTTP, and stopping
 */
import path from "node:path";
import process from "node:process";
import { parseServeArgs, USAGE } from "./args.js";
import { fail, log, usage } from "./log.js";
import { loadRegistry, serveRuntime } from "./registry.js";
import { serveMcpOnStdio, serveNativeOnStdio, serveOnHttp, stopSignal } from "./serve.js";

export async function main(argv: string[], cwd = process.cwd()): Promise<number> {
  const parsed = parseServeArgs(argv, process.env);
  if (parsed.kind === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  if (parsed.kind === "usage") return usage(parsed.message);
  const { args } = parsed;

  const generated = await loadRegistry(path.resolve(cwd, args.registry));
  if (typeof generated === "string") return fail(2, generated);
  const served = serveRuntime(generated, args);
  if ("failure" in served) return fail(2, served.failure);
  if ("usage" in served) return usage(served.usage);
  for (const { surface, tools, hidden } of served.exposed)
    log(
      `${tools} tools on surface ${surface}${hidden > 0 ? ` (${hidden} hidden by --profile/--scopes)` : ""}`,
    );

  const signal = stopSignal();
  if (args.transport === "http") return serveOnHttp(served.runtime, args, signal);
  return args.surfaces[0] === "native"
    ? serveNativeOnStdio(served.runtime, args, signal)
    : serveMcpOnStdio(served.runtime, args, signal);
}
