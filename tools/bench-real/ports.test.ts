/**
 * The ports answer as their originals: each server's call script (the one `pnpm bench:real`
 * runs), and a call each original refuses, sent through the official v2 SDK client to the npm
 * original over stdio and to the port served by zcp's MCP server; the answers are the same value
 * (JSON parsed where both are JSON, the text otherwise) and fail alike.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { connectModule, connectOriginal, WHOLE, type Connection } from "./connect.ts";
import { seenText, type Step } from "./drive.ts";
import { realServers, type RealServer } from "./servers.ts";

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-real-ports-"));
afterAll(() => fs.rmSync(TMP, { recursive: true, force: true }));

const valueOf = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

async function answers(connection: Connection, steps: readonly Step[]) {
  try {
    const out: { isError: boolean; value: unknown }[] = [];
    for (const step of steps) {
      const answer = await connection.client.callTool({ name: step.tool, arguments: step.args });
      out.push({ isError: answer["isError"] === true, value: valueOf(seenText(answer)) });
    }
    return out;
  } finally {
    await connection.close();
  }
}

async function both(server: RealServer, steps: readonly Step[]) {
  Object.assign(process.env, server.portEnv);
  server.reset();
  const original = await answers(await connectOriginal(server.original, "2025"), steps);
  server.reset();
  const port = await answers(await connectModule(server.port, "2025", WHOLE), steps);
  return { original, port };
}

const [memory, filesystem] = realServers(TMP) as [RealServer, RealServer];

describe.each([memory, filesystem])("the $name port", (server) => {
  it("answers the call script as the original does", async () => {
    const { original, port } = await both(server, server.script.steps);
    expect(port).toEqual(original);
  });
});

describe("refusals", () => {
  it("memory: observations for an unknown entity fail with the original's message", async () => {
    const steps = [
      {
        tool: "add_observations",
        args: { observations: [{ entityName: "Nobody", contents: ["x"] }] },
      },
    ];
    const { original, port } = await both(memory, steps);
    expect(original[0]).toMatchObject({
      isError: true,
      value: "Entity with name Nobody not found",
    });
    expect(port[0]!.isError).toBe(true);
    expect(JSON.stringify(port[0]!.value)).toContain("Entity with name Nobody not found");
  });

  it("filesystem: a path outside the allowed folder fails with the original's message", async () => {
    const steps = [{ tool: "read_text_file", args: { path: "/etc/hostname" } }];
    const { original, port } = await both(filesystem, steps);
    const denied = "Access denied - path outside allowed directories: /etc/hostname not in";
    expect(original[0]!.isError).toBe(true);
    expect(String(original[0]!.value)).toContain(denied);
    expect(port[0]!.isError).toBe(true);
    expect(JSON.stringify(port[0]!.value)).toContain(denied);
  });
});
