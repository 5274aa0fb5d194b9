/**
 * The protocol comparison: every surface over the same catalog, against the reference's
 * published ratios and the target set for function calling; and what the listings tell about it.
 */
import { TIERS, WORKFLOW_CASES } from "../plans/suite.ts";
import { PROTOCOLS, type Catalog, type Protocol } from "../surfaces/spec.ts";
import { CACHE, tokensOf } from "../surfaces/transcript.ts";
import { DEFAULT_FC, type Figures } from "./figures.ts";
import { head, int, percent, row, x } from "./format.ts";
import { documented, type Listing } from "./listings.ts";
import { GENERAL, inCatalog, ZCP, type Summary } from "./summary.ts";
import { SHOWN, tierTable } from "./tier-tables.ts";

/** The reference's published mcp/zcp ratios (zcp-reference.md §8.2). */
const REFERENCE: Record<string, number> = { A: 1.1, B: 16.01, C: 34.49, D: 9.6, overall: 3.83 };
/** What mcp/zcp-fc was to exceed in every tier. */
const PROTOCOL_TARGET = 1.5;

/** The figures the comparison's text quotes. */
function comparison({ tiers, listings }: Figures) {
  const headline = tiers.all.overall!;
  const growth = (catalog: Catalog) =>
    listings[catalog][DEFAULT_FC].tokens / listings[catalog].mcp.tokens - 1;
  const share = (p: Protocol) => listings.all[p].tokens / listings.all.mcp.tokens;
  const missed = [...TIERS, "overall"].filter(
    (tier) => tiers.all[tier]!.ratios["mcp/zcp-compact"]! < REFERENCE[tier]!,
  );
  const fcMissed = [...TIERS, "overall"].filter(
    (tier) => tiers.all[tier]!.ratios[`mcp/${DEFAULT_FC}`]! <= PROTOCOL_TARGET,
  );
  const range = (pick: (summary: Summary) => number) => {
    const values = TIERS.map((tier) => pick(tiers.all[tier]!));
    return `${x(Math.min(...values))}–${x(Math.max(...values))}`;
  };
  const sameTurns = [...TIERS, "overall"].every((tier) =>
    ZCP.every((p) => tiers.all[tier]!.turns[p] === tiers.all[tier]!.turns.mcp),
  );
  return { headline, growth, share, missed, fcMissed, range, sameTurns };
}

/** Prompt and completion per tier, all 40 tools. */
function splitTable({ tiers }: Figures): string {
  return [
    head([
      ["tier", false],
      ...PROTOCOLS.flatMap((p) =>
        [`${p} prompt`, `${p} completion`, `${p} cached prompt`].map(
          (title) => [title, true] as const,
        ),
      ),
    ]),
    ...[...TIERS, "overall"].map((tier) => {
      const summary = tiers.all[tier]!;
      return row([
        tier,
        ...PROTOCOLS.flatMap((p) => [
          int(summary.prompt[p]),
          int(summary.completion[p]),
          int(summary.cachedPrompt[p]),
        ]),
      ]);
    }),
  ].join("\n");
}

/** Each tier's ratios against the reference's and the function-calling target. */
export function targetTable({ tiers }: Figures): string {
  const targetRows = [...TIERS, "overall"].map((tier) => {
    const ratios = tiers.all[tier]!.ratios;
    const compact = ratios["mcp/zcp-compact"]!;
    const fc = ratios[`mcp/${DEFAULT_FC}`]!;
    return row([
      tier,
      x(REFERENCE[tier]!),
      x(compact),
      compact >= REFERENCE[tier]! ? "met" : "**missed**",
      x(fc),
      fc > PROTOCOL_TARGET ? "met" : "**missed**",
    ]);
  });
  return [
    head([
      ["tier", false],
      ["reference mcp/zcp", true],
      ["mcp/zcp-compact", true],
      ["≥ reference", false],
      [`mcp/${DEFAULT_FC}`, true],
      [`> ${PROTOCOL_TARGET}x`, false],
    ]),
    ...targetRows,
  ].join("\n");
}

export function protocolSection(f: Figures): string {
  const { headline, growth, missed, fcMissed, range, sameTurns } = comparison(f);
  return `## The protocol comparison

Every surface lists the same catalog, all 40 tools of the workbench (its 19 primitives and 21 workflow
tools; the ZCP surfaces add their handle tool \`zcp.handle\`), with the documentation its format
carries, and is billed for its cheapest correct plan. \`mcp\` is a plain MCP server, read with the
official v2 SDK client on the 2025 handshake; its figures hold for both MCP eras, since on
2026-07-28 it lists the same functions, byte for byte (find-2026.test.ts checks it); \`zcp-fc\` is
native ZCP with OpenAI strict function calling over the artifacts \`zcp gen\` writes by default;
\`zcp-fc-lean\` the same over its lean artifacts (an option: descriptions cut to their first sentence,
and no constraints the generated validators enforce anyway); \`zcp-compact\` native ZCP with planner
lines (signatures with the first sentence of each description and the parameters' descriptions) and
the \`CALL\`/\`RET\` text protocol. \`cached\` is the cost with a prefix cache at a ${percent(CACHE.discount)} discount.

${tierTable(f, "all", ["B-D general", "B-D case-shaped"])}

Over the same tools, MCP costs ${x(headline.ratios["mcp/zcp-compact"]!)} what ZCP's text protocol costs overall (${range((summary) => summary.ratios["mcp/zcp-compact"]!)} by
tier; ${x(headline.cachedRatios["mcp/zcp-compact"]!)} with the cache). Function calling over the default artifacts costs about what MCP
costs (${x(headline.ratios[`mcp/${DEFAULT_FC}`]!)}): strict definitions are ${percent(growth("all"))} larger than MCP's, and both sides take ${sameTurns ? "the same" : "about the same"}
turns. Lean artifacts make it ${x(headline.ratios["mcp/zcp-fc-lean"]!)}; they are a \`zcp gen\` feature rather than a protocol one (an
MCP server that validates its own arguments could list lean schemas too), so the comparison of
protocols uses the full ones. \`B-D general\` and \`B-D case-shaped\` split tiers B–D by the case's
workflow tool (see "Workflow tools"): ${GENERAL.size} are general, ${WORKFLOW_CASES.length - GENERAL.size} keep their case's shape.

Without workflow tools: the same cases with the 19 primitives on every surface (an MCP server
without the workflow group or a host's tool filter; a native client's \`excludeGroups\`), a labeled
variant:

${tierTable(f, "primitive")}

Prompt and completion, all 40 tools (per-case averages; \`cached prompt\` is the part of the prompt a
prefix cache serves):

${splitTable(f)}

Targets set before the comparison was made fair: \`mcp/zcp-compact\` at least the reference's published
ratio, and \`mcp/${DEFAULT_FC}\` above ${PROTOCOL_TARGET}x, in every tier (all 40 tools):

${targetTable(f)}

${missed.length === 0 ? "Every reference ratio is met." : `The reference ratio is missed in ${missed.join(", ")}.`} The reference's native side listed one tool per case, chosen
by its harness from the expected answer, and its MCP side sent 46 full schemas on every request while
its model wandered (3.9 turns in B, 8.7 in C, one case at the 14-round cap, 118,913 tokens). Here both
sides list the same 40 tools and take their cheapest correct plan (${sameTurns ? "the same number of turns in every tier" : "about the same number of turns"}), so
the ratio is close to the ratio of what the two sides send to describe the tools on every request
(the table under "Reading the figures"). ${fcMissed.length === 0 ? `\`mcp/${DEFAULT_FC}\` is above ${PROTOCOL_TARGET}x in every tier.` : `\`mcp/${DEFAULT_FC}\` is at or below ${PROTOCOL_TARGET}x in ${fcMissed.join(", ")}, for the reason above: over the same catalog the strict definitions are not smaller than MCP's, and only the handle tool, the result encoding and handles differ.`}

`;
}

export function readingSection(f: Figures): string {
  const { runs, listings, weatherListing, bare } = f;
  const { headline, growth, share, sameTurns } = comparison(f);
  const listingRow = (label: string, of: Record<Protocol, Listing>) =>
    row([label, ...PROTOCOLS.map((p) => `${int(of[p].tokens)} (${of[p].tools})`)]);
  const listingTableMd = [
    head([["catalog", false], ...PROTOCOLS.map((p) => [p, true] as const)]),
    listingRow("all (40 workbench tools)", listings.all),
    listingRow("primitive (19)", listings.primitive),
    listingRow("weather (4)", weatherListing),
  ].join("\n");
  const billedWorkflow = (p: Protocol) =>
    inCatalog(runs, "all").filter((run) => run.protocol === p && run.plan === "workflow").length;
  const billedPrimitive = (p: Protocol) =>
    inCatalog(runs, "all").filter(
      (run) =>
        run.protocol === p &&
        run.tier !== "A" &&
        TIERS.includes(run.tier) &&
        run.plan === "primitive",
    ).length;

  return `## Reading the figures

What tells the model its tools, on every request (tokens, and in brackets the tools listed):

${listingTableMd}

- Over the same tools and the same plans, the ratios follow this table: both sides take ${sameTurns ? "the same" : "about the same"} turns,
  and the listing is most of every prompt (${percent((listings.all.mcp.tokens * headline.turns.mcp) / headline.prompt.mcp)} of mcp's, all 40 tools, overall).
- Strict function calling makes every optional parameter required and nullable and moves defaults
  and unsupported keywords into descriptions, so zcp-fc's definitions are ${percent(growth("all"))} larger than MCP's for all
  40 tools (${percent(growth("primitive"))} for the primitives).
- zcp-fc-lean's definitions are ${percent(share("zcp-fc-lean"))} of MCP's; zcp-compact's instructions are ${percent(share("zcp-compact"))}, and carry
  ${documented(listings.all["zcp-compact"])}. Without that documentation (\`tools/list\` with
  \`docs: false\`) they would be ${int(tokensOf(bare))} tokens, ${percent(tokensOf(bare) / listings.all.mcp.tokens)} of MCP's definitions.
- With all 40 tools, the workflow plan is billed in ${PROTOCOLS.map((p) => `${billedWorkflow(p)}`).join(", ")} of the 21 cases of B–D (${PROTOCOLS.join(", ")}), the primitive plan in ${PROTOCOLS.map((p) => `${billedPrimitive(p)}`).join(", ")}.
- The cache takes the most off the side that re-sends the most: ${SHOWN.map((p) => `${p} ${int(headline.tokens[p])} → ${int(headline.cached[p])}`).join(", ")} per case overall.
- Completions are small on every surface; zcp-compact's are the smallest (${SHOWN.map((p) => `${p} ${int(headline.completion[p])}`).join(", ")} per case overall), since a \`CALL\` line is shorter than a tool call's JSON.

`;
}
