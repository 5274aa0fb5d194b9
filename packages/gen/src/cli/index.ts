/**
 * cli: the `zcp` command line. `zcp gen` runs the pipeline once (or on every change with
 * --watch: `watch.ts`) and writes or checks the output folder; an unchanged project is answered
 * from the no-change fast path (`fast-path.ts`) without loading TypeScript. The pipeline is
 * imported only when a run needs it. `zcp diff` compares two registries (`diff.ts`). A gateway
 * (`"fromMcp"`, or `--from-mcp` without a configuration: `upstream.ts`) never takes the fast
 * path: its upstream is listed on every run, and `--check` reports a changed listing.
 */
import fs from "node:fs";
import { parseArgs } from "node:util";
import { fromMcpConfig, loadConfig, type Config, type ConfigResult } from "../config.js";
import { hasErrors, hasRunErrors } from "../diagnostics.js";
import { compareOutput, isClean } from "../write/index.js";
import { readFastPath, saveFastPath } from "./fast-path.js";
import { apply, printSummary, tokenReport, type Options, type Summary } from "./summary.js";
import { reportOptions } from "./token-report.js";
import { fromMcpServer, upstreamDrift } from "./upstream.js";
import { watch } from "./watch.js";

const USAGE = `Usage: zcp gen [options]
       zcp diff OLD NEW [--reporter text|json] [--allow-breaking]

Compiles the @tool functions of a TypeScript project into a static tool registry;
\`zcp diff\` reports the breaking changes between two registries (zcp diff --help).

Options of zcp gen:
  --config <file>     zcp.config.json or package.json to use (default: the one in the current folder)
  --from-mcp <server> without a configuration: generate a gateway to the MCP server started by the
                      command line <server> (or at the http(s) URL <server>) into ./zcp.gen
  --check             write nothing; exit 1 if the output folder is not up to date
  --watch             regenerate whenever a source file changes
  --reporter <kind>   text (default) or json
  --force             ignore the no-change cache
  --report            print the tokens (o200k_base) of each tool's MCP entry, OpenAI entry, planner line and TypeScript declaration,
                      and the listing against each provider's strict limits
  --budget <tokens>   exit 1 when the selected listing (--profile, --groups; default all tools) is over <tokens>
  --budget-format <f> what --budget counts: mcp (default), openai (also fails over an OpenAI strict limit), planner or typescript
  --profile <name>    select the listing of a profile: semantic-workflow
  --groups <a,b>      select the tools in any of these groups
  -h, --help          show this help
  -v, --version       show the version
`;

export async function main(argv: string[], cwd = process.cwd()): Promise<number> {
  if (argv[0] === "diff") return (await import("./diff.js")).diff(argv.slice(1), cwd);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        config: { type: "string" },
        "from-mcp": { type: "string" },
        check: { type: "boolean", default: false },
        watch: { type: "boolean", default: false },
        force: { type: "boolean", default: false },
        reporter: { type: "string", default: "text" },
        report: { type: "boolean", default: false },
        budget: { type: "string" },
        "budget-format": { type: "string" },
        profile: { type: "string" },
        groups: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", short: "v", default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`zcp: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  if (values.help || positionals.length === 0) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  if (positionals[0] !== "gen" || positionals.length > 1) {
    process.stderr.write(`zcp: unknown command "${positionals.join(" ")}"\n\n${USAGE}`);
    return 2;
  }
  if (values.reporter !== "text" && values.reporter !== "json") {
    process.stderr.write(`zcp: --reporter must be text or json, got "${values.reporter}"\n`);
    return 2;
  }
  if (values.check && values.watch) {
    process.stderr.write("zcp: --check and --watch cannot be combined\n");
    return 2;
  }
  const tokens = reportOptions({
    report: values.report,
    budget: values.budget,
    budgetFormat: values["budget-format"],
    profile: values.profile,
    groups: values.groups,
  });
  if (typeof tokens === "string") {
    process.stderr.write(`zcp: ${tokens}\n`);
    return 2;
  }
  const options: Options = {
    check: values.check,
    watch: values.watch,
    force: values.force,
    reporter: values.reporter,
    tokens,
    ...(values.config ? { config: values.config } : {}),
  };
  if (values["from-mcp"] !== undefined && values.config !== undefined) {
    process.stderr.write("zcp: --from-mcp and --config cannot be combined\n");
    return 2;
  }
  let loaded: ConfigResult;
  if (values["from-mcp"] !== undefined) {
    const server = fromMcpServer(values["from-mcp"]);
    if (typeof server === "string") {
      process.stderr.write(`zcp: ${server}\n`);
      return 2;
    }
    loaded = { config: fromMcpConfig(cwd, server), diagnostics: [] };
  } else {
    loaded = loadConfig(cwd, options.config);
  }
  if (!loaded.config) {
    printSummary(options, cwd, {
      diagnostics: loaded.diagnostics,
      outDir: cwd,
      tools: 0,
      hash: null,
      state: null,
      written: [],
      removed: [],
    });
    return 1;
  }
  if (options.watch && loaded.config.fromMcp) {
    // An upstream changes without any file changing: there is nothing to watch.
    process.stderr.write("zcp: --watch does not apply to a gateway (fromMcp): run zcp gen again\n");
    return 2;
  }
  return options.watch ? watch(loaded.config, options, cwd) : once(loaded.config, options, cwd);
}

async function once(config: Config, options: Options, cwd: string): Promise<number> {
  const started = performance.now();
  // The fast path keeps no registry or artifacts to count: a report needs a real run. A
  // gateway's upstream can change without any local file changing: it is always listed.
  const fast =
    options.force || options.tokens || config.fromMcp ? null : await readFastPath(config);
  if (fast) {
    const summary: Summary = {
      diagnostics: fast.diagnostics,
      outDir: config.outDir,
      tools: fast.tools,
      hash: fast.hash,
      state: options.check ? { stale: [], missing: [], extra: [] } : null,
      written: [],
      removed: [],
      cached: true,
      ms: performance.now() - started,
    };
    printSummary(options, cwd, summary);
    return hasErrors(fast.diagnostics) ? 1 : 0;
  }
  const { Generator } = await import("../pipeline.js");
  let result = await new Generator(config).generate();
  if (options.check) result = upstreamDrift(config, result, cwd);
  const state = compareOutput(config.outDir, result.files);
  const summary = apply(config, options, result, state);
  summary.tokens = await tokenReport(options, result);
  summary.ms = performance.now() - started;
  printSummary(options, cwd, summary);
  if ((isClean(state) || !options.check) && !hasRunErrors(result.diagnostics) && !config.fromMcp)
    await saveFastPath(config, result);
  return hasErrors(result.diagnostics) ||
    (options.check && !isClean(state)) ||
    summary.tokens?.budget?.ok === false
    ? 1
    : 0;
}

function version(): string {
  const file = new URL("../../package.json", import.meta.url);
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
}
