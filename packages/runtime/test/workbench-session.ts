/** What the workbench tests share: a runtime session on the workbench fixture over a fresh folder, and helpers. */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createRuntime, type CallResult, type Session } from "../src/index.js";

export const root = mkdtempSync(path.join(os.tmpdir(), "zcp-workbench-"));
export const outside = mkdtempSync(path.join(os.tmpdir(), "zcp-outside-"));
export const toolErrors: string[] = [];
export let session: Session;

/** Registers the hooks: a session on the workbench fixture over a fresh folder, removed after. */
export function useWorkbench(): void {
  beforeAll(async () => {
    process.env.ZCP_WORKBENCH_DIR = root;
    const generated = (await import("../../../fixtures/workbench/src/zcp.gen/index.js")).default;
    const runtime = createRuntime(generated, {
      onToolError: (error) => toolErrors.push(String((error as Error).message)),
    });
    session = runtime.session();
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
}

/** The answer of a call that must succeed: its value, its content blocks, or the handle answer. */
export async function ok(alias: string, args: Record<string, unknown>): Promise<any> {
  const result: CallResult = await session.call(alias, args);
  if (!result.ok)
    throw new Error(`${alias} failed: ${JSON.stringify(result)} ${toolErrors.at(-1) ?? ""}`);
  return "handle" in result ? result : "content" in result ? result.content : result.value;
}

/** A workbook of the folder, read with the fixture's own reader. */
export async function open(file: string) {
  // exceljs is the fixture's dependency: read the file with the fixture's helper
  const { openWorkbookFile } = await import("../../../fixtures/workbench/src/workspace.js");
  return openWorkbookFile(path.join(root, file));
}

export const FILE = "reports/sales.xlsx";
