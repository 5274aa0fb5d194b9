/**
 * Code mode's programs (programs.ts) do what the call script does: on each port, through the
 * runtime's session with `@zcp/code`'s runner (what `zcp-serve --code` serves), the script's
 * calls one by one and then its programs, each from the same state, give the same values: each
 * program returns exactly the values of its steps that the agent reads. Also with the calls
 * written through `zcp.call_tool`, over the official client on 2026-07-28 in a discover view.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createCodeRunner } from "@zcp/code";
import { createRuntime, type CallResult } from "@zcp/runtime";
import { connectModule, WHOLE } from "./connect.ts";
import { startFakeGitHub } from "./github/fake-api.ts";
import { programsOf } from "./programs.ts";
import { realServers } from "./servers.ts";

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-real-programs-"));
const github = await startFakeGitHub();
const code = createCodeRunner();
afterAll(async () => {
  await code.close();
  await github.close();
  fs.rmSync(TMP, { recursive: true, force: true });
});

/** A value's JSON, its times of day (everything stamps its resources with one) as `TIME`. */
const timeless = (json: string) =>
  JSON.parse(json.replace(/\d{1,2}:\d{2}:\d{2}( [AP]M)?/g, "TIME")) as unknown;

/** A call's value, or its content blocks (what a program reads of a tool that answers content). */
function valueOf(result: CallResult): unknown {
  if (!result.ok || !("value" in result || "content" in result))
    throw new Error(JSON.stringify(result));
  return timeless(JSON.stringify("value" in result ? result.value : result.content));
}

const DISCOVER = { exposure: { defaults: { mcp: { profile: "discover" } } } } as const;

describe.each(realServers(TMP, github))("the $name script's programs", (server) => {
  /** The values of the script's calls, one by one, from the start state. */
  async function scriptValues(): Promise<unknown[]> {
    server.reset();
    const session = createRuntime(server.port, { ...WHOLE, config: server.portConfig }).session();
    const values: unknown[] = [];
    for (const step of server.script.steps)
      values.push(valueOf(await session.call(step.tool, step.args)));
    server.reset();
    return values;
  }

  it("return the values the script's calls answer, and cover its steps in order", async () => {
    const { steps } = server.script;
    const values = await scriptValues();
    const session = createRuntime(server.port, {
      ...WHOLE,
      code,
      config: server.portConfig,
    }).session();
    const programs = programsOf(server.script);
    for (const program of programs) {
      const answer = valueOf(await session.call("zcp.run", { code: program.code }));
      expect(answer).toEqual({ value: program.returns.map((step) => values[step]) });
    }
    // Every step is called once, in order, and what a program returns is what the agent reads.
    const called = programs.flatMap((program) =>
      [...program.code.matchAll(/await tools(?:\.([\w]+)|\["([^"]+)"\])/g)].map(
        (match) => match[1] ?? match[2],
      ),
    );
    expect(called).toEqual(steps.map((step) => step.tool));
    expect(programs.flatMap((program) => program.returns)).toEqual(
      steps.flatMap((step, i) => (step.needs === "all" ? [i] : [])),
    );
  });

  it("through zcp.call_tool, as over MCP 2026-07-28 in a discover view, return the same", async () => {
    const values = await scriptValues();
    const connection = await connectModule(server.port, "2026", {
      ...WHOLE,
      ...DISCOVER,
      code,
      config: server.portConfig,
    });
    try {
      for (const program of programsOf(server.script, "call_tool")) {
        const answer = await connection.client.callTool({
          name: "zcp_run",
          arguments: { code: program.code },
        });
        const [block] = answer["content"] as { type: string; text: string }[];
        expect(timeless(block!.text)).toEqual({
          value: program.returns.map((step) => values[step]),
        });
      }
    } finally {
      await connection.close();
    }
  });
});
