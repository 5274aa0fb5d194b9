/**
 * The one-file change under `zcp gen --watch`: the time from writing a tool file to the
 * watcher's next JSON report line, i.e. what an editor user waits for after saving.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { sleep } from "./measure.js";
import { assertGenerated, type ZcpReport } from "./zcp.js";

interface Line {
  readonly text: string;
  /** performance.now() when the line arrived, taken in the event handler, not when awaited. */
  readonly at: number;
}

/** Lines from a child's stdout, awaitable one at a time. */
class Lines {
  private readonly queue: Line[] = [];
  private waiter: ((line: Line) => void) | null = null;

  constructor(child: ChildProcess) {
    createInterface({ input: child.stdout! }).on("line", (text) => {
      const line = { text, at: performance.now() };
      if (this.waiter) {
        const resolve = this.waiter;
        this.waiter = null;
        resolve(line);
      } else this.queue.push(line);
    });
  }

  next(timeoutMs: number, what: string): Promise<Line> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        reject(new Error(`zcp gen --watch: no report line within ${timeoutMs} ms (${what})`));
      }, timeoutMs);
      this.waiter = (line) => {
        clearTimeout(timer);
        resolve(line);
      };
    });
  }

  /** Takes whatever arrived unasked (a regeneration nobody triggered). */
  drain(): Line[] {
    return this.queue.splice(0);
  }
}

export interface WatchOptions {
  readonly zcp: string;
  readonly project: string;
  readonly tools: number;
  readonly repeats: number;
  /** Makes the i-th change (0-based) to one tool file. */
  readonly change: (i: number) => void;
  /** Undoes every change, to check that the watcher comes back to the cold run's registry hash. */
  readonly restore: () => void;
}

export interface WatchResult {
  readonly samples: number[];
  /** Spawn to first report line (the watcher's initial full generation). */
  readonly startupMs: number;
  /** Registry hash of the first run and of the run after `restore`. */
  readonly initialHash: string | null;
  readonly restoredHash: string | null;
  /** Report lines that arrived without a change being made. */
  readonly unexpectedLines: number;
}

/**
 * A pause after the watcher's first line, so that the first measured change does not overlap
 * the tail of its start-up (GC of the initial full generation, late fs.watch set-up).
 */
const SETTLE_AFTER_START_MS = 500;
/** Pause between changes, so that one regeneration's tail work is not billed to the next. */
const PAUSE_MS = 300;
const CHANGE_TIMEOUT_MS = 30_000;

export async function measureWatch(options: WatchOptions): Promise<WatchResult> {
  const started = performance.now();
  const child = spawn(process.execPath, [options.zcp, "gen", "--watch", "--reporter", "json"], {
    cwd: options.project,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const lines = new Lines(child);
  const read = async (what: string): Promise<{ report: ZcpReport; at: number }> => {
    const line = await lines
      .next(what === "start" ? 120_000 : CHANGE_TIMEOUT_MS, what)
      .catch((error: Error) => {
        throw new Error(`${error.message}\nstderr: ${stderr.slice(0, 2000)}`);
      });
    const report = JSON.parse(line.text) as ZcpReport;
    assertGenerated(report, options.tools, `zcp gen --watch (${what})`);
    return { report, at: line.at };
  };

  try {
    const first = await read("start");
    const startupMs = first.at - started;
    await sleep(SETTLE_AFTER_START_MS);
    let unexpectedLines = lines.drain().length;
    let hash = first.report.hash;
    const samples: number[] = [];
    for (let i = 0; i < options.repeats; i++) {
      const written = performance.now();
      options.change(i);
      const next = await read(`change ${i + 1}`);
      samples.push(next.at - written);
      // The content changed, so the registry must have too: a same hash means a stale result.
      if (next.report.hash === hash)
        throw new Error(`zcp gen --watch: change ${i + 1} did not change the registry hash`);
      hash = next.report.hash;
      await sleep(PAUSE_MS);
      unexpectedLines += lines.drain().length;
    }
    options.restore();
    const restored = await read("restore");
    await sleep(PAUSE_MS);
    unexpectedLines += lines.drain().length;
    return {
      samples,
      startupMs,
      initialHash: first.report.hash,
      restoredHash: restored.report.hash,
      unexpectedLines,
    };
  } finally {
    // SIGTERM is the watcher's documented way to stop; SIGKILL only if it does not.
    child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(killer);
  }
}
