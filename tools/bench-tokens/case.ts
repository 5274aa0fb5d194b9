/**
 * A benchmark case and how it runs on one surface: the shared system prompt (plus what the
 * surface needs), the user's ask, then the plan's turns (each a set of parallel calls whose
 * arguments may use earlier results), then the final answer, which the verifier checks.
 * Each run gets a fresh workspace folder, seeded by the case and named to the workbench
 * fixture through ZCP_WORKBENCH_DIR, so runs go one at a time.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { GeneratedModule, JsonValue } from "@zcp/runtime";
import { openSurface, type Call, type ListSelection, type SurfaceName } from "./surfaces.ts";
import { bill, tokensOf, type Message, type TurnTokens } from "./transcript.ts";

/** The same on every surface. */
export const SYSTEM_PROMPT =
  "You answer the user's question with the tools you are given. Call tools rather than guess; make independent calls in the same turn. When you have the answer, reply with it as single-line JSON only.";

/** Values of every earlier turn's calls, turn by turn. */
export type Results = readonly (readonly JsonValue[])[];
export type Answer = { readonly [key: string]: unknown };

/** The turns an agent makes (each a set of parallel calls, built from earlier results), then its answer. */
export interface Plan {
  readonly turns: readonly ((results: Results) => Call[])[];
  readonly answer: (results: Results) => Answer;
}

/** A verifier's verdict: true, false, or the problems it found (none means it passed). */
export type Verdict = boolean | readonly string[];

export interface BenchCase {
  readonly id: string;
  readonly tier: string;
  /** The generated registry the case's tools come from. */
  readonly registry: GeneratedModule;
  /** Prepares the workspace folder before the first turn. */
  readonly seed?: (workspace: string) => Promise<void>;
  readonly prompt: string;
  /** The plan on every surface without its own in `plans`. */
  readonly plan: Plan;
  /** Plans of surfaces that do it differently: with the workflow tools, or with handles. */
  readonly plans?: { readonly [S in SurfaceName]?: Plan };
  /** What the ZCP surfaces ask tools/list for (a profile or groups; the same for every case of a tier). */
  readonly view?: ListSelection;
  /** Checks the final answer and, for the workbench, the files the run left in the workspace. */
  readonly verify: (answer: Answer, workspace: string) => Verdict | Promise<Verdict>;
}

export const planOf = (bench: BenchCase, surface: SurfaceName): Plan => bench.plans?.[surface] ?? bench.plan;

export interface CaseRun {
  readonly case: string;
  readonly tier: string;
  readonly surface: SurfaceName;
  readonly turns: readonly TurnTokens[];
  readonly calls: number;
  readonly tokens: number;
  /** What tells the model its tools on every request: the definitions' JSON, or on zcp-compact the instructions (grammar and planner lines) added to its system prompt. */
  readonly toolTokens: number;
  readonly verified: boolean;
  /** What the verifier found wrong (empty when it passed). */
  readonly problems: readonly string[];
  /** Tool errors met on the way (a correct plan has none). */
  readonly errors: readonly string[];
  readonly messages: readonly Message[];
}

export async function runCase(bench: BenchCase, surfaceName: SurfaceName): Promise<CaseRun> {
  const workspace = await mkdtemp(path.join(os.tmpdir(), `zcp-bench-${bench.id}-`));
  const previous = process.env.ZCP_WORKBENCH_DIR;
  process.env.ZCP_WORKBENCH_DIR = workspace;
  try {
    await bench.seed?.(workspace);
    const surface = await openSurface(surfaceName, bench.registry, surfaceName.startsWith("zcp") && bench.view ? { select: bench.view } : {});
    const plan = planOf(bench, surfaceName);
    try {
      const system = surface.instructions === "" ? SYSTEM_PROMPT : `${SYSTEM_PROMPT}\n\n${surface.instructions}`;
      const messages: Message[] = [{ role: "system", content: system }, { role: "user", content: bench.prompt }];
      const results: JsonValue[][] = [];
      const errors: string[] = [];
      let calls = 0;
      for (const step of plan.turns) {
        const planned = step(results);
        const outcome = await surface.turn(planned);
        messages.push(outcome.assistant, ...outcome.results);
        results.push([...outcome.values]);
        errors.push(...outcome.errors);
        calls += planned.length;
      }
      const answer = plan.answer(results);
      messages.push({ role: "assistant", content: JSON.stringify(answer) });
      const turns = bill(surface.tools, messages);
      const tokens = turns.reduce((sum, turn) => sum + turn.prompt + turn.completion, 0);
      const toolTokens = surface.tools.length > 0 ? tokensOf(surface.tools) : surface.instructions === "" ? 0 : tokensOf(surface.instructions);
      const verdict = await bench.verify(answer, workspace);
      const problems = verdict === true ? [] : verdict === false ? ["the verifier refused the answer or the workbook"] : [...verdict];
      const verified = errors.length === 0 && problems.length === 0;
      return { case: bench.id, tier: bench.tier, surface: surfaceName, turns, calls, tokens, toolTokens, verified, problems, errors, messages };
    } finally {
      await surface.close();
    }
  } finally {
    if (previous === undefined) delete process.env.ZCP_WORKBENCH_DIR;
    else process.env.ZCP_WORKBENCH_DIR = previous;
    await rm(workspace, { recursive: true, force: true });
  }
}
