/**
 * Issue 12, item 6: two zcp-serve processes on one workbench workspace. 50 writes from each to
 * one workbook all answer ok and all 100 are kept; a symlink to the workbook writes through to
 * it and stays a symlink.
 */
import { lstatSync, readdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { connectHttp, type ZcpClient } from "@zcp/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMIT_FLAGS, Processes, WARM_WORKBENCH, warmUp, WORKBENCH } from "./harness.js";

const processes = new Processes();
afterAll(() => processes.cleanup());

const WRITES = 50;
/** Writes in flight per process at once. */
const PARALLEL = 5;

async function writeColumn(client: ZcpClient, file: string, column: "A" | "B"): Promise<unknown[]> {
  const failures: unknown[] = [];
  const rows = Array.from({ length: WRITES }, (_, i) => i + 1);
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let row = rows.shift(); row !== undefined; row = rows.shift()) {
        const answer = await client.call("excel.write_data_to_excel", {
          path: file,
          sheet: "Sheet1",
          data: [[`${column}${row}`]],
          startCell: `${column}${row}`,
        });
        if (!(answer as { ok: boolean }).ok) failures.push({ row, answer });
      }
    }),
  );
  return failures;
}

async function readBack(client: ZcpClient, file: string): Promise<string[]> {
  const answer = (await client.call("excel.read_data_from_excel", {
    path: file,
    sheet: "Sheet1",
    range: `A1:B${WRITES}`,
    header: false,
  })) as { ok: boolean; value?: unknown; handle?: string };
  expect(answer.ok, `reading the workbook back: ${JSON.stringify(answer)}`).toBe(true);
  // 50 rows come back as a handle of kind rows: read it whole.
  const rows = (
    answer.handle === undefined
      ? answer.value
      : ((await client.handles.read(answer.handle)) as { value?: unknown }).value
  ) as { A: unknown; B: unknown }[];
  return rows.flatMap((row) => [row.A, row.B]).filter((v): v is string => typeof v === "string");
}

function expected(): string[] {
  return Array.from({ length: WRITES }, (_, i) => [`A${i + 1}`, `B${i + 1}`]).flat();
}

describe("issue 12 item 6: two processes, one workspace", () => {
  let workspace: string;
  let first: ZcpClient;
  let second: ZcpClient;
  beforeAll(async () => {
    workspace = processes.tempDir("lost-updates");
    const env = { ZCP_WORKBENCH_DIR: workspace };
    const [a, b] = await Promise.all([
      processes.http(["--registry", WORKBENCH, ...LIMIT_FLAGS, "--timeout-ms", "30000"], { env }),
      processes.http(["--registry", WORKBENCH, ...LIMIT_FLAGS, "--timeout-ms", "30000"], { env }),
    ]);
    await Promise.all([a, b].map((s) => warmUp(s.native, undefined, WARM_WORKBENCH)));
    first = connectHttp(a.native);
    second = connectHttp(b.native);
    await Promise.all([first.initialize(), second.initialize()]);
  });

  async function create(file: string) {
    expect(await first.call("excel.create_workbook", { path: file })).toMatchObject({ ok: true });
  }

  it("50 writes from each process to one workbook: all 100 answered ok and kept", async () => {
    await create("shared.xlsx");
    const [failedA, failedB] = await Promise.all([
      writeColumn(first, "shared.xlsx", "A"),
      writeColumn(second, "shared.xlsx", "B"),
    ]);
    expect([...failedA, ...failedB], "writes that did not answer ok").toEqual([]);
    const kept = await readBack(first, "shared.xlsx");
    const lost = expected().filter((cell) => !kept.includes(cell));
    expect(lost, `acknowledged writes lost (${lost.length} of ${2 * WRITES})`).toEqual([]);
  });

  it("writes through a symlink and through the real name land in one workbook; the link stays a link", async () => {
    await create("real.xlsx");
    symlinkSync("real.xlsx", path.join(workspace, "link.xlsx"));
    const [failedA, failedB] = await Promise.all([
      writeColumn(first, "real.xlsx", "A"),
      writeColumn(second, "link.xlsx", "B"),
    ]);
    expect([...failedA, ...failedB], "writes that did not answer ok").toEqual([]);
    expect(lstatSync(path.join(workspace, "link.xlsx")).isSymbolicLink(), "link.xlsx").toBe(true);
    const kept = await readBack(first, "real.xlsx");
    const lost = expected().filter((cell) => !kept.includes(cell));
    expect(lost, `writes lost to the symlink split (${lost.length} of ${2 * WRITES})`).toEqual([]);
    expect(await readBack(second, "link.xlsx"), "the same workbook through the link").toEqual(kept);
    const leftovers = readdirSync(workspace).filter(
      (name) => !/^(shared|real|link)\.xlsx$/.test(name),
    );
    expect(leftovers, "temp or lock files left in the workspace").toEqual([]);
  });
});
