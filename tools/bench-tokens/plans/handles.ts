/**
 * Large results, which the reference's benchmark never exercised: three questions about an
 * order log, at 240 and at 2,400 rows. Each question has the plans a competent agent could
 * follow without knowing the log's size, open to every surface: read the whole sheet (a plain
 * MCP server answers with every row, which stays in the transcript for every later turn; the
 * ZCP surfaces answer with a handle, a summary and a count, and the agent then asks `zcp.handle`
 * for the part it needs), or ask the workbook's metadata for the log's size and read only the
 * rows and columns the question needs. Each surface is billed for its
 * cheapest. The total needs every row: the case where a handle costs more than it saves.
 */
import type { JsonValue } from "@zcp/runtime";
import type { SheetRow } from "../../../fixtures/workbench/src/data.ts";
import type { WorkbookMetadata } from "../../../fixtures/workbench/src/workbook.ts";
import { workbench as registry } from "./registries.ts";
import type { Answer, BenchCase, Plan, Results } from "./case.ts";
import type { Call } from "../surfaces/spec.ts";
import { excel } from "./tier-b.ts";
import { seeded, workbookProblems } from "./workbook.ts";
import { answerProblems, valueOf } from "./workflow-case.ts";

const FILE = "log.xlsx";
const REGIONS = ["North", "South", "East", "West"];
const orderId = (n: number) => `O-${String(n).padStart(4, "0")}`;
/** The order log: `size` rows, the same data every run. */
const orders = (size: number) =>
  Array.from({ length: size }, (_, i) => [orderId(i + 1), REGIONS[i % 4]!, 20 + ((i * 37) % 480)]);
const PROMPT = `The sheet Orders of ${FILE} is the order log, one order per row under the header Order, Region, Amount.`;

interface HandleValue {
  readonly handle: string;
  readonly summary: string;
  readonly meta: { readonly count: number };
}

const isHandle = (value: JsonValue | undefined): value is JsonValue & HandleValue =>
  typeof value === "object" && value !== null && "handle" in value;
const read = (range?: string, header?: boolean): Call =>
  excel("read_data_from_excel", {
    path: FILE,
    sheet: "Orders",
    ...(range ? { range } : {}),
    ...(header === false ? { header } : {}),
  });
const metadata = (): Call => excel("get_workbook_metadata", { path: FILE });
/** The log's last row on the sheet, from the metadata of turn 0: the rows of its used range, which starts with the header in row 1. */
const lastRow = (results: Results) =>
  valueOf<WorkbookMetadata>(results, 0).sheets.find((sheet) => sheet.name === "Orders")!.rows;

/** The step after a read in turn `turn`: if the read answered with a handle, ask zcp.handle for what the question needs; else nothing (the rows are there). */
const expandHandle =
  (turn: number, args: (count: number) => { [name: string]: JsonValue }) =>
  (results: Results): Call[] => {
    const value = results[turn]?.[0];
    return isHandle(value)
      ? [{ alias: "zcp.handle", args: { handle: value.handle, ...args(value.meta.count) } }]
      : [];
  };

/** The rows the read of turn `turn` gave: its value, or what zcp.handle answered in the next turn (a view as {rows, ...}, a read as {value}). */
function rowsOf(results: Results, turn: number): SheetRow[] {
  const value = results[turn]?.[0];
  if (!isHandle(value)) return value as unknown as SheetRow[];
  const expanded = valueOf<{ rows?: SheetRow[]; value?: SheetRow[] }>(results, turn + 1);
  return expanded.rows ?? expanded.value ?? [];
}

/** How many orders the read of turn 0 found: the handle's count, or the rows it returned. */
const countOf = (results: Results) => {
  const value = results[0]?.[0];
  return isHandle(value) ? value.meta.count : rowsOf(results, 0).length;
};

interface Question {
  readonly id: string;
  readonly ask: string;
  /** Read the whole sheet (then expand its handle, if it is one). */
  readonly whole: Omit<Plan, "name">;
  /** Ask the metadata for the log's size, then read only what the question needs. */
  readonly ranged: Omit<Plan, "name">;
}

/** A question on a log of `size` rows, with its plans. */
function question(q: Question, size: number, expected: Answer): BenchCase {
  return {
    id: `${q.id}_${size}`,
    tier: "handles",
    registry,
    seed: seeded(FILE, { Orders: [["Order", "Region", "Amount"], ...orders(size)] }),
    prompt: `${PROMPT} ${q.ask}`,
    plans: [
      { name: "read the sheet", ...q.whole },
      { name: "metadata first", ...q.ranged },
    ],
    verify: async (answer, workspace) => [
      ...answerProblems(answer, expected),
      ...(await workbookProblems(workspace, {
        file: FILE,
        sheets: ["Orders"],
        content: { Orders: { cells: { [`A${size + 1}`]: orderId(size), [`A${size + 2}`]: null } } },
      })),
    ],
  };
}

const westTotal = (rows: readonly SheetRow[]) => ({
  west_total: rows
    .filter((row) => row.Region === "West")
    .reduce((sum, row) => sum + (row.Amount as number), 0),
});

const HEAD: Question = {
  id: "order_log_head",
  ask: `How many orders does it hold, and which are the first three? Answer {"orders": <count>, "first": [<Order ids>]}.`,
  whole: {
    turns: [() => [read()], expandHandle(0, () => ({ op: "view", limit: 3, columns: ["Order"] }))],
    answer: (results) => ({
      orders: countOf(results),
      first: rowsOf(results, 0)
        .slice(0, 3)
        .map((row) => row.Order!),
    }),
  },
  // The size and the first three rows (under the header the prompt names) do not depend on each other: one turn.
  ranged: {
    turns: [() => [metadata(), read("A1:C4")]],
    answer: (results) => ({
      orders: lastRow(results) - 1,
      first: valueOf<SheetRow[]>(results, 0, 1).map((row) => row.Order!),
    }),
  },
};
const TAIL: Question = {
  id: "order_log_tail",
  ask: `Which are the last three orders, with their amounts? Answer {"last": {"<Order id>": <Amount>}}.`,
  whole: {
    turns: [
      () => [read()],
      expandHandle(0, (count) => ({
        op: "view",
        offset: count - 3,
        limit: 3,
        columns: ["Order", "Amount"],
      })),
    ],
    answer: (results) => ({
      last: Object.fromEntries(
        rowsOf(results, 0)
          .slice(-3)
          .map((row) => [row.Order, row.Amount]),
      ),
    }),
  },
  // The last rows need the size first; read without a header, their fields are column letters.
  ranged: {
    turns: [
      () => [metadata()],
      (results) => [read(`A${lastRow(results) - 2}:C${lastRow(results)}`, false)],
    ],
    answer: (results) => ({
      last: Object.fromEntries(valueOf<SheetRow[]>(results, 1).map((row) => [row.A, row.C])),
    }),
  },
};
const TOTAL: Question = {
  id: "region_total",
  ask: `What is the total Amount of the West orders? Answer {"west_total": <number>}.`,
  whole: {
    turns: [() => [read()], expandHandle(0, () => ({ op: "read" }))],
    answer: (results) => westTotal(rowsOf(results, 0)),
  },
  // Every row is needed, but only two of the three columns: Region and Amount.
  ranged: {
    turns: [
      () => [metadata()],
      (results) => [read(`B1:C${lastRow(results)}`)],
      expandHandle(1, () => ({ op: "read" })),
    ],
    answer: (results) => westTotal(rowsOf(results, 1)),
  },
};

export const HANDLE_CASES: readonly BenchCase[] = [
  question(HEAD, 240, { orders: 240, first: ["O-0001", "O-0002", "O-0003"] }),
  question(TAIL, 240, { last: { "O-0238": 149, "O-0239": 186, "O-0240": 223 } }),
  question(TOTAL, 240, { west_total: 14940 }),
  question(HEAD, 2400, { orders: 2400, first: ["O-0001", "O-0002", "O-0003"] }),
  question(TAIL, 2400, { last: { "O-2398": 389, "O-2399": 426, "O-2400": 463 } }),
  question(TOTAL, 2400, { west_total: 156600 }),
];
