/**
 * zcp gen from an MCP server over Streamable HTTP: `@modelcontextprotocol/server-everything`
 * started by the test in its `streamableHttp` mode on a free port, listed through a configured
 * `url` whose header holds a `${NAME}` template (kept as the template in the dispatch).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { REPO, runZcp, scratchProject } from "./helpers.js";

const fromServer = createRequire(path.join(REPO, "packages/server/package.json"));
const EVERYTHING = path.join(
  path.dirname(fromServer.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist/index.js",
);

let child: ChildProcess;
let url: string;

beforeAll(async () => {
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  child = spawn(process.execPath, [EVERYTHING, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let text = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes("listening on port")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`server-everything exited (${code}): ${text}`)));
  });
  url = `http://127.0.0.1:${port}/mcp`;
});

afterAll(() => {
  if (child.pid !== undefined) process.kill(child.pid);
});

test("a configured url with a ${NAME} header", () => {
  const dir = scratchProject({
    "zcp.config.json": JSON.stringify({
      fromMcp: { server: { url, headers: { Authorization: "Bearer ${ZCP_TEST_HTTP_TOKEN}" } } },
    }),
  });
  const missing = runZcp(dir, ["gen"]);
  expect(missing.status).toBe(1);
  expect(missing.stderr).toContain("error ZCP1704: the environment variable ZCP_TEST_HTTP_TOKEN");
  process.env.ZCP_TEST_HTTP_TOKEN = "t0ken";
  try {
    const run = runZcp(dir, ["gen"]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^zcp gen: \d+ tools/);
    const dispatch = fs.readFileSync(path.join(dir, "zcp.gen/dispatch.js"), "utf8");
    expect(dispatch).toContain(`url: ${JSON.stringify(url)}`);
    expect(dispatch).toContain('Authorization: "Bearer ${ZCP_TEST_HTTP_TOKEN}"');
    expect(dispatch).toContain(`server.call("echo", args, context)`);
    expect(runZcp(dir, ["gen", "--check"]).status).toBe(0);
  } finally {
    delete process.env.ZCP_TEST_HTTP_TOKEN;
  }
});

test("zcp gen --from-mcp <url>", () => {
  const dir = scratchProject({});
  const run = runZcp(dir, ["gen", "--from-mcp", url]);
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "zcp.gen/registry.json"), "utf8")) as {
    index: Record<string, string>;
  };
  expect(Object.keys(manifest.index)).toContain("mcp_servers_everything.echo");
});
