/**
 * The `zcp-serve` processes `bench:scale` measures: started over HTTP on a free port with the
 * weather fixture, one surface each (native or MCP), on the memory store or a Redis URL; and the
 * CPU time each has used, and the whole machine's, read from /proc.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(REPO, "packages/server/dist/bin/zcp-serve.js");
const REGISTRY = "fixtures/weather/src/zcp.gen/index.ts";
const START_TIMEOUT_MS = 30_000;

/**
 * The key every native replica of this run signs session tokens with (`ZCP_SERVE_SECRET`): a
 * token minted by one replica opens on any other only when they share it, and `--store redis://`
 * with the native surface refuses to start without one.
 */
const SECRET = randomBytes(32).toString("base64");

export type Surface = "native" | "mcp";

export interface Replica {
  readonly name: string;
  readonly child: ChildProcess;
  /** The surface's endpoint: `/zcp` (native) or `/mcp` (MCP). */
  readonly url: URL;
}

const spawned: ChildProcess[] = [];
process.on("exit", () => {
  for (const child of spawned) if (child.exitCode === null) child.kill("SIGKILL");
});

/**
 * The environment of a replica: this process's, with the store and the secret this run decides
 * (an inherited `ZCP_SERVE_STORE` would move a memory replica onto some Redis).
 */
function replicaEnv(surface: Surface): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env["ZCP_SERVE_STORE"];
  delete env["ZCP_SERVE_TOKEN"];
  delete env["ZCP_SERVE_SECRET"];
  if (surface === "native") env["ZCP_SERVE_SECRET"] = SECRET;
  return env;
}

/** Starts `zcp-serve --transport http --surface <surface>` (with `--store` when given); resolves once it listens. */
export function startReplica(name: string, surface: Surface, store?: string): Promise<Replica> {
  const args = [BIN, "--registry", REGISTRY, "--transport", "http", "--surface", surface];
  const child = spawn(
    process.execPath,
    ["--import", "tsx", ...args, "--port", "0", ...(store ? ["--store", store] : [])],
    { cwd: REPO, env: replicaEnv(surface), stdio: ["ignore", "ignore", "pipe"] },
  );
  spawned.push(child);
  const endpoint = surface === "native" ? "zcp" : "mcp";
  const listening = new RegExp(`listening on (http://[^\\s/]+)/${endpoint}\\b`);
  return new Promise((resolve, reject) => {
    let stderr = "";
    const timer = setTimeout(
      () => reject(new Error(`${name}: not listening in ${START_TIMEOUT_MS / 1000} s: ${stderr}`)),
      START_TIMEOUT_MS,
    );
    child.once("exit", (code) => reject(new Error(`${name} exited (${code}): ${stderr}`)));
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const match = listening.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({ name, child, url: new URL(`/${endpoint}`, match[1]!) });
      }
    });
  });
}

/** Stops `replica` with `signal` (SIGKILL after 3 s) and waits until it has exited. */
export async function stopReplica(
  replica: Replica,
  signal: NodeJS.Signals = "SIGTERM",
): Promise<void> {
  const { child } = replica;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
  await exited;
  clearTimeout(timer);
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

/** CPU seconds (user + system) a process has used, from /proc. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/**
 * The machine's CPU seconds since boot, all cores together, from the first line of /proc/stat:
 * `busy` (user, nice, system, irq, softirq, steal) and `total` (busy, idle and iowait).
 */
export function machineCpu(): { readonly busy: number; readonly total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line
    .split(/\s+/)
    .slice(1, 9)
    .map(Number) as [number, number, number, number, number, number, number, number];
  const busy = user + nice + system + irq + softirq + steal;
  return { busy: busy / CLOCK_TICKS, total: (busy + idle + iowait) / CLOCK_TICKS };
}
