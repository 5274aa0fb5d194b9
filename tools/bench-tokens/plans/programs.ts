/**
 * Code mode: for every spreadsheet case (tiers A-D) and every handle case, the one program a
 * model would write instead of calling the tools turn by turn. A program is the body of an async
 * function in plain JavaScript (no TypeScript): statements, `await`, and a final
 * `return <answer>` in exactly the shape the case's prompt asks for. It reaches the tools only
 * through the naming function it is rendered with, so the same logic renders for each API:
 * `name("excel.write_data_to_excel")` is the expression to call (`tools.excel.write_data_to_excel`
 * on one surface, `codemode.excel_write_data_to_excel` on another). A call resolves to the
 * tool's result value, whole (large reads stay inside the program and never reach the model); a
 * failed call throws an Error. No other globals than standard JavaScript.
 *
 * The fairness rules every program follows:
 * - Only primitive tools (never one of the `workflow` group), only what the prompt says, and the
 *   tools' documented API (names, parameters, result shapes of zcp.gen/types.ts). No value that
 *   only the expected answer or the verifier knows: what depends on the workbook's content is
 *   read at run time, and the program branches on it.
 * - The same work as the case's primitive plan: the same tools with the same arguments, so that
 *   code mode is compared with calling the tools turn by turn on the same calls (its saving is
 *   where the calls run, not fewer calls); independent reads (or calls on different files)
 *   together in `Promise.all`, edits of one workbook in sequence (concurrent writes to one file
 *   race). Where the case says to look first, the program reads first.
 * - For the order logs: read what the question needs and compute in the program, returning only
 *   the answer; reading the whole sheet is one call, shorter than asking its size first.
 * - Compact code: short names, no comments, no console.log.
 */

/** Renders a program's body with `name(alias)` as the expression that calls each tool. */
export type Program = (name: (alias: string) => string) => string;

/** Removes the common indentation of a template and trims it, so programs read as written here. */
function dedent(text: string): string {
  const lines = text.replace(/^\n/, "").trimEnd().split("\n");
  const indent = Math.min(
    ...lines.filter((line) => line.trim() !== "").map((line) => line.match(/^ */)![0].length),
  );
  return lines.map((line) => line.slice(indent)).join("\n");
}

/** A program over the workbench's tools: `t("write_data_to_excel")` names `excel.write_data_to_excel`. */
const excel =
  (body: (t: (tool: string) => string) => string): Program =>
  (name) =>
    dedent(body((tool) => name(`excel.${tool}`)));

export const PROGRAMS: { readonly [caseId: string]: Program } = {
  // Tier A: one primitive each.
  create_workbook: excel(
    (t) => `
      await ${t("create_workbook")}({ path: "report.xlsx" });
      return { done: true };
    `,
  ),
  create_worksheet: excel(
    (t) => `
      await ${t("create_worksheet")}({ path: "book.xlsx", sheet: "Review" });
      return { done: true };
    `,
  ),
  write_data: excel(
    (t) => `
      await ${t("write_data_to_excel")}({
        path: "book.xlsx",
        sheet: "Data",
        data: [["Name", "Value"], ["Latency", 42]],
      });
      return { done: true };
    `,
  ),
  read_data: excel(
    (t) => `
      const r = await ${t("read_data_from_excel")}({ path: "book.xlsx", sheet: "Audit", range: "A1:B3" });
      return { rows: r.length, first_check: r[0].Check };
    `,
  ),
  format_range: excel(
    (t) => `
      await ${t("format_range")}({ path: "book.xlsx", sheet: "Report", range: "A1:C1", bold: true, horizontal: "center" });
      return { done: true };
    `,
  ),
  validate_formula_syntax: excel(
    (t) => `
      const v = await ${t("validate_formula_syntax")}({ path: "book.xlsx", sheet: "Calc", cell: "D2", formula: "=B2+C2" });
      return { valid: v.valid };
    `,
  ),
  apply_formula: excel(
    (t) => `
      await ${t("apply_formula")}({ path: "book.xlsx", sheet: "Calc", cell: "D2", formula: "=B2+C2" });
      return { done: true };
    `,
  ),
  create_table: excel(
    (t) => `
      await ${t("create_table")}({ path: "book.xlsx", sheet: "Orders", range: "A1:B3", name: "OrdersTable" });
      return { done: true };
    `,
  ),
  merge_cells: excel(
    (t) => `
      await ${t("merge_cells")}({ path: "book.xlsx", sheet: "Dashboard", range: "A1:D1" });
      return { done: true };
    `,
  ),
  get_merged_cells: excel(
    (t) => `
      const m = await ${t("get_merged_cells")}({ path: "book.xlsx", sheet: "Dashboard" });
      return { merged: m.mergedCells };
    `,
  ),
  rename_worksheet: excel(
    (t) => `
      await ${t("rename_worksheet")}({ path: "book.xlsx", oldName: "Draft", newName: "Final" });
      return { done: true };
    `,
  ),
  copy_worksheet: excel(
    (t) => `
      await ${t("copy_worksheet")}({ path: "book.xlsx", source: "Template", target: "Template Copy" });
      return { done: true };
    `,
  ),
  insert_rows: excel(
    (t) => `
      await ${t("insert_rows")}({ path: "book.xlsx", sheet: "Plan", startRow: 2 });
      return { done: true };
    `,
  ),
  insert_columns: excel(
    (t) => `
      await ${t("insert_columns")}({ path: "book.xlsx", sheet: "Plan", startCol: 2 });
      return { done: true };
    `,
  ),
  delete_sheet_rows: excel(
    (t) => `
      await ${t("delete_sheet_rows")}({ path: "book.xlsx", sheet: "Plan", startRow: 3 });
      return { done: true };
    `,
  ),
  delete_sheet_columns: excel(
    (t) => `
      await ${t("delete_sheet_columns")}({ path: "book.xlsx", sheet: "Plan", startCol: 2 });
      return { done: true };
    `,
  ),

  // Tier B: short chains.
  workbook_bootstrap_chain: excel(
    (t) => `
      const p = "ops.xlsx";
      await ${t("create_workbook")}({ path: p, sheet: "RawData" });
      await ${t("create_worksheet")}({ path: p, sheet: "Summary" });
      const m = await ${t("get_workbook_metadata")}({ path: p });
      return { sheets: m.sheets.map((s) => s.name) };
    `,
  ),
  formula_flow_chain: excel(
    (t) => `
      const p = "calc.xlsx";
      const v = await ${t("validate_formula_syntax")}({ path: p, sheet: "Calc", cell: "D2", formula: "=B2+C2" });
      if (v.valid) {
        await ${t("apply_formula")}({ path: p, sheet: "Calc", cell: "D2", formula: "=B2+C2" });
        await ${t("apply_formula")}({ path: p, sheet: "Calc", cell: "D3", formula: "=B3+C3" });
      }
      const r = await ${t("read_data_from_excel")}({ path: p, sheet: "Calc", range: "A1:D3" });
      return { valid: v.valid, totals: r.map((x) => x.Total) };
    `,
  ),
  layout_flow_chain: excel(
    (t) => `
      const a = { path: "layout.xlsx", sheet: "Dashboard", range: "A1:D1" };
      await ${t("merge_cells")}(a);
      await ${t("format_range")}({ ...a, bold: true, horizontal: "center" });
      const m = await ${t("get_merged_cells")}({ path: a.path, sheet: a.sheet });
      return { merged: m.mergedCells };
    `,
  ),
  sheet_maintenance_chain: excel(
    (t) => `
      const p = "maint.xlsx";
      await ${t("rename_worksheet")}({ path: p, oldName: "Draft", newName: "Template" });
      const c = await ${t("copy_worksheet")}({ path: p, source: "Template", target: "Template Copy" });
      return { sheets: c.sheets };
    `,
  ),
  table_setup_chain: excel(
    (t) => `
      const a = { path: "orders.xlsx", sheet: "Orders" };
      const tb = await ${t("create_table")}({ ...a, range: "A1:C4", name: "OrdersTable" });
      await ${t("format_range")}({ ...a, range: "A1:C1", bold: true });
      const r = await ${t("read_data_from_excel")}({ ...a, range: tb.range });
      return { table: tb.name, rows: r.length };
    `,
  ),
  readback_verification_chain: excel(
    (t) => `
      const a = { path: "sales.xlsx", sheet: "Sales", range: "A1:C4" };
      const [v, r, m] = await Promise.all([
        ${t("validate_excel_range")}(a),
        ${t("read_data_from_excel")}(a),
        ${t("get_workbook_metadata")}({ path: a.path }),
      ]);
      return { valid: v.valid, rows: r.length, used_range: m.sheets.find((s) => s.name === "Sales").usedRange };
    `,
  ),
  row_maintenance_chain: excel(
    (t) => `
      const a = { path: "tracker.xlsx", sheet: "Tracker" };
      await ${t("insert_rows")}({ ...a, startRow: 3 });
      await ${t("write_data_to_excel")}({ ...a, data: [["Hotfix", "In Progress"]], startCell: "A3" });
      await ${t("delete_sheet_rows")}({ ...a, startRow: 5 });
      const r = await ${t("read_data_from_excel")}(a);
      return { tasks: r.map((x) => x.Task) };
    `,
  ),
  column_maintenance_chain: excel(
    (t) => `
      const a = { path: "scores.xlsx", sheet: "Scores" };
      await ${t("insert_columns")}({ ...a, startCol: 2 });
      await ${t("write_data_to_excel")}({ ...a, data: [["Target"], [95], [88]], startCell: "B1" });
      await ${t("delete_sheet_columns")}({ ...a, startCol: 4 });
      const r = await ${t("read_data_from_excel")}(a);
      return { columns: Object.keys(r[0]) };
    `,
  ),

  // Tier C: explicit multi-step workflows from no file.
  sales_ops_weekly_pack: excel(
    (t) => `
      const p = "sales_ops.xlsx";
      const a = { path: p, sheet: "Pipeline" };
      await ${t("create_workbook")}(a);
      await ${t("write_data_to_excel")}({
        ...a,
        data: [
          ["Deal", "Stage", "Amount"],
          ["Acme renewal", "Proposal", 12000],
          ["Birch expansion", "Negotiation", 8500],
          ["Cole pilot", "Discovery", 3000],
          ["Dune upgrade", "Closed won", 15000],
        ],
      });
      const tb = await ${t("create_table")}({ ...a, range: "A1:C5", name: "PipelineTable" });
      await ${t("format_range")}({ ...a, range: "A1:C1", bold: true });
      await ${t("write_data_to_excel")}({
        path: p,
        sheet: "Summary",
        data: [["Metric", "Value"], ["Deals", "=COUNTA(Pipeline!A2:A5)"], ["Total amount", "=SUM(Pipeline!C2:C5)"]],
      });
      const r = await ${t("read_data_from_excel")}({ path: p, sheet: "Summary" });
      return { table: tb.name, summary: Object.fromEntries(r.map((x) => [x.Metric, x.Value])) };
    `,
  ),
  finance_close_summary: excel(
    (t) => `
      const a = { path: "close.xlsx", sheet: "ClosePack" };
      await ${t("create_workbook")}(a);
      await ${t("write_data_to_excel")}({ ...a, data: [["Account", "Amount"], ["Revenue", 1200], ["COGS", 450], ["Opex", 300]] });
      const v = await ${t("validate_formula_syntax")}({ ...a, cell: "B5", formula: "=B2-B3-B4" });
      if (v.valid)
        await ${t("write_data_to_excel")}({
          ...a,
          data: [["Net", "=B2-B3-B4"], ["Margin", "=B5/B2"], ["Total costs", "=B3+B4"]],
          startCell: "A5",
        });
      await ${t("create_table")}({ ...a, range: "A1:B4", name: "CloseTable" });
      await ${t("format_range")}({ ...a, range: "A1:B1", bold: true, fillColor: "D9D9D9" });
      const r = await ${t("read_data_from_excel")}(a);
      return { valid: v.valid, amounts: Object.fromEntries(r.map((x) => [x.Account, x.Amount])) };
    `,
  ),
  kpi_dashboard_sheet: excel(
    (t) => `
      const a = { path: "kpi.xlsx", sheet: "Dashboard" };
      await ${t("create_workbook")}(a);
      await ${t("write_data_to_excel")}({
        ...a,
        data: [
          ["Weekly KPI dashboard"],
          ["Metric", "Target", "Actual", "Status"],
          ["Uptime", 99.9, 99.95, "On track"],
          ["NPS", 50, 46, "At risk"],
          ["Churn", 2, 1.8, "On track"],
          ["Tickets closed", 400, 420, "On track"],
        ],
      });
      const m = await ${t("merge_cells")}({ ...a, range: "A1:D1" });
      await ${t("format_range")}({ ...a, range: "A1:D1", bold: true, horizontal: "center" });
      await ${t("format_range")}({ ...a, range: "A2:D2", bold: true });
      const r = await ${t("read_data_from_excel")}({ ...a, range: "A2:D6" });
      return { merged: m.mergedCells, status: Object.fromEntries(r.map((x) => [x.Metric, x.Status])) };
    `,
  ),
  multi_sheet_monthly_rollup: excel(
    (t) => `
      const p = "rollup.xlsx";
      const w = (sheet, data) => ${t("write_data_to_excel")}({ path: p, sheet, data });
      await ${t("create_workbook")}({ path: p, sheet: "Jan" });
      await w("Jan", [["Region", "Sales"], ["North", 120], ["South", 95]]);
      await w("Feb", [["Region", "Sales"], ["North", 130], ["South", 105]]);
      await w("Summary", [["Region", "Total"], ["North", "=Jan!B2+Feb!B2"], ["South", "=Jan!B3+Feb!B3"]]);
      const [m, r] = await Promise.all([
        ${t("get_workbook_metadata")}({ path: p }),
        ${t("read_data_from_excel")}({ path: p, sheet: "Summary" }),
      ]);
      return {
        sheets: m.sheets.map((s) => s.name).sort(),
        totals: Object.fromEntries(r.map((x) => [x.Region, x.Total])),
      };
    `,
  ),
  template_copy_and_fill: excel(
    (t) => `
      const p = "regions.xlsx";
      await ${t("create_workbook")}({ path: p, sheet: "Template" });
      await ${t("write_data_to_excel")}({ path: p, sheet: "Template", data: [["Region", "Target", "Actual"]] });
      await ${t("copy_worksheet")}({ path: p, source: "Template", target: "North" });
      await ${t("copy_worksheet")}({ path: p, source: "Template", target: "South" });
      const rn = await ${t("rename_worksheet")}({ path: p, oldName: "Template", newName: "MasterTemplate" });
      await ${t("write_data_to_excel")}({
        path: p,
        sheet: "North",
        data: [["North-East", 300, 280], ["North-West", 200, 210]],
        startCell: "A2",
      });
      await ${t("write_data_to_excel")}({
        path: p,
        sheet: "South",
        data: [["South-East", 250, 260], ["South-West", 150, 140]],
        startCell: "A2",
      });
      const [n, s] = await Promise.all(
        ["North", "South"].map((sheet) => ${t("read_data_from_excel")}({ path: p, sheet })),
      );
      return {
        sheets: [...rn.sheets].sort(),
        regions: { North: n.map((x) => x.Region), South: s.map((x) => x.Region) },
      };
    `,
  ),
  headcount_plan_restructure: excel(
    (t) => `
      const a = { path: "headcount.xlsx", sheet: "Plan" };
      await ${t("create_workbook")}(a);
      await ${t("write_data_to_excel")}({
        ...a,
        data: [["Team", "Headcount", "Temp"], ["Sales", 12, "x"], ["Support", 8, "x"], ["Temp", 0, "x"]],
      });
      await ${t("insert_rows")}({ ...a, startRow: 3 });
      await ${t("insert_columns")}({ ...a, startCol: 2 });
      await ${t("write_data_to_excel")}({ ...a, data: [["Marketing", "EMEA", 5]], startCell: "A3" });
      await ${t("write_data_to_excel")}({ ...a, data: [["Region"], ["EMEA"], ["EMEA"], ["AMER"]], startCell: "B1" });
      await ${t("delete_sheet_rows")}({ ...a, startRow: 5 });
      await ${t("delete_sheet_columns")}({ ...a, startCol: 4 });
      const r = await ${t("read_data_from_excel")}(a);
      return { columns: Object.keys(r[0]), teams: r.map((x) => x.Team) };
    `,
  ),
  revenue_model_revision: excel(
    (t) => `
      const a = { path: "revenue.xlsx", sheet: "Model" };
      await ${t("create_workbook")}(a);
      await ${t("write_data_to_excel")}({
        ...a,
        data: [
          ["Revenue model"],
          ["Product", "Units", "Price", "Revenue"],
          ["Widget", 120, 2.5, "=B3*C3"],
          ["Gadget", 80, 4, "=B4*C4"],
        ],
      });
      await ${t("merge_cells")}({ ...a, range: "A1:D1" });
      await ${t("format_range")}({ ...a, range: "A1:D1", bold: true });
      const r = await ${t("read_data_from_excel")}({ ...a, range: "A2:D4" });
      return { revenue: Object.fromEntries(r.map((x) => [x.Product, x.Revenue])) };
    `,
  ),

  // Tier D: goals; the program decides the steps.
  executive_briefing_goal: excel(
    (t) => `
      const a = { path: "briefing.xlsx", sheet: "Briefing" };
      await ${t("create_workbook")}(a);
      await ${t("write_data_to_excel")}({
        ...a,
        data: [["Q3 Executive Briefing"], ["Metric", "Value"], ["Revenue", 120000], ["Cost", 85000], ["Profit", "=B3-B4"]],
      });
      const m = await ${t("merge_cells")}({ ...a, range: "A1:D1" });
      await ${t("format_range")}({ ...a, range: "A1:D1", bold: true });
      const r = await ${t("read_data_from_excel")}({ ...a, range: "A2:B5" });
      return { merged: m.mergedCells, metrics: Object.fromEntries(r.map((x) => [x.Metric, x.Value])) };
    `,
  ),
  team_plan_snapshot_goal: excel(
    (t) => `
      const a = { path: "team.xlsx", sheet: "Plan" };
      await ${t("create_workbook")}(a);
      await ${t("write_data_to_excel")}({
        ...a,
        data: [["Name", "Focus"], ["Alice", "Hiring"], ["Bob", "Budget"], ["Cara", "Launch"]],
      });
      const c = await ${t("copy_worksheet")}({ path: a.path, source: "Plan", target: "Snapshot" });
      return { sheets: c.sheets };
    `,
  ),
  month_end_close_goal: excel(
    (t) => `
      const p = "close.xlsx";
      const rev = [["Subscriptions", 42000], ["Services", 18000]];
      const cost = [["Payroll", 30000], ["Hosting", 6000]];
      const w = (sheet, data) => ${t("write_data_to_excel")}({ path: p, sheet, data });
      await ${t("create_workbook")}({ path: p, sheet: "Revenue" });
      const out = [
        await w("Revenue", [["Item", "Amount"], ...rev]),
        await w("Costs", [["Item", "Amount"], ...cost]),
        await w("Summary", [
          ["Metric", "Value"],
          ["Total Revenue", "=SUM(Revenue!B2:B" + (rev.length + 1) + ")"],
          ["Total Costs", "=SUM(Costs!B2:B" + (cost.length + 1) + ")"],
          ["Net", "=B2-B3"],
        ]),
      ];
      return { written: Object.fromEntries(out.map((x) => [x.sheet, x.range])) };
    `,
  ),
  requests_register_goal: excel(
    (t) => `
      const a = { path: "requests.xlsx", sheet: "Intake" };
      await ${t("create_workbook")}(a);
      const wr = await ${t("write_data_to_excel")}({
        ...a,
        data: [
          ["Request", "Owner", "Priority", "Status"],
          ["VPN access", "Ann", "High", "Open"],
          ["New laptop", "Bo", "Medium", "In review"],
          ["Data export", "Cy", "Low", "Done"],
        ],
      });
      const tb = await ${t("create_table")}({ ...a, range: wr.range, name: "Requests" });
      return { table: tb.name, range: tb.range };
    `,
  ),
  board_packet_repair_goal: excel(
    (t) => `
      const p = "board.xlsx";
      const meta = () => ${t("get_workbook_metadata")}({ path: p, includeRanges: true });
      const m = await meta();
      const have = m.sheets.map((s) => s.name);
      const want = ["Overview", "Notes", "Details"];
      const spare = have.filter((n) => !want.includes(n));
      for (const n of want.filter((n) => !have.includes(n))) {
        const i = spare.findIndex((o) => n.toLowerCase().startsWith(o.toLowerCase()) || o.toLowerCase().startsWith(n.toLowerCase()));
        if (i >= 0) await ${t("rename_worksheet")}({ path: p, oldName: spare.splice(i, 1)[0], newName: n });
        else await ${t("create_worksheet")}({ path: p, sheet: n });
      }
      if (!m.sheets.find((s) => s.name === "Overview").mergedCells.includes("A1:D1"))
        await ${t("merge_cells")}({ path: p, sheet: "Overview", range: "A1:D1" });
      const v = await meta();
      return { sheets: v.sheets.map((s) => s.name), merged: v.sheets.find((s) => s.name === "Overview").mergedCells };
    `,
  ),
  staging_cleanup_goal: excel(
    (t) => `
      const a = { path: "backlog.xlsx", sheet: "Backlog" };
      const r = await ${t("read_data_from_excel")}(a);
      const st = (x) => /staging/i.test(String(x));
      const cols = Object.keys(r[0]);
      const row = r.findIndex((x) => Object.values(x).some(st));
      const col = cols.findIndex(st);
      await ${t("delete_sheet_rows")}({ ...a, startRow: row + 2 });
      await ${t("delete_sheet_columns")}({ ...a, startCol: col + 1 });
      return { columns: cols.filter((c, i) => i !== col), tasks: r.filter((x, i) => i !== row).map((x) => x.Task) };
    `,
  ),

  // Handles: the order logs, read whole inside the program and answered from there.
  ...Object.fromEntries(
    [240, 2400].flatMap((size) => [
      [
        `order_log_head_${size}`,
        excel(
          (t) => `
            const r = await ${t("read_data_from_excel")}({ path: "log.xlsx", sheet: "Orders" });
            return { orders: r.length, first: r.slice(0, 3).map((x) => x.Order) };
          `,
        ),
      ],
      [
        `order_log_tail_${size}`,
        excel(
          (t) => `
            const r = await ${t("read_data_from_excel")}({ path: "log.xlsx", sheet: "Orders" });
            return { last: Object.fromEntries(r.slice(-3).map((x) => [x.Order, x.Amount])) };
          `,
        ),
      ],
      [
        `region_total_${size}`,
        excel(
          (t) => `
            const r = await ${t("read_data_from_excel")}({ path: "log.xlsx", sheet: "Orders" });
            return { west_total: r.filter((x) => x.Region === "West").reduce((s, x) => s + x.Amount, 0) };
          `,
        ),
      ],
    ]),
  ),
};
