/**
 * What every row of the dispatch benchmark is, whoever builds it (variants.ts the in-process and
 * transport callers, code.ts the code-mode runs): its key, its label and the call it makes.
 */
export type VariantKey =
  | "direct"
  | "directAwait"
  | "session"
  | "sdk"
  | "zcpMcp"
  | "worker"
  | "program"
  | "session100"
  | "emptyProgram";

export interface Variant {
  readonly key: VariantKey;
  readonly label: string;
  /** Over a transport or a thread boundary (fewer calls per repeat). */
  readonly transport: boolean;
  /**
   * Set for the code-mode rows (code.ts), whose unit is one run (BENCH_PROGRAM_RUNS per loop)
   * rather than one call: the tool calls one run makes.
   */
  readonly toolCalls?: number;
  /**
   * Makes call number `i` (a code-mode row: run number `i`); throws when the answer is not
   * `i - 1` (code.ts: the run's own answer). Sync for the direct call.
   */
  readonly call: (i: number) => void | Promise<void>;
}
