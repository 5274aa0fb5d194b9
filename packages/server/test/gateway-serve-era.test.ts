/**
 * The real `zcp-serve` bin on a gateway registry, in front of upstreams of either MCP era on the
 * official SDKs (test/era-upstream.ts): a 2026-only one over stdio and over HTTP, a dual-era one
 * (2026 picked), and one that spoke only 2025 when the module was generated and only 2026 when
 * it is served (and the reverse). Through each, the tools list, a call answers, and a tool
 * error comes back as a clean tool error.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client, type CallToolResult } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { httpEra, stdioEra, writeGatewayModule } from "./gateway-module.js";
import type { UpstreamServer } from "../src/gateway/index.js";

const BIN = fileURLToPath(new URL("../dist/bin/zcp-serve.js", import.meta.url));
const tmp = mkdtempSync(path.join(os.tmpdir(), "zcp-gateway-serve-era-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

let modules = 0;
/** A gateway module over `server`, listed now (what `zcp gen --from-mcp` does). */
async function generate(server: UpstreamServer): Promise<string> {
  const file = path.join(tmp, `gateway-${++modules}.js`);
  await writeGatewayModule(server, { name: "era" }, file);
  return file;
}

/** zcp-serve on `file` over stdio: its tools' names, and what `echo` and `fail` answer. */
async function serve(file: string) {
  const client = new Client({ name: "zcp-test", version: "0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "--registry", file],
      env: process.env as Record<string, string>,
      stderr: "ignore",
    }),
  );
  try {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    const echo = (await client.callTool({
      name: "era_echo",
      arguments: { text: "hi" },
    })) as CallToolResult;
    const fail = (await client.callTool({ name: "era_fail", arguments: {} })) as CallToolResult;
    return { names, echo: echo.content, fail: { isError: fail.isError, content: fail.content } };
  } finally {
    await client.close();
  }
}

/** The answers of a tool error that came back clean: the upstream's text, code upstream_error. */
const FAILED = {
  isError: true,
  content: [{ type: "text", text: expect.stringMatching(/upstream_error.*it failed on purpose/s) }],
};

/** What zcp-serve answers in front of an upstream serving era `era`. */
const answers = (era: string) => ({
  names: expect.arrayContaining(["era_echo", "era_fail"]) as unknown,
  echo: [{ type: "text", text: `${era} hi` }],
  fail: FAILED,
});

describe("zcp-serve in front of an upstream of either era", () => {
  it("a 2026-only upstream over stdio, and a dual-era one (2026 picked)", async () => {
    for (const kind of ["modern", "dual"])
      expect(await serve(await generate(stdioEra(kind)))).toEqual(answers("modern"));
  });

  it("a 2026-only upstream over HTTP", async () => {
    const server = await httpEra("modern");
    stops.push(server.stop);
    expect(await serve(await generate({ url: server.url }))).toEqual(answers("modern"));
  });

  it("over stdio, 2025 only when generated and 2026 only when served, and the reverse", async () => {
    const file = path.join(tmp, "era");
    for (const [then, now] of [
      ["legacy", "modern"],
      ["modern", "legacy"],
    ]) {
      writeFileSync(file, then!);
      const module = await generate(stdioEra(`@${file}`));
      writeFileSync(file, now!);
      expect(await serve(module)).toEqual(answers(now!));
    }
  });

  it("over HTTP, 2025 only when generated and 2026 only when served, and the reverse", async () => {
    for (const [then, now] of [
      ["legacy", "modern"],
      ["modern", "legacy"],
    ]) {
      const generated = await httpEra(then!);
      const module = await generate({ url: generated.url });
      await generated.stop();
      const served = await httpEra(now!, generated.port);
      stops.push(served.stop);
      expect(await serve(module)).toEqual(answers(now!));
    }
  });
});
