/**
 * The shape of the spreadsheet cases of tiers B, C and D: one ask, two plans (the primitive
 * tools over several turns, for mcp-primitive; the case's workflow tool in one call, for the
 * surfaces that list it), one expected answer and one description of the workbook both plans
 * must leave. The ZCP surfaces list the `semantic-workflow` profile: every workflow tool, the
 * same list for every case, never the one right tool.
 */
import type { JsonValue } from "@zcp/runtime";
import type { SheetRow } from "../../fixtures/workbench/src/data.ts";
import type { WorkbookMetadata } from "../../fixtures/workbench/src/workbook.ts";
import registry from "../../fixtures/workbench/src/zcp.gen/index.ts";
import type { Answer, BenchCase, Plan, Results } from "./case.ts";
import type { Call } from "./surfaces.ts";
import { workbookProblems, type WorkbookSpec } from "./workbook.ts";

export const WORKFLOW_VIEW = { profile: "semantic-workflow" };

export interface WorkflowCaseSpec {
  readonly id: string;
  readonly tier: "B" | "C" | "D";
  readonly seed?: (workspace: string) => Promise<void>;
  readonly prompt: string;
  /** The answer the prompt asks for; a run's answer must equal it. */
  readonly expected: Answer;
  readonly workbook: WorkbookSpec;
  /** The shortest correct plan with the primitive tools. */
  readonly primitive: Plan;
  /** The workflow tool call that does the whole job, and how the answer is read from its value. */
  readonly workflow: { readonly call: Call; readonly answer: (value: JsonValue) => Answer };
}

/** The value of call `index` of turn `turn` (0-based), typed by the caller. */
export const valueOf = <T>(results: Results, turn: number, index = 0): T => results[turn]?.[index] as T;

/** Records read back as one object: the `key` field of each → its `value` field. */
export const byField = (rows: readonly SheetRow[], key: string, value: string) => Object.fromEntries(rows.map((row) => [row[key], row[value]]));

/** The sheet names get_workbook_metadata lists, in tab order. */
export const sheetNamesOf = (metadata: WorkbookMetadata) => metadata.sheets.map((sheet) => sheet.name);

/** What is wrong with an answer that must equal `expected` (nothing when it does, key order included). */
export const answerProblems = (answer: Answer, expected: Answer): string[] =>
  JSON.stringify(answer) === JSON.stringify(expected) ? [] : [`answer ${JSON.stringify(answer)}, expected ${JSON.stringify(expected)}`];

/** The surfaces that list the workflow tools, and so use them. */
export const WORKFLOW_SURFACES = ["mcp-all", "zcp-fc", "zcp-compact"] as const;

export function workflowCase(spec: WorkflowCaseSpec): BenchCase {
  const workflow: Plan = { turns: [() => [spec.workflow.call]], answer: (results) => spec.workflow.answer(valueOf(results, 0)) };
  return {
    id: spec.id,
    tier: spec.tier,
    registry,
    ...(spec.seed ? { seed: spec.seed } : {}),
    prompt: spec.prompt,
    plan: spec.primitive,
    plans: Object.fromEntries(WORKFLOW_SURFACES.map((surface) => [surface, workflow])),
    view: WORKFLOW_VIEW,
    verify: async (answer, workspace) => {
      return [...answerProblems(answer, spec.expected), ...(await workbookProblems(workspace, spec.workbook))];
    },
  };
}
