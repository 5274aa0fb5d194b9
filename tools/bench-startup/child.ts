/**
 * What the start-up children share: phase marks (ms from the previous mark; the first phase,
 * `boot`, is the time from the process's time origin to the first mark: Node start-up, tsx
 * registration and loading the child script) and the JSON line they end with.
 */
export type Mark = ((phase: string) => void) & { readonly times: Record<string, number> };

export function phases(): Mark {
  const times: Record<string, number> = { boot: performance.now() };
  let last = times.boot!;
  const mark = (phase: string) => {
    const now = performance.now();
    times[phase] = now - last;
    last = now;
  };
  return Object.assign(mark, { times });
}

export function printResult(mark: Mark, result: object): void {
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const phasesMs = Object.fromEntries(Object.entries(mark.times).map(([phase, ms]) => [phase, round(ms)]));
  // Peak resident memory of this process (KiB on Linux).
  const maxRssMiB = Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
  process.stdout.write(`${JSON.stringify({ phasesMs, maxRssMiB, ...result })}\n`);
}
