/**
 * The gateway end to end, as the two commands of docs/gateway.md take it: `zcp gen` over the real memory
 * server (`@modelcontextprotocol/server-memory`, stdio), then the real `zcp-serve` bin on the
 * generated JavaScript, over HTTP with both surfaces; every tool of the upstream called through
 * the official MCP SDK client and through the native client, each answer checked.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { pathToFileURL } from "node:url";
import { afterAll, expect, test } from "vitest";
import { connectHttp } from "../../client/dist/index.js";
import { createCodeRunner } from "../../code/dist/index.js";
import { createRuntime, type GeneratedModule } from "@zcp/runtime";
import { REPO, runZcp, scratchProject } from "./helpers.js";

const fromServer = createRequire(path.join(REPO, "packages/server/package.json"));
const MEMORY = path.join(
  path.dirname(fromServer.resolve("@modelcontextprotocol/server-memory/package.json")),
  "dist/index.js",
);
const BIN = path.join(REPO, "packages/server/dist/bin/zcp-serve.js");
const data = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-gateway-e2e-"));
const cleanup: (() => unknown)[] = [() => fs.rmSync(data, { recursive: true, force: true })];
// The memory server's file, named by the config's `${ZCP_E2E_MEMORY}`: zcp gen lists the
// upstream with it, zcp-serve inherits it.
process.env["ZCP_E2E_MEMORY"] = path.join(data, "memory.jsonl");
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** Every memory tool, in an order in which each call succeeds, with the value the graph then holds. */
const CALLS: readonly (readonly [string, Record<string, unknown>])[] = [
  [
    "create_entities",
    {
      entities: [
        { name: "Ada", entityType: "person", observations: ["writes programs"] },
        { name: "Zcp", entityType: "project", observations: [] },
      ],
    },
  ],
  ["create_relations", { relations: [{ from: "Ada", to: "Zcp", relationType: "builds" }] }],
  ["add_observations", { observations: [{ entityName: "Zcp", contents: ["a gateway"] }] }],
  ["search_nodes", { query: "gateway" }],
  ["open_nodes", { names: ["Ada"] }],
  ["read_graph", {}],
  [
    "delete_observations",
    { deletions: [{ entityName: "Ada", observations: ["writes programs"] }] },
  ],
  ["delete_relations", { relations: [{ from: "Ada", to: "Zcp", relationType: "builds" }] }],
  ["delete_entities", { entityNames: ["Ada", "Zcp"] }],
];

test("zcp gen, then zcp-serve: every upstream tool answers on the MCP and the native surface", async () => {
  const dir = scratchProject({
    "zcp.config.json": JSON.stringify({
      fromMcp: {
        server: {
          command: "node",
          args: [MEMORY],
          env: { MEMORY_FILE_PATH: "${ZCP_E2E_MEMORY}" },
        },
        name: "memory",
      },
    }),
  });
  fs.symlinkSync(path.join(REPO, "packages/server"), path.join(dir, "node_modules/@zcp/server"));
  const gen = runZcp(dir, ["gen"]);
  expect(gen.stderr).toBe("");
  expect(gen.status).toBe(0);

  const child = spawn(
    process.execPath,
    [
      ...[BIN, "--registry", path.join(dir, "zcp.gen/index.js")],
      ...["--transport", "http", "--port", "0", "--surface", "both"],
    ],
    {
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  cleanup.push(() => child.kill("SIGKILL"));
  const base = await new Promise<URL>((resolve, reject) => {
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(stderr);
      if (match) resolve(new URL(match[1]!));
    });
    child.on("exit", (code) => reject(new Error(`zcp-serve exited (${code}): ${stderr}`)));
  });
  const mcp = new Client({ name: "e2e", version: "0" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL("/mcp", base)));
  cleanup.push(() => mcp.close());
  const native = connectHttp(new URL("/zcp", base));
  cleanup.push(() => native.close());
  await native.initialize();

  const listed = (await mcp.listTools()).tools.map((tool) => tool.name).sort();
  // The upstream's tools, and the handle tool: their results are `auto` (large ones become handles).
  expect(listed).toEqual([...CALLS.map(([tool]) => `memory_${tool}`), "zcp_handle"].sort());
  for (const [tool, args] of CALLS) {
    const viaMcp = (await mcp.callTool({
      name: `memory_${tool}`,
      arguments: args,
    })) as CallToolResult;
    expect(viaMcp.isError, tool).toBeUndefined();
  }
  for (const [tool, args] of CALLS) {
    const viaNative = await native.call(`memory.${tool}`, args);
    expect(viaNative.ok, `${tool}: ${JSON.stringify(viaNative)}`).toBe(true);
    if (tool === "read_graph")
      expect(viaNative).toMatchObject({
        value: {
          entities: [{ name: "Ada" }, { name: "Zcp", observations: ["a gateway"] }],
          relations: [{ from: "Ada", to: "Zcp", relationType: "builds" }],
        },
      });
  }
  const emptied = await native.call("memory.read_graph", {});
  expect(emptied).toEqual({ ok: true, value: { entities: [], relations: [] } });
});

test("the gateway offers discovery and code mode like any registry: find a tool, run a program over it", async () => {
  const dir = scratchProject({
    "zcp.config.json": JSON.stringify({
      fromMcp: {
        server: { command: "node", args: [MEMORY], env: { MEMORY_FILE_PATH: "${ZCP_E2E_MEMORY}" } },
        name: "memory",
      },
    }),
  });
  fs.symlinkSync(path.join(REPO, "packages/server"), path.join(dir, "node_modules/@zcp/server"));
  expect(runZcp(dir, ["gen"]).status).toBe(0);
  const generated = (
    (await import(pathToFileURL(path.join(dir, "zcp.gen/index.js")).href)) as {
      default: GeneratedModule;
    }
  ).default;
  const code = createCodeRunner();
  cleanup.push(() => code.close());
  const session = createRuntime(generated, {
    exposure: { defaults: { native: { profile: "discover" } } },
    code,
  }).session();
  const found = await session.call("zcp.find_tools", { query: "create entities", limit: 1 });
  expect(found).toMatchObject({ ok: true, value: { added: 1 } });
  const program = `
    await tools.memory.create_entities({ entities: [{ name: "Kim", entityType: "person", observations: [] }] });
    return (await tools.memory.create_entities({ entities: [] }));
  `;
  expect(await session.call("zcp.run", { code: program })).toMatchObject({ ok: true });
  // A tool not found yet is not in the program's tools.
  expect(await session.call("zcp.run", { code: "return typeof tools.memory.read_graph" })).toEqual({
    ok: true,
    value: { value: "undefined" },
  });
  await session.close();
});
