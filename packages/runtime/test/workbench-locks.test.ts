/**
 * The workbench's writes to one workbook: locked by real path within a process and across
 * processes (proper-lockfile), saved by temp file and rename, and given up when the call stops.
 */
import { execFile } from "node:child_process";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  utimesSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, type Session, type ToolContext } from "../src/index.js";

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../../..");
const root = mkdtempSync(path.join(os.tmpdir(), "zcp-workbench-locks-"));
type Generated = Parameters<typeof createRuntime>[0];
let generated: Generated;
let session: Session;

beforeAll(async () => {
  process.env.ZCP_WORKBENCH_DIR = root;
  generated = (await import("../../../fixtures/workbench/src/zcp.gen/index.js")).default;
  session = createRuntime(generated, { maxConcurrentCalls: 100 }).session();
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const workspace = () => import("../../../fixtures/workbench/src/workspace.js");

async function create(file: string): Promise<void> {
  expect(await session.call("excel.create_workbook", { path: file })).toMatchObject({ ok: true });
}

function write(s: Session, file: string, cell: string, value: unknown, options = {}) {
  return s.call(
    "excel.write_data_to_excel",
    { path: file, sheet: "Sheet1", data: [[value]], startCell: cell },
    options,
  );
}

async function cells(file: string, refs: string[]): Promise<unknown[]> {
  const { openWorkbookFile } = await workspace();
  const sheet = (await openWorkbookFile(path.join(root, file))).getWorksheet("Sheet1")!;
  return refs.map((ref) => sheet.getCell(ref).value);
}

/** Names left beside the workbooks: temporary files and lock folders. */
function leftovers(folder = root): string[] {
  return readdirSync(folder).filter((name) => /\.tmp$|\.lock$/.test(name));
}

const column = (letter: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${letter}${i + 1}`);

describe("workbench locks", () => {
  it("keeps all 100 writes of two processes writing 50 times each to one workbook at once", async () => {
    const file = "shared.xlsx";
    await create(file);
    const script = path.join(here, "workbench-writer.ts");
    const startAt = String(Date.now() + 4000);
    const writer = (letter: string) =>
      run(process.execPath, ["--import", "tsx", script, file, letter, "50", startAt], {
        cwd: repo,
        env: { ...process.env, ZCP_WORKBENCH_DIR: root },
      });
    const [a, b] = await Promise.all([writer("A"), writer("B")]);
    expect(JSON.parse(a.stdout)).toEqual([]);
    expect(JSON.parse(b.stdout)).toEqual([]);
    expect(await cells(file, [...column("A", 50), ...column("B", 50)])).toEqual([
      ...column("A", 50),
      ...column("B", 50),
    ]);
    expect(leftovers()).toEqual([]);
  }, 120_000);

  it("keeps every write of two runtimes on one workbook, calls all at once", async () => {
    const file = "runtimes.xlsx";
    await create(file);
    const other = createRuntime(generated, { maxConcurrentCalls: 100 }).session();
    const answers = await Promise.all([
      ...column("A", 25).map((ref) => write(session, file, ref, ref)),
      ...column("B", 25).map((ref) => write(other, file, ref, ref)),
    ]);
    expect(answers.filter((answer) => !answer.ok)).toEqual([]);
    expect(await cells(file, [...column("A", 25), ...column("B", 25)])).toEqual([
      ...column("A", 25),
      ...column("B", 25),
    ]);
  });

  it("writes through a symbolic link land in the one file, and the link stays a link", async () => {
    const file = "target.xlsx";
    await create(file);
    symlinkSync(path.join(root, file), path.join(root, "alias.xlsx"));
    mkdirSync(path.join(root, "real"));
    symlinkSync(path.join(root, "real"), path.join(root, "linked"));
    await create("real/book.xlsx");
    const answers = await Promise.all([
      ...column("A", 10).map((ref) => write(session, file, ref, ref)),
      ...column("B", 10).map((ref) => write(session, "alias.xlsx", ref, ref)),
      ...column("A", 10).map((ref) => write(session, "real/book.xlsx", ref, ref)),
      ...column("B", 10).map((ref) => write(session, "linked/book.xlsx", ref, ref)),
    ]);
    expect(answers.filter((answer) => !answer.ok)).toEqual([]);
    const all = [...column("A", 10), ...column("B", 10)];
    expect(await cells(file, all)).toEqual(all);
    expect(await cells("real/book.xlsx", all)).toEqual(all);
    expect(lstatSync(path.join(root, "alias.xlsx")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(root, "alias.xlsx"))).toBe(path.join(root, file));
    expect(lstatSync(path.join(root, "linked")).isSymbolicLink()).toBe(true);
    const { resolveWorkbookPath } = await workspace();
    expect(await resolveWorkbookPath("alias.xlsx")).toBe(await resolveWorkbookPath(file));
    // a file not made yet resolves through its folder's link too
    expect(await resolveWorkbookPath("linked/new.xlsx")).toBe(path.join(root, "real/new.xlsx"));
    expect(leftovers()).toEqual([]);
    expect(leftovers(path.join(root, "real"))).toEqual([]);
  });

  it("leaves the workbook unchanged, and no temporary file, when the signal aborts before the rename", async () => {
    const file = "abort.xlsx";
    await create(file);
    const { editWorkbook } = await workspace();
    const before = readFileSync(path.join(root, file));
    const context = (controller: AbortController) =>
      ({
        sessionId: "test",
        signal: controller.signal,
        progress() {},
        log() {},
      }) as unknown as ToolContext;
    // aborted while editing: nothing is written
    const during = new AbortController();
    await expect(
      editWorkbook(context(during), file, (workbook) => {
        workbook.worksheets[0]!.getCell("A1").value = "edited";
        during.abort();
      }),
    ).rejects.toMatchObject({ name: "ToolError", code: "cancelled" });
    // aborted once the workbook is serialized: the temporary file is written, then removed
    const late = new AbortController();
    await expect(
      editWorkbook(context(late), file, (workbook) => {
        workbook.worksheets[0]!.getCell("A1").value = "edited";
        const serialize = workbook.xlsx.writeBuffer.bind(workbook.xlsx);
        workbook.xlsx.writeBuffer = async (options) => {
          const buffer = await serialize(options);
          late.abort();
          return buffer;
        };
      }),
    ).rejects.toMatchObject({ name: "ToolError", code: "cancelled" });
    expect(readFileSync(path.join(root, file)).equals(before)).toBe(true);
    expect(leftovers()).toEqual([]);
    // and the lock is free again
    expect(await write(session, file, "A1", "after")).toMatchObject({ ok: true });
    expect(await cells(file, ["A1"])).toEqual(["after"]);
  });

  it("a call waiting for a lock stops waiting when it times out, and writes nothing", async () => {
    const file = "held.xlsx";
    await create(file);
    // another process's live lock: a fresh lock folder beside the workbook
    const lock = path.join(root, `${file}.lock`);
    mkdirSync(lock);
    const started = performance.now();
    expect(await write(session, file, "A1", "late", { timeoutMs: 300 })).toMatchObject({
      ok: false,
      error: "timeout",
    });
    expect(performance.now() - started).toBeLessThan(1000);
    // the waiting call has stopped: freeing the lock does not let it write afterwards
    rmSync(lock, { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(session.running).toBe(0);
    expect(await cells(file, ["A1"])).toEqual([null]);
  });

  it("takes over a stale lock (its holder stopped refreshing it)", async () => {
    const file = "stale.xlsx";
    await create(file);
    const lock = path.join(root, `${file}.lock`);
    mkdirSync(lock);
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(lock, minuteAgo, minuteAgo);
    expect(await write(session, file, "A1", "taken")).toMatchObject({ ok: true });
    expect(await cells(file, ["A1"])).toEqual(["taken"]);
    expect(leftovers()).toEqual([]);
  });
});
