/**
 * zcp gen from a real MCP server: `@modelcontextprotocol/server-memory` over stdio (a
 * devDependency of packages/server, resolved from there). Generates into a scratch folder,
 * checks the definitions, planner lines and emitted dispatch, loads the JavaScript output with
 * plain node, passes `--check`, fails it after pointing the config at another upstream
 * (`server-everything`), and runs the two-command quick start (`--from-mcp`).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import type { Registry } from "@zcp/runtime/definition";
import { REPO, runZcp, scratchProject } from "./helpers.js";

const fromServer = createRequire(path.join(REPO, "packages/server/package.json"));
const entry = (pkg: string) =>
  path.join(path.dirname(fromServer.resolve(`${pkg}/package.json`)), "dist/index.js");
const MEMORY = entry("@modelcontextprotocol/server-memory");
const EVERYTHING = entry("@modelcontextprotocol/server-everything");

const MEMORY_TOOLS = [
  "add_observations",
  "create_entities",
  "create_relations",
  "delete_entities",
  "delete_observations",
  "delete_relations",
  "open_nodes",
  "read_graph",
  "search_nodes",
];

/** A scratch folder whose node_modules has @zcp/runtime and @zcp/server (what the output imports). */
function gatewayProject(files: Record<string, string>): string {
  const dir = scratchProject(files);
  fs.symlinkSync(path.join(REPO, "packages/server"), path.join(dir, "node_modules/@zcp/server"));
  return dir;
}

function config(server: object, extra: object = {}): string {
  return JSON.stringify({ fromMcp: { server, name: "memory", ...extra } }, null, 2);
}

describe("the memory server", () => {
  let dir: string;
  let registry: Registry;
  beforeAll(async () => {
    dir = gatewayProject({
      "zcp.config.json": config(
        { command: "node", args: [MEMORY], env: { MEMORY_FILE_PATH: "${ZCP_MEMORY_FILE}" } },
        { groups: ["memory"], tools: { read_graph: { output: "handle" } } },
      ),
    });
    const run = spawnSync(
      process.execPath,
      [path.join(REPO, "packages/gen/dist/bin/zcp.js"), "gen"],
      {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, ZCP_MEMORY_FILE: path.join(dir, "memory.jsonl") },
      },
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    ({ registry } = (await import(path.join(dir, "zcp.gen/registry.js"))) as {
      registry: Registry;
    });
  });

  test("definitions: aliases, schemas as listed, planner lines, overrides", () => {
    expect(registry.tools.map((tool) => tool.alias)).toEqual(
      MEMORY_TOOLS.map((tool) => `memory.${tool}`),
    );
    for (const tool of registry.tools) {
      expect(tool.source).toEqual({ file: "mcp:memory", export: tool.alias.slice(7) });
      expect(tool.groups).toEqual(["memory"]);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.inputSchema).not.toHaveProperty("$schema");
      expect(tool.planner.startsWith(`TOOL @${tool.id} ${tool.alias}(`)).toBe(true);
      expect(tool.outputMode).toBe(tool.alias === "memory.read_graph" ? "handle" : "auto");
    }
    const search = registry.tools.find((tool) => tool.alias === "memory.search_nodes")!;
    expect(search.inputSchema).toMatchObject({
      properties: { query: { type: "string" } },
      required: ["query"],
    });
    expect(search.plannerBare).toBe(`TOOL @${search.id} memory.search_nodes(query:str) -> auto`);
    expect(search.title).toBe("Search Nodes");
    // The server states destructiveHint and openWorldHint false: the gateway says so too.
    expect(search.flags).toEqual(["readonly", "!destructive", "idempotent", "!openworld"]);
  });

  test("the emitted dispatch forwards to the upstream and keeps ${NAME} templates", () => {
    const dispatch = fs.readFileSync(path.join(dir, "zcp.gen/dispatch.js"), "utf8");
    expect(dispatch).toContain(`import { upstream } from "@zcp/server/gateway";`);
    expect(dispatch).toContain(`MEMORY_FILE_PATH: "\${ZCP_MEMORY_FILE}"`);
    expect(dispatch).not.toContain(path.join(dir, "memory.jsonl"));
    expect(dispatch).toContain(`const server = upstream(upstreamServer, { name: "memory" });`);
    for (const tool of registry.tools)
      expect(dispatch).toContain(
        `${/^[a-z_$][\w$]*$/i.test(tool.id) ? tool.id : JSON.stringify(tool.id)}: (args, context) => server.call("${tool.source.export}", args, context),`,
      );
  });

  test("plain node loads the generated module, and its tools call the upstream", () => {
    const script = `
      import { createRuntime } from "@zcp/runtime";
      const { generated } = await import(${JSON.stringify(path.join(dir, "zcp.gen/index.js"))});
      const ids = generated.registry.tools.map((tool) => tool.id).sort();
      const session = createRuntime(generated).session();
      const created = await session.call("memory.create_entities", {
        entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }],
      });
      const found = await session.call("memory.search_nodes", { query: "Ada" });
      const invalid = await session.call("memory.search_nodes", {});
      process.stdout.write(JSON.stringify({
        tools: ids.length,
        dispatch: JSON.stringify(Object.keys(generated.dispatch).sort()) === JSON.stringify(ids),
        validators: Object.keys(generated.validators).length,
        created: created.ok,
        found: JSON.stringify(found.value ?? found).includes("wrote the first program"),
        invalid: invalid.ok,
      }));
      process.exit(0);`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, ZCP_MEMORY_FILE: path.join(dir, "memory.jsonl") },
    });
    // The upstream's own stderr ("… running on stdio") passes through the run time.
    expect(run.stderr).not.toMatch(/error/i);
    expect(JSON.parse(run.stdout)).toEqual({
      tools: 9,
      dispatch: true,
      validators: 9,
      created: true,
      found: true,
      invalid: false,
    });
    expect(fs.readFileSync(path.join(dir, "memory.jsonl"), "utf8")).toContain("Ada");
  });

  test("--check passes, then fails when the configured upstream's listing is another", () => {
    const env = { ZCP_MEMORY_FILE: path.join(dir, "memory.jsonl") };
    const check = spawnSync(
      process.execPath,
      [path.join(REPO, "packages/gen/dist/bin/zcp.js"), "gen", "--check"],
      { cwd: dir, encoding: "utf8", env: { ...process.env, ...env } },
    );
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
    // The same project, now pointing at server-everything: drift.
    fs.writeFileSync(
      path.join(dir, "zcp.config.json"),
      config({ command: "node", args: [EVERYTHING] }, { groups: ["memory"] }),
    );
    const drift = runZcp(dir, ["gen", "--check"]);
    expect(drift.status).toBe(1);
    expect(drift.stderr).toContain(
      "zcp - error ZCP1706: the upstream's tool listing changed since zcp gen wrote zcp.gen/registry.json: run zcp gen\n",
    );
  });
});

test("quick start: zcp gen --from-mcp <command line> without a configuration", () => {
  const dir = gatewayProject({});
  const run = runZcp(dir, ["gen", "--from-mcp", `node ${JSON.stringify(MEMORY)}`]);
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/^zcp gen: 9 tools, registry [0-9a-f]{12}; wrote dispatch\.js/);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "zcp.gen/registry.json"), "utf8")) as {
    index: Record<string, string>;
    upstream: { listingHash: string };
  };
  expect(Object.keys(manifest.index)).toEqual(MEMORY_TOOLS.map((tool) => `memory_server.${tool}`));
  const dispatch = fs.readFileSync(path.join(dir, "zcp.gen/dispatch.js"), "utf8");
  expect(dispatch).toContain(`// zcp gen 0.1.0 from --from-mcp\n`);
  expect(dispatch).toContain(`args: [\n        ${JSON.stringify(MEMORY)},\n    ],`);
  const check = runZcp(dir, ["gen", "--check", "--from-mcp", `node ${JSON.stringify(MEMORY)}`]);
  expect(check.status).toBe(0);
  expect(runZcp(dir, ["gen", "--from-mcp", "'unclosed"]).stderr).toContain(
    "zcp: --from-mcp takes a command line",
  );
});
