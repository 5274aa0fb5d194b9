/**
 * The test harness for a real Redis: `startRedis()` runs a throwaway `redis-server` (a free
 * loopback port, a temporary `--dir`, no persistence) for one test file or benchmark, and
 * `redisAvailable()` tells the tests whether they can run at all.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** SIGTERM, then waits until the process has exited, and removes its folder. */
  stop(): Promise<void>;
  /** Stops it (if it runs) and starts a new, empty one on the same port. */
  restart(): Promise<void>;
  /**
   * SIGSTOP: the process stops answering but its connections stay open (a frozen or partitioned
   * Redis); `thaw()` (SIGCONT) lets it go on.
   */
  freeze(): void;
  thaw(): void;
}

const BINARY = "redis-server";
const READY_TIMEOUT_MS = 10_000;

let availability: string | null | undefined;

/**
 * Null when `redis-server` can run here, else why not (printed once, for the skipped tests'
 * log). Under CI (`process.env.CI` set) a missing `redis-server` throws instead: there the
 * tests must fail, not skip.
 */
export function redisAvailable(): string | null {
  if (availability !== undefined) return availability;
  const probe = spawnSync(BINARY, ["--version"], { encoding: "utf8" });
  availability =
    probe.error !== undefined
      ? `${BINARY} cannot run (${probe.error.message}); install Redis 7 to run these tests`
      : probe.status !== 0
        ? `${BINARY} --version exited with ${String(probe.status)}: ${probe.stderr.trim()}`
        : null;
  if (availability !== null && process.env.CI)
    throw new Error(`CI is set, so the Redis tests must run: ${availability}`);
  if (availability !== null) console.warn(`skipping the Redis tests: ${availability}`);
  return availability;
}

/**
 * Starts a `redis-server` and resolves once it accepts connections. A port taken between the look-up
 * and the start (other test files start servers too) is tried again with another one.
 */
export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), "zcp-redis-"));
  let port = 0;
  let child: ChildProcess | undefined;
  for (let attempt = 1; child === undefined; attempt++) {
    port = await freePort();
    try {
      child = await launch(port, dir);
    } catch (error) {
      if (attempt === 3 || !String(error).includes("Address already in use")) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
  let current: ChildProcess = child;
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      await terminate(current);
      rmSync(dir, { recursive: true, force: true });
    },
    async restart() {
      await terminate(current);
      mkdirSync(dir, { recursive: true });
      current = await launch(port, dir);
    },
    freeze() {
      current.kill("SIGSTOP");
    },
    thaw() {
      current.kill("SIGCONT");
    },
  };
}

/** Spawns `redis-server` and resolves once it logs that it accepts connections. */
function launch(port: number, dir: string): Promise<ChildProcess> {
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir];
  const child = spawn(BINARY, [...args, "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Never outlives the test process, even when a test forgets to stop it.
  const kill = () => child.kill("SIGKILL");
  process.once("exit", kill);
  child.once("exit", () => process.off("exit", kill));
  return new Promise((resolve, reject) => {
    let output = "";
    let starting = true;
    const fail = (error: Error) => {
      if (!starting) return;
      starting = false;
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(error);
    };
    const timer = setTimeout(
      () =>
        fail(new Error(`${BINARY} on port ${port} was not ready within ${READY_TIMEOUT_MS} ms`)),
      READY_TIMEOUT_MS,
    );
    // Its log (kept until it is ready, then drained): the readiness line, or why it stopped.
    const read = (chunk: string) => {
      if (!starting) return;
      output += chunk;
      if (!output.includes("Ready to accept connections")) return;
      starting = false;
      clearTimeout(timer);
      resolve(child);
    };
    child.stdout!.setEncoding("utf8").on("data", read);
    child.stderr!.setEncoding("utf8").on("data", read);
    child.once("error", (error) => fail(new Error(`cannot start ${BINARY}: ${error.message}`)));
    child.once("exit", (code) =>
      fail(new Error(`${BINARY} exited with ${String(code)} at start: ${output.trim()}`)),
    );
  });
}

function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    // A frozen one holds the SIGTERM until it may go on.
    child.kill("SIGCONT");
  });
}

/** A port free on the loopback interface now (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
