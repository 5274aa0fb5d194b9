/**
 * The add-ons on the user's path, after the production install (which checks the project's exact
 * dependencies): `@zcp/agent` with the `openai` SDK (a compiled script of the project runs its
 * tools through `runAgent` against a loopback fake of the Responses API), and `@zcp/redis`
 * (`npx zcp-serve --transport http --store redis://…` on a real redis-server, skipped with the
 * reason where none can run and CI is not set).
 */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createClient } from "@redis/client";
import { expect, it } from "vitest";
import { startFake } from "../../packages/agent/test/fake/server.js";
import { functionCall, message, response } from "../../packages/agent/test/fake/openai.js";
import { redisAvailable, startRedis } from "../redis-server.js";
import { type Figures, type PackageDir, TOOL_NAMES } from "./helpers.js";
import { NPM_FLAGS, ok, ownStderr, run, USER_ENV } from "./packing.js";

/** The OpenAI SDK a user of @zcp/agent/openai installs beside it (its optional peer). */
const OPENAI_SDK = "openai@6.49.0";
/** Null when a real redis-server can run here, else why not (printed; under CI it throws instead). */
const REDIS_MISSING = redisAvailable();

// ---------------------------------------------------------------------------------------------
// @zcp/agent: a user's script, and the loopback fake of the OpenAI Responses API it talks to

/** Written by the test: the project's own registry served to a model through @zcp/agent/openai's loop. */
const AGENT_SCRIPT = `import OpenAI from "openai";
import { createRuntime } from "@zcp/runtime";
import { runAgent } from "@zcp/agent/openai";
import generated from "./zcp.gen/index.js";

const client = new OpenAI({ baseURL: process.argv[2], apiKey: "not-needed-with-the-fake" });
const result = await runAgent({
  client,
  session: createRuntime(generated).session(),
  model: "gpt-test",
  instructions: "You price orders with the tools you have.",
  input: "What do two teas at 350 cents cost with a 10% discount?",
});
for (const outcome of result.outcomes)
  console.log(\`\${outcome.call.name} \${outcome.call.arguments} -> \${outcome.text}\`);
console.log(\`answer (\${result.stop}, \${result.turns} turns): \${result.text}\`);
console.log(\`usage: \${JSON.stringify(result.usage)}; last response \${result.lastResponseId}\`);
`;

// ---------------------------------------------------------------------------------------------
// @zcp/redis: what the test reads from Redis itself

/** `KEYS <pattern>` on the Redis at `url`, sorted. */
async function redisKeys(url: string, pattern: string): Promise<string[]> {
  const client = createClient({ url });
  await client.connect();
  try {
    return (await client.keys(pattern)).sort();
  } finally {
    await client.close();
  }
}

/** What the add-ons take from the steps before them: the project, its figures, the tarballs. */
interface UserProject {
  project: string;
  figures: Figures;
  tarball: (dir: PackageDir) => string;
}

/** The add-ons' tests, registered in the describe of user-path.test.ts after its own. */
export function addOnTests(user: () => UserProject): void {
  it("npm install @zcp/agent openai: a script runs the project's tools through runAgent of @zcp/agent/openai", async () => {
    const { project, figures, tarball } = user();
    const install = await ok("npm", ["install", ...NPM_FLAGS, tarball("agent"), OPENAI_SDK], {
      cwd: project,
    });
    figures.steps[`npm install @zcp/agent ${OPENAI_SDK}`] = install.ms;
    // A TypeScript file of the project: tsc checks @zcp/agent's declarations against the real SDK's (skipLibCheck off).
    await writeFile(path.join(project, "src/agent.ts"), AGENT_SCRIPT);
    const tsc = await run("npx", ["tsc"], { cwd: project });
    expect({ code: tsc.code, output: tsc.stdout + ownStderr(tsc) }).toEqual({
      code: 0,
      output: "",
    });
    const fake = await startFake();
    fake.script(
      "/v1/responses",
      {
        json: response(
          [
            functionCall(
              "call_1",
              "orders_total",
              '{"lines":[{"sku":"tea","qty":2,"price":350}],"discount":10}',
            ),
          ],
          "resp_1",
        ),
      },
      { json: response([message("630 cents for both.")], "resp_2") },
    );
    try {
      const ran = await ok("node", ["dist/agent.js", `${fake.url}/v1`], {
        cwd: project,
        timeoutMs: 60_000,
      });
      figures.steps["node dist/agent.js (runAgent, 2 turns on a fake OpenAI)"] = ran.ms;
      expect(ownStderr(ran)).toBe("");
      expect(ran.stdout.trim().split("\n")).toEqual([
        'orders_total {"lines":[{"sku":"tea","qty":2,"price":350}],"discount":10} -> {"ok":true,"value":{"total":630,"count":1}}',
        "answer (answer, 2 turns): 630 cents for both.",
        'usage: {"inputTokens":20,"outputTokens":10,"cachedInputTokens":0}; last response resp_2',
      ]);
      // The wire: the project's three tools in the first request, the call's output with previous_response_id in the second.
      expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
        "POST /v1/responses",
        "POST /v1/responses",
      ]);
      const [first, second] = fake.bodies("/v1/responses") as Record<string, unknown>[];
      expect(first).toMatchObject({ model: "gpt-test" });
      expect(
        (first!.tools as { type: string; name: string }[]).map((tool) => tool.name).sort(),
      ).toEqual(TOOL_NAMES);
      expect(second).toMatchObject({
        previous_response_id: "resp_1",
        input: [
          {
            type: "function_call_output",
            call_id: "call_1",
            output: '{"ok":true,"value":{"total":630,"count":1}}',
          },
        ],
      });
    } finally {
      await fake.close();
    }
  }, 180_000);

  it.skipIf(REDIS_MISSING !== null)(
    "npm install @zcp/redis: npx zcp-serve --store redis://… serves over HTTP with its sessions in a real redis-server",
    async () => {
      const { project, figures, tarball } = user();
      const install = await ok("npm", ["install", ...NPM_FLAGS, tarball("redis")], {
        cwd: project,
      });
      figures.steps["npm install @zcp/redis"] = install.ms;
      const redis = await startRedis();
      const started = performance.now();
      // Its own process group: npx runs the bin in a child, and the group is stopped together.
      const child = spawn(
        "npx",
        [
          "zcp-serve",
          "--registry",
          "dist/zcp.gen/index.js",
          "--transport",
          "http",
          "--port",
          "0",
          "--store",
          redis.url,
        ],
        { cwd: project, env: USER_ENV, detached: true, stdio: ["ignore", "pipe", "pipe"] },
      );
      let stderr = "";
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      try {
        // Port 0: the port the OS chose is in the log line.
        const url = await new Promise<URL>((resolve, reject) => {
          child.stderr.on("data", (chunk: Buffer) => {
            stderr += chunk.toString("utf8");
            const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
            if (match) resolve(new URL(match[1]!));
          });
          void exited.then((code) => reject(new Error(`zcp-serve exited (${code}): ${stderr}`)));
        });
        const ready = await fetch(new URL("/readyz", url));
        expect({ status: ready.status, body: await ready.json() }).toEqual({
          status: 200,
          body: { status: "ready" },
        });
        const client = new Client({ name: "user-path", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(url));
        try {
          expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
            TOOL_NAMES,
          );
          const total = (await client.callTool({
            name: "orders_total",
            arguments: { lines: [{ sku: "tea", qty: 2, price: 350 }], discount: 10 },
          })) as CallToolResult;
          expect(total.structuredContent).toEqual({ total: 630, count: 1 });
          // The session's state is in Redis, not in the process.
          expect(await redisKeys(redis.url, "zcp:session:*")).toHaveLength(1);
        } finally {
          await client.close();
        }
        figures.steps["zcp-serve --store redis://…: ready, MCP session over HTTP"] = Math.round(
          performance.now() - started,
        );
      } catch (error) {
        (error as Error).message += `\n--- zcp-serve stderr\n${stderr}`;
        throw error;
      } finally {
        if (child.exitCode === null && child.signalCode === null)
          process.kill(-child.pid!, "SIGTERM");
        await exited;
        await redis.stop();
      }
    },
    180_000,
  );
}
