/**
 * cli: the token report (`zcp gen --report`) and the budget check (`--budget`): what each tool puts
 * into a model's context, counted with the o200k_base tokenizer, per tool, per group and in
 * total, in three forms:
 *
 * - `mcp`: the tool's MCP `tools/list` entry (`artifacts/mcp.json`), as compact JSON;
 * - `openai`: its OpenAI Responses entry (`artifacts/openai-responses.json`, strict where the
 *   tool allows it), as compact JSON; null for a tool without one (ZCP1502);
 * - `planner`: its planner line, as text;
 * - `typescript`: its declaration in the API text (`renderApi`: the method of the `tools` object
 *   a `zcp.run` program calls, with its doc comment), as text.
 *
 * "Compact JSON" is `JSON.stringify(entry)`. A total is the sum of its tools' counts (no
 * separators or wrappers are counted), except `typescript`'s: a bucket's is the whole API text
 * of its tools (their named types, declared once, and the `declare const tools` wrapper
 * included), what a program's author reads. The counts compare tools, groups and formats and gate
 * growth; they are not what a provider bills, since providers render tool definitions into
 * their own prompt format.
 *
 * The report also measures the listing against each provider's strict limits (`checkStrictLimits`
 * of @zcp/runtime: OpenAI Responses and Chat Completions, Anthropic), the listing's entries
 * taken as one request's tools; `--budget` in format `openai` fails on an OpenAI Responses limit
 * too (a strict request over one is refused).
 *
 * Everything here is a function of its arguments, except `loadTokenCounter`, which imports the
 * tokenizer (its tables are megabytes) only when a report is asked for.
 */
import {
  applySelection,
  checkStrictLimits,
  renderApi,
  SEMANTIC_WORKFLOW,
  WORKFLOW_GROUP,
  type Registry,
  type StrictLimit,
  type StrictLimitProvider,
} from "@zcp/runtime/definition";
import type { ArtifactSets } from "../compile/index.js";

const TOKENIZER = "o200k_base";

/** The forms a budget can be checked in. */
const BUDGET_FORMATS = ["mcp", "openai", "planner", "typescript"] as const;
type BudgetFormat = (typeof BUDGET_FORMATS)[number];

/** The providers whose strict limits the report measures, and the one `--budget-format openai` checks. */
const LIMITED: readonly StrictLimitProvider[] = ["openai-responses", "openai-chat", "anthropic"];
const BUDGET_LIMITS: { readonly [F in BudgetFormat]?: StrictLimitProvider } = {
  openai: "openai-responses",
};

/** The profiles the runtime defines. */
const PROFILES = [SEMANTIC_WORKFLOW] as const;
type Profile = (typeof PROFILES)[number];

/** The bucket of the tools without a group, as the text report names it (`null` in JSON). */
const NO_GROUP = "(no group)";

export type TokenCounter = (text: string) => number;

/** Which tools a listing holds: the profile applies first, then the groups. */
interface SelectionRequest {
  readonly profile: Profile | null;
  /** Keeps the tools in any of these groups; null keeps all. */
  readonly groups: readonly string[] | null;
}

export interface ReportOptions {
  /** Print the tables (--report); false when only --budget asked for the counts. */
  readonly table: boolean;
  /** The listing --budget checks and the report sums; null when neither --profile, --groups nor --budget is given. */
  readonly selection: SelectionRequest | null;
  readonly budget: { readonly limit: number; readonly format: BudgetFormat } | null;
}

interface Counts {
  readonly mcp: number;
  readonly openai: number;
  readonly planner: number;
  /** The whole API text of the bucket's tools (not a sum: named types are declared once). */
  readonly typescript: number;
}

interface Bucket extends Counts {
  /** How many tools the bucket holds. */
  readonly tools: number;
}

interface ToolTokens {
  readonly id: string;
  readonly alias: string;
  readonly groups: readonly string[];
  readonly mcp: number;
  /** Null when the tool has no OpenAI entry. */
  readonly openai: number | null;
  readonly planner: number;
  /** The tool's declaration in the registry's API text. */
  readonly typescript: number;
}

interface GroupTokens extends Bucket {
  /** The group, or null for the tools without one. */
  readonly group: string | null;
}

interface SelectionTokens extends Bucket {
  readonly profile: Profile | null;
  readonly groups: readonly string[] | null;
  /** `semantic-workflow` found no tool in the `workflow` group and kept every tool. */
  readonly workflowFallback: boolean;
  /** Names in `groups` that no tool of the registry carries (most likely typos). */
  readonly unknownGroups: readonly string[];
  /** The selected tools, in registry order. */
  readonly aliases: readonly string[];
}

interface BudgetResult {
  readonly format: BudgetFormat;
  readonly limit: number;
  /** The selection's total in `format`. */
  readonly tokens: number;
  /**
   * Format `openai` only: the OpenAI Responses strict limits the selection is over (see
   * `limits`), by name.
   */
  readonly exceeded?: readonly string[];
  /** Within the limit and the provider's strict limits, and every name in --groups is a group some tool carries. */
  readonly ok: boolean;
}

/** One provider's strict limits (`checkStrictLimits`), measured over the listing's entries. */
interface ProviderLimits {
  readonly provider: StrictLimitProvider;
  readonly ok: boolean;
  readonly limits: readonly StrictLimit[];
}

export interface TokenReport {
  readonly tokenizer: typeof TOKENIZER;
  readonly tools: readonly ToolTokens[];
  /** Groups sorted by name, then the tools without a group (when there are any). */
  readonly groups: readonly GroupTokens[];
  readonly total: Bucket;
  readonly selection?: SelectionTokens;
  /** The strict limits of each provider, over the selection's tools (all tools without one). */
  readonly limits: readonly ProviderLimits[];
  readonly budget?: BudgetResult;
}

let counter: Promise<TokenCounter> | undefined;

/** The o200k_base counter. Special-token text (`<|endoftext|>`) in a description counts as plain text. */
export function loadTokenCounter(): Promise<TokenCounter> {
  counter ??= import("gpt-tokenizer/encoding/o200k_base").then(({ countTokens }) => {
    const options = { disallowedSpecial: new Set<string>() };
    return (text: string) => countTokens(text, options);
  });
  return counter;
}

/**
 * Reads the --report/--budget/--budget-format/--profile/--groups values. Null when no token
 * report is asked for; a string is a usage error.
 */
export function reportOptions(values: {
  report?: boolean;
  budget?: string;
  budgetFormat?: string;
  profile?: string;
  groups?: string;
}): ReportOptions | null | string {
  const { report = false, budget, budgetFormat, profile, groups } = values;
  let limit: number | null = null;
  if (budget !== undefined) {
    limit = /^\d+$/.test(budget) ? Number(budget) : NaN;
    if (!Number.isSafeInteger(limit))
      return `--budget must be a whole number of tokens, got "${budget}"`;
  }
  if (budgetFormat !== undefined) {
    if (limit === null) return "--budget-format needs --budget";
    if (!(BUDGET_FORMATS as readonly string[]).includes(budgetFormat))
      return `--budget-format must be ${BUDGET_FORMATS.join(", ")}, got "${budgetFormat}"`;
  }
  if (profile !== undefined && !(PROFILES as readonly string[]).includes(profile))
    return `--profile must be ${PROFILES.join(", ")}, got "${profile}"`;
  const groupList =
    groups === undefined
      ? null
      : [...new Set(groups.split(/[\s,]+/).filter((group) => group !== ""))];
  if (groupList !== null && groupList.length === 0) return "--groups needs at least one group name";
  if (!report && limit === null) {
    if (profile !== undefined || groupList !== null)
      return "--profile and --groups choose the listing for --budget or --report";
    return null;
  }
  const selection =
    profile !== undefined || groupList !== null || limit !== null
      ? { profile: (profile as Profile | undefined) ?? null, groups: groupList }
      : null;
  return {
    table: report,
    selection,
    budget:
      limit === null
        ? null
        : { limit, format: (budgetFormat as BudgetFormat | undefined) ?? "mcp" },
  };
}

/** Counts every tool of `registry` and sums what `options` asks for. */
export function buildReport(
  registry: Registry,
  artifacts: ArtifactSets,
  count: TokenCounter,
  options: ReportOptions,
): TokenReport {
  const api = renderApi(registry.tools).tools;
  const tools: ToolTokens[] = registry.tools.map((tool) => {
    const mcp = artifacts.mcp[tool.id];
    const openai = artifacts["openai-responses"][tool.id];
    return {
      id: tool.id,
      alias: tool.alias,
      groups: tool.groups,
      mcp: mcp === undefined ? 0 : count(JSON.stringify(mcp)),
      openai: openai === undefined ? null : count(JSON.stringify(openai)),
      planner: count(tool.planner),
      typescript: count(api.get(tool.alias) ?? ""),
    };
  });
  const definitions = new Map(registry.tools.map((tool) => [tool.id, tool]));
  const sum = (bucket: readonly ToolTokens[]): Bucket =>
    sumOf(bucket, (chosen) =>
      count(renderApi(chosen.map((tool) => definitions.get(tool.id)!)).text),
    );

  const names = [...new Set(tools.flatMap((tool) => tool.groups))].sort(compareText);
  const groups: GroupTokens[] = names.map((group) => ({
    group,
    ...sum(tools.filter((tool) => tool.groups.includes(group))),
  }));
  const ungrouped = tools.filter((tool) => tool.groups.length === 0);
  if (ungrouped.length > 0) groups.push({ group: null, ...sum(ungrouped) });

  const report: { -readonly [K in keyof TokenReport]: TokenReport[K] } = {
    tokenizer: TOKENIZER,
    tools,
    groups,
    total: sum(tools),
    limits: [],
  };
  let listed = tools;
  if (options.selection) {
    const request = options.selection;
    // The runtime's own rule (`applySelection`), so the budget counts what a session would list.
    const selected = new Set(
      applySelection(registry.tools, {
        ...(request.profile ? { profile: request.profile } : {}),
        ...(request.groups ? { groups: request.groups } : {}),
      }).map((tool) => tool.id),
    );
    const chosen = {
      tools: tools.filter((tool) => selected.has(tool.id)),
      workflowFallback:
        request.profile === SEMANTIC_WORKFLOW &&
        !registry.tools.some((tool) => tool.groups.includes(WORKFLOW_GROUP)),
    };
    listed = chosen.tools;
    const unknownGroups = (request.groups ?? []).filter((group) => !names.includes(group));
    report.selection = {
      profile: request.profile,
      groups: request.groups,
      workflowFallback: chosen.workflowFallback,
      unknownGroups,
      aliases: chosen.tools.map((tool) => tool.alias),
      ...sum(chosen.tools),
    };
  }
  report.limits = LIMITED.map((provider) => {
    const set = artifacts[provider];
    const entries = listed.flatMap((tool) => set[tool.id] ?? []);
    return { provider, ...checkStrictLimits(entries, provider) };
  });
  if (report.selection && options.budget) {
    const { limit, format } = options.budget;
    const tokens = report.selection[format];
    const checked = report.limits.find((limits) => limits.provider === BUDGET_LIMITS[format]);
    const exceeded = checked?.limits.filter((each) => !each.ok).map((each) => each.name);
    report.budget = {
      format,
      limit,
      tokens,
      ...(exceeded ? { exceeded } : {}),
      ok: tokens <= limit && !exceeded?.length && report.selection.unknownGroups.length === 0,
    };
  }
  return report;
}

/** The sums of `tools`' counts, and `typescript(tools)`: the tokens of their whole API text. */
function sumOf(
  tools: readonly ToolTokens[],
  typescript: (tools: readonly ToolTokens[]) => number,
): Bucket {
  let mcp = 0;
  let openai = 0;
  let planner = 0;
  for (const tool of tools) {
    mcp += tool.mcp;
    openai += tool.openai ?? 0;
    planner += tool.planner;
  }
  return { tools: tools.length, mcp, openai, planner, typescript: typescript(tools) };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The text report: with `table`, a table of the tools and their total and one of the groups;
 * then the selection and the budget verdict when they were asked for. Ends with a newline.
 */
export function formatReport(report: TokenReport, table: boolean): string {
  const lines: string[] = [];
  if (table) {
    lines.push(
      `tokens (${report.tokenizer}): MCP and OpenAI Responses entries as compact JSON, planner lines and TypeScript declarations as text (a total's typescript: the whole API text)`,
    );
    const total = report.total;
    lines.push(
      ...align(
        [
          ["tool", "id", "groups", "mcp", "openai", "planner", "typescript"],
          ...report.tools.map((tool) => [
            tool.alias,
            tool.id,
            tool.groups.join(",") || "-",
            String(tool.mcp),
            tool.openai === null ? "-" : String(tool.openai),
            String(tool.planner),
            String(tool.typescript),
          ]),
          [
            `total (${total.tools} tool${total.tools === 1 ? "" : "s"})`,
            "",
            "",
            String(total.mcp),
            String(total.openai),
            String(total.planner),
            String(total.typescript),
          ],
        ],
        3,
      ),
    );
    lines.push("");
    lines.push(
      ...align(
        [
          ["group", "tools", "mcp", "openai", "planner", "typescript"],
          ...report.groups.map((group) => [
            group.group ?? NO_GROUP,
            String(group.tools),
            String(group.mcp),
            String(group.openai),
            String(group.planner),
            String(group.typescript),
          ]),
        ],
        1,
      ),
    );
    lines.push("");
    const listed = report.selection?.tools ?? report.total.tools;
    lines.push(
      `provider limits (strict mode, ${report.selection ? "the listing's" : "all"} ${listed} tool${listed === 1 ? "" : "s"} in one request):`,
    );
    lines.push(
      ...align(
        [
          ["provider", "limit", "actual / max", ""],
          ...report.limits.flatMap(({ provider, limits }) =>
            limits.map((each) => [
              provider,
              each.name,
              `${each.actual} / ${each.limit}`,
              each.ok ? "ok" : "OVER",
            ]),
          ),
        ],
        2,
        true,
      ),
    );
  }
  const { selection, budget } = report;
  if (selection) {
    const chosen: string[] = [];
    if (selection.profile)
      chosen.push(
        `profile ${selection.profile}${selection.workflowFallback ? `, no tool in group ${WORKFLOW_GROUP} so all kept` : ""}`,
      );
    if (selection.groups) chosen.push(`groups ${selection.groups.join(",")}`);
    lines.push(
      `listing: ${selection.tools} of ${report.total.tools} tool${report.total.tools === 1 ? "" : "s"} (${chosen.length > 0 ? chosen.join("; ") : "all"}): mcp ${selection.mcp}, openai ${selection.openai}, planner ${selection.planner}, typescript ${selection.typescript} tokens`,
    );
    if (selection.unknownGroups.length > 0)
      lines.push(`--groups names a group no tool carries: ${selection.unknownGroups.join(", ")}`);
  }
  if (budget) {
    const exceeded = budget.exceeded ?? [];
    const verdict =
      budget.tokens > budget.limit
        ? `over by ${budget.tokens - budget.limit}`
        : budget.ok || exceeded.length > 0
          ? "within"
          : "failed: --groups names a group no tool carries";
    lines.push(`budget ${budget.format}: ${budget.tokens} of ${budget.limit} tokens, ${verdict}`);
    const provider = BUDGET_LIMITS[budget.format];
    const limits = report.limits.find((each) => each.provider === provider)?.limits ?? [];
    for (const over of limits.filter((each) => exceeded.includes(each.name)))
      lines.push(
        `budget ${budget.format}: over the ${provider} strict limit on ${over.name}: ${over.actual} of ${over.limit}`,
      );
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}

/**
 * Pads the columns of `rows`: the first `textColumns` to the left, the rest (numbers) to the
 * right, but the last to the left with `lastText`.
 */
function align(rows: readonly string[][], textColumns: number, lastText = false): string[] {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, i) =>
        i < textColumns || (lastText && i === row.length - 1)
          ? cell.padEnd(widths[i] ?? 0)
          : cell.padStart(widths[i] ?? 0),
      )
      .join("  ")
      .trimEnd(),
  );
}
