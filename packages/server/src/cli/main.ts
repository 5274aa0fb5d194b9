/**
 * `zcp-serve`: serves a generated registry (`zcp.gen/index.js`) to MCP hosts over stdio or
 * Streamable HTTP. Logs go to stderr only; over stdio, stdout carries nothing but MCP messages.
 * Exit codes: 0 after a clean stop (stdin ended, SIGINT/SIGTERM), 1 on a failure while serving
 * (e.g. the port is taken, Redis unreachable at start), 2 on a usage error.
 *
 *   args.ts      the command line, checked
 *   config-file.ts  `--config-file`: the server configuration the tools read
 *   store.ts     `--store redis://…`: the shared store of handles and session state
 *   registry.ts  the generated module and the runtime made of it (its tools in worker threads)
 *   serve.ts     serving it: stdio (MCP or native) or HTTP, and stopping
 */
import path from "node:path";
import process from "node:process";
import { parseServeArgs, USAGE } from "./args.js";
import { fail, log, usage } from "./log.js";
import { loadRegistries, serveRuntime } from "./registry.js";
import { serveMcpOnStdio, serveNativeOnStdio, serveOnHttp, stopSignal } from "./serve.js";
import { openStore } from "./store.js";
import { readConfigFile } from "./config-file.js";

export async function main(argv: string[], cwd = process.cwd()): Promise<number> {
  const parsed = parseServeArgs(argv, process.env);
  if (parsed.kind === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  if (parsed.kind === "usage") return usage(parsed.message);
  const { args } = parsed;

  const files = args.registries.map((given) => ({ given, file: path.resolve(cwd, given) }));
  const generated = await loadRegistries(files);
  if (typeof generated === "string") return fail(2, generated);
  const configured =
    args.configFile === undefined ? undefined : await readConfigFile(args.configFile, cwd);
  if (configured !== undefined && "failure" in configured) return fail(2, configured.failure);
  const store = args.store === undefined ? undefined : await openStore(args.store);
  if (typeof store === "number") return store;
  const served = await serveRuntime(
    generated,
    args,
    files.map(({ file }) => file),
    { ...store?.options, ...configured },
  );
  if ("failure" in served || "usage" in served) await store?.close();
  if ("failure" in served) return fail(2, served.failure);
  if ("usage" in served) return usage(served.usage);
  for (const { surface, tools, hidden, workflowFallback } of served.exposed) {
    log(
      `${tools} tools on surface ${surface}${hidden > 0 ? ` (${hidden} hidden by --profile, --groups, --exclude-groups or --scopes)` : ""}`,
    );
    if (workflowFallback)
      log(
        `warning: profile semantic-workflow on surface ${surface}: no tool is in the "workflow" group, so it serves every tool the other options keep`,
      );
  }
  log(served.isolation);

  const signal = stopSignal();
  try {
    if (args.transport === "http") return await serveOnHttp(served.runtime, args, signal);
    return args.surfaces[0] === "native"
      ? await serveNativeOnStdio(served.runtime, args, signal)
      : await serveMcpOnStdio(served.runtime, args, signal);
  } finally {
    // A tool still running (one that ignores its signal, or spins) must not keep the process.
    await served.close();
    await store?.close();
  }
}
