/**
 * The type-mapping conformance suite: every case's values are checked by tsc, by Ajv on the
 * MCP input schema and by the generated validator, in one generated project. Fails on any
 * disagreement, including a documented loss or refusal that no longer happens (the case must
 * be updated), and when behavioural agreement falls below 95%.
 */
import { describe, expect, it } from "vitest";
import { CATEGORIES } from "./index.js";
import { agreement, disagreements, summarize, table } from "./report.js";
import { runConformance } from "./run.js";

describe("type conformance", () => {
  it("has at least 200 cases with unique ids per category", () => {
    const all = CATEGORIES.flatMap((category) =>
      category.cases.map((item) => `${category.name}.${item.id}`),
    );
    expect(all.length).toBeGreaterThanOrEqual(200);
    expect(new Set(all).size).toBe(all.length);
  });

  it("every case agrees, or differs exactly as documented", async () => {
    const { results, problems } = await runConformance(CATEGORIES);
    const { rows, total } = summarize(results);
    console.log(`${table(rows, total)}\n`);
    expect(problems).toEqual([]);
    expect(disagreements(results)).toEqual([]);
    // The goal: at least 95% behavioural agreement, the rest documented.
    expect(agreement(total)).toBeGreaterThanOrEqual(0.95);
  });
});
