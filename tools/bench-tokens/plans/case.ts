/**
 * A benchmark case and how it runs on one surface. A case has one ask and one verifier, and
 * one or more plans: the ways a competent agent could do it (with the primitive tools, with a
 * workflow tool, reading a whole sheet or only the rows it needs). A plan is open to a surface
 * when the surface lists every tool it calls. On each surface every open plan runs for real and
 * must pass the verifier; the surface is billed for the cheapest (fewest tokens, then fewest
 * turns), so each side gets its best plan, not the one the other side needs; its cached figure
 * is that of the plan cheapest with the prefix cache (transcript.ts), most often the same one.
 *
 * A run: the shared system prompt (plus what the surface needs), the user's ask, then the plan's
 * turns (each a set of parallel calls whose arguments may use earlier results; a turn of no
 * calls ends the plan early, as an agent stops when it has what it needs), then the final
 * answer, built from what the calls returned. Each run gets a fresh workspace folder, seeded
 * by the case and named to the workbench fixture through ZCP_WORKBENCH_DIR, so runs go one at
 * a time.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { GeneratedModule, JsonValue } from "@zcp/runtime";
import { firstSentence } from "@zcp/runtime/definition";
import { PROGRAMS } from "./programs.ts";
import { openSurface } from "../surfaces/open.ts";
import { PROGRAM_FORMS } from "../surfaces/program-forms.ts";
import {
  FIND_ALIAS,
  isCode,
  isSearch,
  type CodeProtocol,
  searchesFirst,
  type Call,
  type SurfaceSpec,
} from "../surfaces/spec.ts";
import { NotListed } from "../surfaces/turn.ts";
import {
  bill,
  tokensOf,
  toolListTokens,
  totals,
  type Message,
  type TurnTokens,
} from "../surfaces/transcript.ts";

/** The same on every surface. */
export const SYSTEM_PROMPT =
  "You answer the user's question with the tools you are given. Call tools rather than guess; make independent calls in the same turn. When you have the answer, reply with it as single-line JSON only.";

/** Values of every earlier turn's calls, turn by turn. */
export type Results = readonly (readonly JsonValue[])[];
export type Answer = { readonly [key: string]: unknown };

/** The turns an agent makes (each a set of parallel calls, built from earlier results; none ends the plan), then its answer. */
export interface Plan {
  /** What the plan does, e.g. "primitive", "workflow", "metadata first". */
  readonly name: string;
  readonly turns: readonly ((results: Results) => Call[])[];
  readonly answer: (results: Results) => Answer;
}

/** A verifier's verdict: true, false, or the problems it found (none means it passed). */
type Verdict = boolean | readonly string[];

/** The problems a verdict names: none when it passed. */
export const problemsOf = (verdict: Verdict): readonly string[] =>
  verdict === true
    ? []
    : verdict === false
      ? ["the verifier refused the answer or the workbook"]
      : [...verdict];

export interface BenchCase {
  readonly id: string;
  readonly tier: string;
  /** The generated registry the case's tools come from. */
  readonly registry: GeneratedModule;
  /** Prepares the workspace folder before the first turn. */
  readonly seed?: (workspace: string) => Promise<void>;
  readonly prompt: string;
  /** The ways to do it; each surface runs those it lists the tools of. */
  readonly plans: readonly Plan[];
  /** Checks the final answer and, for the workbench, the files the run left in the workspace. */
  readonly verify: (answer: Answer, workspace: string) => Verdict | Promise<Verdict>;
}

export interface PlanRun {
  readonly plan: string;
  readonly turns: readonly TurnTokens[];
  readonly calls: number;
  /** Prompt plus completion, as sent. */
  readonly tokens: number;
  readonly prompt: number;
  readonly completion: number;
  /** Prompt tokens a prefix cache serves (see transcript.ts). */
  readonly cachedPrompt: number;
  /** What the run costs with the cache, in uncached-token equivalents. */
  readonly cached: number;
  /** What tells the model its tools on every request: the definitions' JSON and the instructions the surface adds to the system prompt (zcp-compact's grammar and planner lines, zcp-code's API text). */
  readonly toolTokens: number;
  readonly verified: boolean;
  /** What the verifier found wrong (empty when it passed). */
  readonly problems: readonly string[];
  /** Tool errors met on the way (a correct plan has none). */
  readonly errors: readonly string[];
  readonly messages: readonly Message[];
  /** The registry tools the plan called, in the order first called. */
  readonly called: readonly string[];
  /** On a search surface: the searches made, each with the tools it was for and whether it found them. */
  readonly searches: readonly SearchRun[];
  /** The tokens of the messages that carried the searches' answers (once each, not as context). */
  readonly searchAnswerTokens: number;
}

interface SearchRun {
  readonly query: string;
  readonly for: string;
  readonly found: boolean;
}

export interface CaseRun extends PlanRun, SurfaceSpec {
  readonly case: string;
  readonly tier: string;
  /** Every plan open to the surface, the billed one among them. */
  readonly alternatives: readonly {
    readonly plan: string;
    readonly tokens: number;
    readonly cached: number;
    readonly turns: number;
    readonly verified: boolean;
  }[];
  /** Plans that call a tool this surface does not list. */
  readonly closed: readonly string[];
  /** The plan cheapest with the prefix cache, whose cost `cached` is (most often the billed plan). */
  readonly cachedPlan: string;
}

/**
 * The queries a search surface's agent makes for a tool it needs, in order, each round only for
 * the tools not found yet: the tool's job in a sentence (the first sentence of its description, cut
 * to the whole words within the search tool's 200 characters:
 * a stand-in for the step a model would describe after reading the ask, the same text on every
 * search surface), then, for a miss, the words of its alias (\`excel.write_data\` → "excel write
 * data"). A tool still not found cannot be called: the plan is closed to the surface.
 */
const QUERIES: readonly ((registry: GeneratedModule, alias: string) => string)[] = [
  (registry, alias) =>
    words(firstSentence(registry.registry.tools.find((tool) => tool.alias === alias)!.description)),
  (_registry, alias) => alias.split(/[._]+/).join(" "),
];

/** A search of `zcp.find_tools`, as every search surface but `mcp-search-execute` makes it. */
const findCall = (query: string): Call => ({ alias: FIND_ALIAS, args: { query } });

/** The search tool's limit on a query's length. */
const QUERY_MAX = 200;
/** `text` up to the last whole word within the search tool's limit. */
const words = (text: string) =>
  text.length <= QUERY_MAX ? text : text.slice(0, QUERY_MAX + 1).replace(/\s+\S*$/, "");

/** The registry tools a plan calls (from a run on the text protocol over the same catalog), or null when it is not open there; once per case, plan and catalog. */
const plannedTools = new Map<string, Promise<readonly string[] | null>>();
function toolsOf(
  bench: BenchCase,
  plan: Plan,
  spec: SurfaceSpec,
): Promise<readonly string[] | null> {
  const key = `${bench.id}\u0000${plan.name}\u0000${spec.catalog}`;
  if (!plannedTools.has(key))
    plannedTools.set(
      key,
      runPlan(bench, plan, { protocol: "zcp-compact", catalog: spec.catalog }).then(
        (run) => run?.called.filter((alias) => !alias.startsWith("zcp.")) ?? null,
      ),
    );
  return plannedTools.get(key)!;
}

/** Runs one plan on a fresh surface and workspace; null when the surface does not list a tool the plan calls. */
export async function runPlan(
  bench: BenchCase,
  plan: Plan,
  spec: SurfaceSpec,
): Promise<PlanRun | null> {
  const needed = isSearch(spec.protocol)
    ? await toolsOf(bench, plan, spec)
    : searchesFirst(spec)
      ? programTools(bench)
      : [];
  if (needed === null) return null;
  const workspace = await mkdtemp(path.join(os.tmpdir(), `zcp-bench-${bench.id}-`));
  const previous = process.env.ZCP_WORKBENCH_DIR;
  process.env.ZCP_WORKBENCH_DIR = workspace;
  try {
    await bench.seed?.(workspace);
    const surface = await openSurface(spec, bench.registry);
    try {
      const system =
        surface.instructions === "" ? SYSTEM_PROMPT : `${SYSTEM_PROMPT}\n\n${surface.instructions}`;
      const messages: Message[] = [
        { role: "system", content: system },
        { role: "user", content: bench.prompt },
      ];
      const results: JsonValue[][] = [];
      const errors: string[] = [];
      const called: string[] = [];
      const searches: SearchRun[] = [];
      let searchAnswerTokens = 0;
      let calls = 0;
      for (const query of QUERIES) {
        const missing = needed.filter((alias) => !surface.listed.has(alias));
        if (missing.length === 0) break;
        const texts = missing.map((alias) => query(bench.registry, alias));
        const searched = surface.searchCalls?.(texts) ?? texts.map(findCall);
        const outcome = await surface.turn(searched);
        messages.push(outcome.assistant, ...outcome.results);
        errors.push(...outcome.errors);
        calls += searched.length;
        searchAnswerTokens += outcome.results.reduce((sum, result) => sum + tokensOf(result), 0);
        missing.forEach((alias, i) =>
          searches.push({ query: texts[i]!, for: alias, found: surface.listed.has(alias) }),
        );
      }
      // A tool no search returned cannot be called, in a program either: the plan is closed.
      const unfound = needed.filter((alias) => !surface.listed.has(alias));
      if (unfound.length > 0) throw new NotListed(`no search returned ${unfound.join(", ")}`);
      // A surface whose searches answer less than a call needs reads that too, in one more turn.
      const detail = needed.length > 0 ? surface.detailCalls?.(needed) : undefined;
      if (detail !== undefined) {
        const outcome = await surface.turn(detail);
        messages.push(outcome.assistant, ...outcome.results);
        errors.push(...outcome.errors);
        calls += detail.length;
        searchAnswerTokens += outcome.results.reduce((sum, result) => sum + tokensOf(result), 0);
      }
      for (const step of plan.turns) {
        const planned = step(results);
        if (planned.length === 0) break;
        for (const call of planned) if (!called.includes(call.alias)) called.push(call.alias);
        const outcome = await surface.turn(planned);
        messages.push(outcome.assistant, ...outcome.results);
        results.push([...outcome.values]);
        errors.push(...outcome.errors);
        calls += planned.length;
      }
      const answer = plan.answer(results);
      messages.push({ role: "assistant", content: JSON.stringify(answer) });
      const turns = bill(surface.tools, messages);
      const toolTokens =
        toolListTokens(surface.tools) +
        (surface.instructions === "" ? 0 : tokensOf(surface.instructions));
      const problems = problemsOf(await bench.verify(answer, workspace));
      const verified = errors.length === 0 && problems.length === 0;
      return {
        plan: plan.name,
        turns,
        calls,
        ...totals(turns),
        toolTokens,
        verified,
        problems,
        errors,
        messages,
        called,
        searches,
        searchAnswerTokens,
      };
    } catch (error) {
      if (error instanceof NotListed) return null;
      throw error;
    } finally {
      await surface.close();
    }
  } finally {
    if (previous === undefined) delete process.env.ZCP_WORKBENCH_DIR;
    else process.env.ZCP_WORKBENCH_DIR = previous;
    await rm(workspace, { recursive: true, force: true });
  }
}

/** Runs every plan open to the surface and bills the cheapest verified one; the case is verified when every open plan is. */
/** The tools a case's program calls, in the order it names them. */
function programTools(bench: BenchCase): string[] {
  const named: string[] = [];
  PROGRAMS[bench.id]?.((alias) => {
    if (!named.includes(alias)) named.push(alias);
    return alias;
  });
  return named;
}

/** A code surface's one plan: one call of its code tool with the case's program (programs.ts); the answer is what the program returned. */
function programPlan(bench: BenchCase, protocol: CodeProtocol): Plan {
  const program = PROGRAMS[bench.id];
  if (program === undefined) throw new Error(`${bench.id}: no program in programs.ts`);
  const form = PROGRAM_FORMS[protocol];
  const code = form.code(program(form.name));
  return {
    name: "program",
    turns: [() => [{ alias: form.tool, args: { code } }]],
    answer: (results) => results[0]![0] as Answer,
  };
}

export async function runCase(bench: BenchCase, spec: SurfaceSpec): Promise<CaseRun> {
  const runs: PlanRun[] = [];
  const closed: string[] = [];
  const plans = isCode(spec.protocol) ? [programPlan(bench, spec.protocol)] : bench.plans;
  for (const plan of plans) {
    const run = await runPlan(bench, plan, spec);
    if (run === null) closed.push(plan.name);
    else runs.push(run);
  }
  if (runs.length === 0)
    throw new Error(
      `${bench.id}: no plan is open to ${spec.protocol} over the ${spec.catalog} catalog`,
    );
  const candidates = runs.filter((run) => run.verified);
  const pool = candidates.length > 0 ? candidates : runs;
  const cheapest = (cost: (run: PlanRun) => number) =>
    pool.reduce((best, run) =>
      cost(run) < cost(best) || (cost(run) === cost(best) && run.turns.length < best.turns.length)
        ? run
        : best,
    );
  const billed = cheapest((run) => run.tokens);
  // With the cache each surface may do better with another plan: give it that one too.
  const withCache = cheapest((run) => run.cached);
  const verified = runs.every((run) => run.verified);
  const named = (pick: (run: PlanRun) => readonly string[]) =>
    runs.flatMap((run) => pick(run).map((text) => `${run.plan}: ${text}`));
  const alternatives = runs.map(({ plan, tokens, cached, turns, verified }) => ({
    plan,
    tokens,
    cached,
    turns: turns.length,
    verified,
  }));
  return {
    ...billed,
    ...spec,
    case: bench.id,
    tier: bench.tier,
    verified,
    problems: named((run) => run.problems),
    errors: named((run) => run.errors),
    alternatives,
    closed,
    cached: withCache.cached,
    cachedPlan: withCache.plan,
  };
}
