/**
 * zcp gen from an upstream that speaks only MCP 2026-07-28 (the official v2 server SDK with
 * `legacy: "reject"`, packages/server/test/era-upstream.ts), over stdio and Streamable HTTP: the
 * listing probes the era and reads the tools; `zcp gen --from-mcp` writes the module. A 2025
 * server that ignores the probe is listed once the probe's bound has passed, and a 2026 one that
 * starts slower than the bound is probed again.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { listUpstream } from "../src/upstream/index.js";
import { REPO, runZcp, scratchProject } from "./helpers.js";

const SCRIPT = path.join(REPO, "packages/server/test/era-upstream.ts");
/** tsx's loader by its path: the child runs in the scratch project, where `tsx` does not resolve. */
const TSX = path.join(REPO, "node_modules/tsx/dist/loader.mjs");
const stdio = (era: string) => ({
  command: process.execPath,
  args: ["--import", TSX, SCRIPT, "stdio", era],
});

let child: ChildProcess;
let url: string;

beforeAll(async () => {
  child = spawn(process.execPath, ["--import", TSX, SCRIPT, "http", "modern", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`era-upstream exited (${code})`)));
  });
  url = `http://127.0.0.1:${port}/mcp`;
});

afterAll(() => {
  child.kill();
});

const TOOLS = ["echo", "fail"];

test("a 2026-only upstream is listed over stdio and HTTP", async () => {
  for (const server of [stdio("modern"), { url }]) {
    const listed = await listUpstream(server);
    expect(listed.diagnostics).toEqual([]);
    expect(listed.listing?.serverName).toBe("era-upstream");
    expect(listed.listing?.tools.map((tool) => tool.name)).toEqual(TOOLS);
  }
});

test("a 2025 upstream that ignores the probe is listed after the probe's bound", async () => {
  const started = Date.now();
  const listed = await listUpstream(stdio("silent"));
  expect(listed.listing?.tools.map((tool) => tool.name)).toEqual(TOOLS);
  expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
});

test("a 2026 upstream that starts slower than the probe's bound is probed again", async () => {
  const listed = await listUpstream(stdio("late"), { probeTimeoutMs: 500 });
  expect(listed.diagnostics).toEqual([]);
  expect(listed.listing?.tools.map((tool) => tool.name)).toEqual(TOOLS);
});

test("zcp gen --from-mcp <a 2026-only upstream>, over stdio and HTTP", () => {
  const line = [process.execPath, "--import", TSX, SCRIPT, "stdio", "modern"].join(" ");
  for (const from of [line, url]) {
    const dir = scratchProject({});
    const run = runZcp(dir, ["gen", "--from-mcp", from]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const manifest = JSON.parse(
      fs.readFileSync(path.join(dir, "zcp.gen/registry.json"), "utf8"),
    ) as { index: Record<string, string> };
    expect(Object.keys(manifest.index).sort()).toEqual(["era_upstream.echo", "era_upstream.fail"]);
  }
});
