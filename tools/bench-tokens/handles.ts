/**
 * Large results, which the reference's benchmark never exercised: three questions about an
 * order log, at 240 and at 2,400 rows. On each surface the agent reads the sheet without knowing its size, as
 * it would. A plain MCP server answers with every row, and the rows stay in the transcript for
 * every later turn. The ZCP surfaces answer with a handle, a summary and a count. The agent then
 * asks `zcp.handle` for the part it needs: the first rows, the last rows, or, for a total, every
 * row. The total is the case where a handle costs more than it saves, and it is here for that reason.
 */
import type { JsonValue } from "@zcp/runtime";
import type { SheetRow } from "../../fixtures/workbench/src/data.ts";
import type { Answer, BenchCase, Plan, Results } from "./case.ts";
import type { Call } from "./surfaces.ts";
import { PRIMITIVE_VIEW } from "./tier-a.ts";
import { excel } from "./tier-b.ts";
import { seeded, workbookProblems } from "./workbook.ts";
import { answerProblems, valueOf } from "./workflow-case.ts";
import registry from "../../fixtures/workbench/src/zcp.gen/index.ts";

const FILE = "log.xlsx";
const REGIONS = ["North", "South", "East", "West"];
const orderId = (n: number) => `O-${String(n).padStart(4, "0")}`;
/** The order log: `size` rows, the same data every run. */
const orders = (size: number) => Array.from({ length: size }, (_, i) => [orderId(i + 1), REGIONS[i % 4]!, 20 + ((i * 37) % 480)]);
const PROMPT = `The sheet Orders of ${FILE} is the order log, one order per row under the header Order, Region, Amount.`;

interface HandleValue {
  readonly handle: string;
  readonly summary: string;
  readonly meta: { readonly count: number };
}

const readLog = (): Call[] => [excel("read_data_from_excel", { path: FILE, sheet: "Orders" })];
const handleOf = (results: Results) => valueOf<HandleValue>(results, 0);

interface Question {
  readonly id: string;
  readonly ask: string;
  /** The answer from the rows the agent has and the log's size. */
  readonly fromRows: (rows: readonly SheetRow[], total: number) => Answer;
  /** The zcp.handle arguments that fetch those rows, given the log's size from the handle's meta. */
  readonly expand: (total: number) => { [name: string]: JsonValue };
}

/** A question on a log of `size` rows: the MCP plan reads every row and answers from them; the ZCP plan expands the handle it gets back. */
function question(q: Question, size: number, expected: Answer): BenchCase {
  const withHandle: Plan = {
    turns: [readLog, (results) => [{ alias: "zcp.handle", args: { handle: handleOf(results).handle, ...q.expand(handleOf(results).meta.count) } }]],
    answer: (results) => {
      // zcp.handle answers a view as {rows, offset, limit, total} and a read as {value}.
      const expanded = valueOf<{ rows?: SheetRow[]; value?: SheetRow[] }>(results, 1);
      return q.fromRows(expanded.rows ?? expanded.value ?? [], handleOf(results).meta.count);
    },
  };
  return {
    id: `${q.id}_${size}`,
    tier: "handles",
    registry,
    seed: seeded(FILE, { Orders: [["Order", "Region", "Amount"], ...orders(size)] }),
    prompt: `${PROMPT} ${q.ask}`,
    plan: { turns: [readLog], answer: (results) => q.fromRows(valueOf<SheetRow[]>(results, 0), valueOf<SheetRow[]>(results, 0).length) },
    plans: { "zcp-fc": withHandle, "zcp-compact": withHandle },
    view: PRIMITIVE_VIEW,
    verify: async (answer, workspace) => [
      ...answerProblems(answer, expected),
      ...(await workbookProblems(workspace, { file: FILE, sheets: ["Orders"], content: { Orders: { cells: { [`A${size + 1}`]: orderId(size), [`A${size + 2}`]: null } } } })),
    ],
  };
}

const HEAD: Question = {
  id: "order_log_head",
  ask: `How many orders does it hold, and which are the first three? Answer {"orders": <count>, "first": [<Order ids>]}.`,
  fromRows: (rows, total) => ({ orders: total, first: rows.slice(0, 3).map((row) => row.Order!) }),
  expand: () => ({ op: "view", limit: 3, columns: ["Order"] }),
};
const TAIL: Question = {
  id: "order_log_tail",
  ask: `Which are the last three orders, with their amounts? Answer {"last": {"<Order id>": <Amount>}}.`,
  fromRows: (rows) => ({ last: Object.fromEntries(rows.slice(-3).map((row) => [row.Order, row.Amount])) }),
  expand: (total) => ({ op: "view", offset: total - 3, limit: 3, columns: ["Order", "Amount"] }),
};
const TOTAL: Question = {
  id: "region_total",
  ask: `What is the total Amount of the West orders? Answer {"west_total": <number>}.`,
  fromRows: (rows) => ({ west_total: rows.filter((row) => row.Region === "West").reduce((sum, row) => sum + (row.Amount as number), 0) }),
  expand: () => ({ op: "read" }),
};

export const HANDLE_CASES: readonly BenchCase[] = [
  question(HEAD, 240, { orders: 240, first: ["O-0001", "O-0002", "O-0003"] }),
  question(TAIL, 240, { last: { "O-0238": 149, "O-0239": 186, "O-0240": 223 } }),
  question(TOTAL, 240, { west_total: 14940 }),
  question(HEAD, 2400, { orders: 2400, first: ["O-0001", "O-0002", "O-0003"] }),
  question(TAIL, 2400, { last: { "O-2398": 389, "O-2399": 426, "O-2400": 463 } }),
  question(TOTAL, 2400, { west_total: 156600 }),
];
