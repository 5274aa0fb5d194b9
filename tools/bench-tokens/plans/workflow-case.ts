/**
 * The shape of the spreadsheet cases of tiers B, C and D: one ask, two plans (the primitive
 * tools over several turns; the case's workflow tool, after a read when the job needs one),
 * one expected answer and one description of the workbook both plans must leave. Each surface
 * runs the plans its catalog lists the tools of: over the `primitive` catalog only the first.
 */
import type { SheetRow } from "../../../fixtures/workbench/src/data.ts";
import type { WorkbookMetadata } from "../../../fixtures/workbench/src/workbook.ts";
import { workbench as registry } from "./registries.ts";
import type { Answer, BenchCase, Plan, Results } from "./case.ts";
import type { Call } from "../surfaces/spec.ts";
import type { JsonValue } from "@zcp/runtime";
import { workbookProblems, type WorkbookSpec } from "./workbook.ts";

/** How general a workflow tool is, for the report: general, or shaped like its case, and why. */
export interface WorkflowShape {
  readonly general: boolean;
  readonly note: string;
}

export interface WorkflowPlan extends Omit<Plan, "name"> {
  /** The workflow tool the plan calls. */
  readonly tool: string;
  readonly shape: WorkflowShape;
}

export interface WorkflowCaseSpec {
  readonly id: string;
  readonly tier: "B" | "C" | "D";
  readonly seed?: (workspace: string) => Promise<void>;
  readonly prompt: string;
  /** The answer the prompt asks for; a run's answer must equal it. */
  readonly expected: Answer;
  readonly workbook: WorkbookSpec;
  /** The shortest correct plan with the primitive tools. */
  readonly primitive: Omit<Plan, "name">;
  /** The shortest correct plan with the case's workflow tool. */
  readonly workflow: WorkflowPlan;
}

/** A case of tiers B-D, with the workflow tool its second plan calls. */
export interface WorkflowCase extends BenchCase {
  readonly workflow: Pick<WorkflowPlan, "tool" | "shape">;
}

export const general = (note: string): WorkflowShape => ({ general: true, note });
export const caseShaped = (note: string): WorkflowShape => ({ general: false, note });

/** The value of call `index` of turn `turn` (0-based), typed by the caller. */
export const valueOf = <T>(results: Results, turn: number, index = 0): T =>
  results[turn]?.[index] as T;

/** A workflow plan of one call whose value holds the answer. */
export function oneCall(
  call: Call,
  shape: WorkflowShape,
  answer: (value: JsonValue) => Answer,
): WorkflowPlan {
  return {
    tool: call.alias,
    shape,
    turns: [() => [call]],
    answer: (results) => answer(valueOf(results, 0)),
  };
}

/** Records read back as one object: the `key` field of each → its `value` field. */
export const byField = (rows: readonly SheetRow[], key: string, value: string) =>
  Object.fromEntries(rows.map((row) => [row[key], row[value]]));

/** The sheet names get_workbook_metadata lists, in tab order. */
export const sheetNamesOf = (metadata: WorkbookMetadata) =>
  metadata.sheets.map((sheet) => sheet.name);

/** What is wrong with an answer that must equal `expected` (nothing when it does, key order included). */
export const answerProblems = (answer: Answer, expected: Answer): string[] =>
  JSON.stringify(answer) === JSON.stringify(expected)
    ? []
    : [`answer ${JSON.stringify(answer)}, expected ${JSON.stringify(expected)}`];

export function workflowCase(spec: WorkflowCaseSpec): WorkflowCase {
  const { tool, shape, ...workflow } = spec.workflow;
  return {
    id: spec.id,
    tier: spec.tier,
    registry,
    ...(spec.seed ? { seed: spec.seed } : {}),
    prompt: spec.prompt,
    plans: [
      { name: "primitive", ...spec.primitive },
      { name: "workflow", ...workflow },
    ],
    workflow: { tool, shape },
    verify: async (answer, workspace) => [
      ...answerProblems(answer, spec.expected),
      ...(await workbookProblems(workspace, spec.workbook)),
    ],
  };
}
