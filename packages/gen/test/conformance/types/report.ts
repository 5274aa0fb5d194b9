/**
 * The conformance table: per category `cases | agree | documented loss | refused | disagree`,
 * and the overall agreement.
 *
 * Behavioural agreement is (agree + right refusals) / cases. A right refusal generates no tool
 * where none can be right, under a documented code: the type has no JSON form (functions,
 * `Map`, `Set`, `symbol`, `bigint`, a required `never`...: ZCP1201, ZCP1202), or the author's
 * import or tags are wrong (ZCP1203, ZCP1301, ZCP1302). Other refusals (ZCP1206: a handle
 * nested in an object, which has a JSON form) and documented losses count against it: each is a
 * deliberate difference docs/annotations.md documents, with its reason, but a difference.
 */
import type { CaseResult, Verdict } from "./run.js";

export interface Row {
  readonly category: string;
  readonly cases: number;
  readonly agree: number;
  readonly loss: number;
  readonly refused: number;
  /** Refusals where no tool can be right (see `RIGHT_REFUSALS`). */
  readonly rightRefused: number;
  /** Codes of the refusals, sorted. */
  readonly codes: readonly string[];
  readonly disagree: number;
}

/** No JSON value has the type (ZCP1201, ZCP1202), or the author's import or tags are wrong. */
const RIGHT_REFUSALS = new Set(["ZCP1201", "ZCP1202", "ZCP1203", "ZCP1301", "ZCP1302"]);

function row(category: string, results: readonly CaseResult[]): Row {
  const count = (verdict: Verdict) => results.filter((result) => result.verdict === verdict).length;
  return {
    category,
    cases: results.length,
    agree: count("agree"),
    loss: count("loss"),
    refused: count("refused"),
    rightRefused: results.filter(
      (result) => result.verdict === "refused" && RIGHT_REFUSALS.has(result.code!),
    ).length,
    codes: [
      ...new Set(
        results.filter((result) => result.verdict === "refused").map((result) => result.code!),
      ),
    ].sort(),
    disagree: count("disagree"),
  };
}

export function summarize(results: readonly CaseResult[]): { rows: Row[]; total: Row } {
  const categories = [...new Set(results.map((result) => result.category))];
  return {
    rows: categories.map((name) =>
      row(
        name,
        results.filter((result) => result.category === name),
      ),
    ),
    total: row("all", results),
  };
}

/** Behavioural agreement: (agree + right refusals) / cases. */
export const agreement = (total: Row): number => (total.agree + total.rightRefused) / total.cases;

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

export function table(rows: readonly Row[], total: Row): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  const cells = (entry: Row, bold: boolean) => {
    const name = bold ? `**${entry.category}**` : entry.category;
    const refused = entry.refused > 0 ? `${entry.refused} (${entry.codes.join(", ")})` : "0";
    return [name, entry.cases, entry.agree, entry.loss, refused, entry.disagree];
  };
  return [
    line(["category", "cases", "agree", "documented loss", "refused (code)", "disagree"]),
    line(["---", "---:", "---:", "---:", "---:", "---:"]),
    ...rows.map((entry) => line(cells(entry, false))),
    line(cells(total, true)),
    "",
    `Behavioural agreement (agree + refusals where no tool can be right) / cases: ${total.agree + total.rightRefused} / ${total.cases} = ${percent(agreement(total))}; documented differences: ${total.loss} losses and ${total.refused - total.rightRefused} other refusals; exact agreement (agree / cases): ${percent(total.agree / total.cases)}.`,
  ].join("\n");
}

/** One line per disagreeing case: `category.id [decision]: problems`. */
export function disagreements(results: readonly CaseResult[]): string[] {
  return results
    .filter((result) => result.verdict === "disagree")
    .map(
      (result) =>
        `${result.category}.${result.id}${result.decision ? ` [${result.decision}]` : ""}: ${result.problems.join("; ")}`,
    );
}
