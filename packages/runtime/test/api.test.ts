/**
 * The API text (`renderDeclarations`, `View.declarations`): exact texts for a few tools, named
 * types once per view, recursive `$defs`, handles, enums and defaults, the layout rules, and tsc
 * as the oracle: the whole kitchen-sink and workbench texts compile as a `.d.ts` under the
 * strictest options, with a program written against them.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import kitchenSink from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import workbench from "../../../fixtures/workbench/src/zcp.gen/index.js";
import { renderApi } from "../src/definition/api/index.js";
import { createRuntime, renderDeclarations, type ToolDefinition } from "../src/index.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

function tools(
  generated: { registry: { tools: readonly ToolDefinition[] } },
  ...aliases: string[]
): ToolDefinition[] {
  return aliases.map((alias) => {
    const tool = generated.registry.tools.find((candidate) => candidate.alias === alias);
    if (!tool) throw new Error(`no tool ${alias}`);
    return tool;
  });
}

/** A definition for layout tests: `alias` with the given input schema, no output. */
function fake(alias: string, inputSchema: object, extra: Partial<ToolDefinition> = {}) {
  const [base] = tools(kitchenSink, "tables.drop");
  return { ...base!, alias, inputSchema, description: "", ...extra } as ToolDefinition;
}

describe("renderDeclarations", () => {
  it("types a tool's arguments inline, one documented parameter per line, and its result by its TypeScript name", () => {
    expect(renderDeclarations(tools(workbench, "excel.write_data_to_excel"))).toBe(
      `interface WriteResult {
  sheet: string;
  range: string; // The range written, e.g. "A1:C4".
  rows: number;
  columns: number;
}
declare const tools: {
  excel: {
    /** Write rows of values into a worksheet, starting at a cell; creates the worksheet if it is missing. */
    write_data_to_excel(args: {
      path: string; // Workbook file, relative to the workspace; must exist.
      sheet: string; // Worksheet to write to.
      data: (string | number | boolean | null)[][]; // Rows of cell values, e.g. [["Name","Value"],["Latency",42]]; a string starting with "=" is a formula, null clears a cell.
      startCell?: string; // default "A1". Top-left cell of the written block, in A1 notation.
    }): Promise<WriteResult>;
  };
};
`,
    );
  });

  it("without docs: no comments, and an object that fits stays on one line", () => {
    expect(renderDeclarations(tools(workbench, "excel.write_data_to_excel"), { docs: false }))
      .toBe(`interface WriteResult { sheet: string; range: string; rows: number; columns: number }
declare const tools: {
  excel: {
    write_data_to_excel(args: {
      path: string;
      sheet: string;
      data: (string | number | boolean | null)[][];
      startCell?: string;
    }): Promise<WriteResult>;
  };
};
`);
  });

  it("types handle parameters and handle-mode results as Handle, declared once first", () => {
    expect(renderDeclarations(tools(kitchenSink, "tables.load", "tables.sum"))).toBe(
      `/** A result kept on the server: pass it (or its handle id) where a Handle is taken; read it with tools.zcp.handle. */
interface Handle { handle: string; summary: string; count?: number }
declare const tools: {
  tables: {
    /** Load a table of rows; large results stay in the runtime as a handle. */
    load(args: {
      name: string; // Table name.
      limit?: number; // default 100. Maximum number of rows.
    }): Promise<Handle>;
    /** Sum a column of a table handle. */
    sum(args: {
      rows: Handle; // "table" handle. A handle produced by tables.load.
      column: "qty";
      anything?: Handle; // A handle of any kind.
    }): Promise<number>;
  };
};
`,
    );
    // No handle anywhere: no Handle.
    expect(renderDeclarations(weather.registry.tools)).not.toContain("Handle");
  });

  it("shows enums as literal unions and defaults in the comment; an auto tool answers its value; @deprecated", () => {
    expect(renderDeclarations(tools(kitchenSink, "reports.export"))).toBe(
      `interface Report { title: string; lines: string[] }
declare const tools: {
  reports: {
    /** Export rows to a report (auto output: inline when small, else a handle of kind \`report\`). @deprecated Use tables.load and a view instead. */
    export(args: {
      title: string; // Report title.
      format?: "csv" | "tsv"; // default "csv".
      pageSize?: number; // default 50. A page size.
      offset?: number; // default -1.
      draft?: boolean; // default false.
      columns?: string[]; // default ["sku","qty"].
      style?: { bold: boolean }; // default {"bold":true}.
      color?: "red" | "green" | "blue"; // default "blue". Paint colours.
      note?: string | null; // default null.
    }): Promise<Report>;
  };
};
`,
    );
  });

  it("declares a named type once across the tools that share it", () => {
    const text = renderDeclarations(
      tools(workbench, "excel.copy_worksheet", "excel.create_worksheet", "excel.rename_worksheet"),
    );
    expect(text.match(/^interface SheetList /gm)).toHaveLength(1);
    expect(text.match(/\): Promise<SheetList>;$/gm)).toHaveLength(3);
    // Two different shapes under one TypeScript name: the second is numbered.
    expect(renderDeclarations(tools(kitchenSink, "box.open"))).toContain(
      `interface Box { value: "large" | "small"; label: string }
interface Box2 { value: number[]; label: string }
declare const tools: {
  box: {
    /** Open a box of a generic type instantiated with a union. */
    open(args: { box: Box; extra: Box2 }): Promise<string>;
  };
};
`,
    );
  });

  it("declares recursive $defs under their own names, once", () => {
    const tree = tools(kitchenSink, "tree.count")[0]!;
    const text = renderDeclarations([tree, { ...tree, alias: "tree.again" }]);
    expect(text).toBe(`/** A tree of named nodes. */
interface TreeNode { name: string; children: TreeNode[] }
declare const tools: {
  tree: {
    /** Count the nodes of a tree. */
    count(args: {
      root: TreeNode; // A recursive interface.
      maxDepth?: number; // Stop counting below this depth.
    }): Promise<number>;
    /** Count the nodes of a tree. */
    again(args: {
      root: TreeNode; // A recursive interface.
      maxDepth?: number; // Stop counting below this depth.
    }): Promise<number>;
  };
};
`);
    expect(renderDeclarations(tools(kitchenSink, "json.store"))).toContain(
      `/** Any JSON value (a recursive type alias). */
type Json = string | number | boolean | Json[] | { [key: string]: Json } | null;
`,
    );
  });

  it("nests by the alias's dots, quotes segments that are not identifiers, skips zcp.run", () => {
    const none = { type: "object", properties: {}, additionalProperties: false };
    const text = renderDeclarations([
      fake("a", none),
      fake("a.b", { type: "object", properties: { x: { type: "string" } }, required: ["x"] }),
      fake("top.my-tool", none),
      fake("zcp.run", { type: "object", properties: { code: { type: "string" } } }),
    ]);
    expect(text).toBe(`declare const tools: {
  a: {
    (args?: {}): Promise<void>;
    b(args: { x: string }): Promise<void>;
  };
  top: {
    "my-tool"(args?: {}): Promise<void>;
  };
};
`);
    expect(renderDeclarations([])).toBe("declare const tools: {};\n");
  });

  it("renderApi: each tool's declaration as in the text, and the named types", () => {
    const api = renderApi(tools(workbench, "excel.copy_worksheet", "excel.create_worksheet"));
    expect([...api.tools.keys()]).toEqual(["excel.copy_worksheet", "excel.create_worksheet"]);
    for (const declaration of api.tools.values()) expect(api.text).toContain(declaration);
    expect(api.tools.get("excel.create_worksheet"))
      .toBe(`    /** Add an empty worksheet at the end of an existing workbook. */
    create_worksheet(args: {
      path: string; // Workbook file, relative to the workspace.
      sheet: string; // Name of the new worksheet; must not exist yet.
    }): Promise<SheetList>;`);
    expect(api.types).toHaveLength(1);
    expect(api.text.startsWith(api.types[0]!)).toBe(true);
  });
});

describe("View.declarations", () => {
  it("renders the view's tools, built-ins included, once per form", () => {
    const runtime = createRuntime(kitchenSink, { exposure: { find: true } });
    const view = runtime.session().exposed;
    const text = view.declarations();
    expect(text).toBe(renderDeclarations(view.tools));
    expect(view.declarations()).toBe(text);
    expect(view.declarations({ docs: false })).toBe(
      renderDeclarations(view.tools, { docs: false }),
    );
    // The built-ins are rendered from their definitions; their answers have no schema.
    expect(text).toContain(`  zcp: {
    /** Find the tools for a task by keywords: returns the best matches and makes them callable in this session. */
    find_tools(args: {
      query: string; // Keywords of the task, e.g. "forecast weather city".
      limit?: number; // Most tools to return (default 5, at most 20).
    }): Promise<unknown>;
`);
    expect(text).toContain(
      `      op: "count" | "read" | "view" | "grep" | "summary" | "release"; // count | read (one item, or all) | view (rows, text lines or characters) | grep (a text's lines with text) | summary | release\n`,
    );
  });
});

describe("tsc as the oracle", () => {
  /** Runs tsc --noEmit over the files under the strictest options; its diagnostics, one per line. */
  function tsc(files: { [name: string]: string }): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-api-"));
    try {
      for (const [name, text] of Object.entries(files))
        fs.writeFileSync(path.join(dir, name), text);
      fs.writeFileSync(
        path.join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            lib: ["ES2022"],
            module: "preserve",
            moduleResolution: "bundler",
            strict: true,
            exactOptionalPropertyTypes: true,
            noUncheckedIndexedAccess: true,
            noUnusedLocals: true,
            noUnusedParameters: true,
            noPropertyAccessFromIndexSignature: true,
            types: [],
          },
          files: Object.keys(files),
        }),
      );
      const run = spawnSync(
        path.join(REPO, "node_modules/.bin/tsc"),
        ["-p", "tsconfig.json", "--noEmit", "--pretty", "false"],
        { cwd: dir, encoding: "utf8" },
      );
      return `${run.stdout}${run.stderr}`.trim();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it("compiles the whole kitchen-sink view (built-ins included) with a program against it", () => {
    const view = createRuntime(kitchenSink, { exposure: { find: true } }).session().exposed;
    const program = `export async function program(): Promise<number> {
  const page = await tools.people.find({ filter: { city: "Oslo" }, weights: {}, byLevel: { low: 1, high: 2 } });
  const summary: string = page.summary;
  await tools.zcp.handle({ op: "view", handle: page.handle, limit: 5 });
  const table = await tools.tables.load({ name: "orders" });
  const total = await tools.tables.sum({ rows: table, column: "qty" });
  const report = await tools.reports.export({ title: summary, format: "tsv" });
  const nodes = await tools.tree.count({ root: { name: "a", children: [{ name: "b", children: [] }] } });
  await tools.tables.drop({ name: "x" });
  // @ts-expect-error: not one of the enum's values
  await tools.reports.export({ title: "t", format: "xml" });
  // @ts-expect-error: a required parameter is missing
  await tools.tables.load({});
  return total + nodes + report.lines.length;
}
`;
    expect(tsc({ "api.d.ts": view.declarations(), "program.ts": program })).toBe("");
    expect(tsc({ "api.d.ts": view.declarations({ docs: false }), "program.ts": program })).toBe("");
  });

  it("compiles the whole workbench registry with a program against it", () => {
    const program = `export async function program(): Promise<string> {
  const written = await tools.excel.write_data_to_excel({ path: "a.xlsx", sheet: "S", data: [["x", 1, true, null]] });
  const meta = await tools.excel.get_workbook_metadata({ path: "a.xlsx" });
  const first = meta.sheets[0];
  // @ts-expect-error: the result has no such field
  written.cells;
  return \`\${written.range} \${first?.usedRange ?? "empty"}\`;
}
`;
    const text = renderDeclarations(workbench.registry.tools);
    expect(tsc({ "api.d.ts": text, "program.ts": program })).toBe("");
    // An error in a program is reported against the declarations: the oracle is not vacuous.
    expect(
      tsc({
        "api.d.ts": text,
        "program.ts": `export const p = tools.excel.write_data_to_excel({ path: 1, sheet: "S", data: [] });\n`,
      }),
    ).toBe("program.ts(1,52): error TS2322: Type 'number' is not assignable to type 'string'.");
  });
});

it("examples/api-text.ts prints the weather view's API text, then the bare one", () => {
  const run = spawnSync(
    process.execPath,
    ["--import", "tsx", "packages/runtime/examples/api-text.ts"],
    { cwd: REPO, encoding: "utf8" },
  );
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  expect(run.stdout).toContain(`declare const tools: {
  weather: {
    /** Get the current weather for one city. */
    get_current(args: {
      city: "Shanghai" | "Beijing" | "Shenzhen" | "Hangzhou"; // City name, e.g. "Shanghai".
      unit?: "celsius" | "fahrenheit"; // default "celsius". Unit of the returned temperature.
    }): Promise<Weather>;
  };
};
`);
  expect(run.stdout).toContain("  humidity: number;\n}\n");
  expect(run.stdout.trim().split("\n").at(-1)).toBe("true");
});

it("renames a shape whose TypeScript name is a global type or not an identifier", () => {
  const result = (title: string, field: string) => ({
    type: "object",
    title,
    properties: { [field]: { type: "string" } },
    required: [field],
    additionalProperties: false,
  });
  const text = renderDeclarations([
    fake("a.when", { type: "object", properties: {} }, { outputSchema: result("Date", "iso") }),
    fake(
      "a.page",
      { type: "object", properties: {} },
      { outputSchema: result("Page<Row>", "row") },
    ),
    fake("a.handle", { type: "object", properties: {} }, { outputSchema: result("Handle", "id") }),
  ]);
  expect(text).toBe(`interface Date2 { iso: string }
interface PageRow { row: string }
interface Handle2 { id: string }
declare const tools: {
  a: {
    when(args?: {}): Promise<Date2>;
    page(args?: {}): Promise<PageRow>;
    handle(args?: {}): Promise<Handle2>;
  };
};
`);
});
