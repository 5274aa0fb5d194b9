/**
 * The ports answer as their originals: each server's call script (the one `pnpm bench:real`
 * runs), and a call each original refuses, sent through the official v2 SDK client to the npm
 * original over stdio and to the port served by zcp's MCP server; the answers are the same value
 * (JSON parsed where both are JSON, the text otherwise) and fail alike.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createRuntime } from "@zcp/runtime";
import { listAllTools, type McpTool } from "../bench-tokens/surfaces/mcp-listing.ts";
import { connectModule, connectOriginal, WHOLE, type Connection } from "./connect.ts";
import type { Step } from "./script.ts";
import { startFakeGitHub } from "./github/fake-api.ts";
import { realServers, type RealServer } from "./servers.ts";

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-real-ports-"));
const github = await startFakeGitHub();
afterAll(async () => {
  fs.rmSync(TMP, { recursive: true, force: true });
  await github.close();
});

/** A time of day (everything's resources are stamped with one) as `TIME`. */
const timeless = (text: string) => text.replace(/\d{1,2}:\d{2}:\d{2}( [AP]M)?/g, "TIME");

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

type Block = { type: string; text?: string; annotations?: unknown };

/**
 * What a result says: its content blocks, a text block by the value of its text (JSON parsed when
 * it is JSON), without content annotations (a port cannot annotate content yet).
 */
function said(answer: { readonly [key: string]: unknown }): unknown[] {
  const blocks = (answer["content"] ?? []) as Block[];
  return blocks.map(({ annotations: _, ...block }) =>
    block.type === "text"
      ? parsed(timeless(block.text ?? ""))
      : parsed(timeless(JSON.stringify(block))),
  );
}

async function answers(connection: Connection, steps: readonly Step[]) {
  try {
    const out: ({ isError: boolean; value: unknown[] } | { protocolError: string })[] = [];
    for (const step of steps) {
      // server-github (on SDK 1.0.1's low-level server) answers a failure as a JSON-RPC error.
      out.push(
        await connection.client.callTool({ name: step.tool, arguments: step.args }).then(
          (answer) => ({ isError: answer["isError"] === true, value: said(answer) }),
          (error: Error) => ({ protocolError: error.message }),
        ),
      );
    }
    return out;
  } finally {
    await connection.close();
  }
}

async function both(server: RealServer, steps: readonly Step[]) {
  server.reset();
  const original = await answers(await connectOriginal(server.original, "2025"), steps);
  server.reset();
  const port = await answers(
    await connectModule(server.port, "2025", { ...WHOLE, config: server.portConfig }),
    steps,
  );
  return { original, port };
}

const [memory, filesystem, everything, githubServer] = realServers(TMP, github) as [
  RealServer,
  RealServer,
  RealServer,
  RealServer,
];

describe.each([memory, filesystem, everything, githubServer])("the $name port", (server) => {
  it("answers the call script as the original does", async () => {
    const { original, port } = await both(server, server.script.steps);
    expect(original.filter((answer) => !("isError" in answer) || answer.isError)).toEqual([]);
    expect(port).toEqual(original);
  });
});

/**
 * An input schema as far as a port promises it: without `$schema`, `additionalProperties` and
 * the titles zcp gives named types, an empty `required`, and the order of keys, `required` and
 * `anyOf` members (zod and zcp write them in different orders).
 */
function schemaOf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(schemaOf);
  if (schema === null || typeof schema !== "object") return schema;
  const entries = Object.entries(schema as Record<string, unknown>)
    .filter(
      ([key, value]) =>
        !["$schema", "additionalProperties", "title"].includes(key) &&
        !(key === "required" && Array.isArray(value) && value.length === 0),
    )
    .map(([key, value]): [string, unknown] => {
      if (key === "required") return [key, [...(value as string[])].sort()];
      if (key === "anyOf")
        return [
          key,
          (value as unknown[])
            .map(schemaOf)
            .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
        ];
      return [key, schemaOf(value)];
    });
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

const ZCP_SERVE = fileURLToPath(
  new URL("../../packages/server/dist/bin/zcp-serve.js", import.meta.url),
);

/**
 * The port served by `zcp-serve` over stdio (tsx loads its TypeScript registry), as a host starts
 * it: its server configuration in a file named by `--config-file`.
 */
async function servedPort(server: RealServer, fixture: string): Promise<McpTool[]> {
  const client = new Client({ name: "ports-test", version: "0.1.0" });
  const registry = fileURLToPath(
    new URL(`../../fixtures/${fixture}/src/zcp.gen/index.ts`, import.meta.url),
  );
  const configFile = path.join(TMP, `${fixture}.config.json`);
  fs.writeFileSync(configFile, JSON.stringify(server.portConfig));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", ZCP_SERVE, "--registry", registry, "--config-file", configFile],
      env: { PATH: process.env["PATH"] ?? "" },
      stderr: "ignore",
    }),
  );
  try {
    return await listAllTools(client);
  } finally {
    await client.close();
  }
}

const entryOf = (tool: McpTool & { title?: string; annotations?: unknown }) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  annotations: tool.annotations,
  inputSchema: schemaOf(tool.inputSchema),
});

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

// Concurrent: each starts two processes, most of its time spent waiting for them.
describe.concurrent.each([
  [memory, "real-memory", 9],
  [filesystem, "real-filesystem", 14],
  [everything, "real-everything", 9],
  [githubServer, "real-github", 26],
] as const)("zcp-serve on the $1 port", (server, fixture, tools) => {
  it("lists the original's tools: names, titles, descriptions, hints and parameters", async ({
    expect,
  }) => {
    const connection = await connectOriginal(server.original, "2025");
    const original = await listAllTools(connection.client).finally(() => connection.close());
    // zcp's own tools (`zcp_handle`, listed since the ports' results may become handles) aside.
    const port = (await servedPort(server, fixture))
      .filter((tool) => !tool.name.startsWith("zcp_"))
      .map(entryOf)
      .sort(byName);
    expect(port).toHaveLength(tools);
    const names = new Set(port.map((tool) => tool.name));
    expect(port).toEqual(
      original
        .map(entryOf)
        .filter((tool) => names.has(tool.name))
        .sort(byName),
    );
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
    const message = "Entity with name Nobody not found";
    expect(original).toEqual([{ isError: true, value: [message] }]);
    expect(port).toEqual([
      { isError: true, value: [{ ok: false, error: "not_found", hint: message }] },
    ]);
  });

  it("github: an issue the API does not have fails with the original's message, as a tool error", async () => {
    const steps = [
      { tool: "get_issue", args: { owner: "acme", repo: "invoice-kit", issue_number: 999 } },
    ];
    const { original, port } = await both(githubServer, steps);
    const message = "Not Found: Resource not found: Not Found";
    // The original throws from its handler: the client gets a JSON-RPC error (-32603), which a
    // host shows the model as a failed call; the port answers a tool error the model can read.
    expect(original).toEqual([{ protocolError: `MCP error -32603: ${message}` }]);
    expect(port).toEqual([
      { isError: true, value: [{ ok: false, error: "not_found", hint: message }] },
    ]);
  });

  it("filesystem: a path outside the allowed folder fails with the original's message", async () => {
    const steps = [{ tool: "read_text_file", args: { path: "/etc/hostname" } }];
    const { original, port } = await both(filesystem, steps);
    const message = `Access denied - path outside allowed directories: /etc/hostname not in ${filesystem.original.args[0]}`;
    expect(original).toEqual([{ isError: true, value: [message] }]);
    expect(port).toEqual([
      { isError: true, value: [{ ok: false, error: "access_denied", hint: message }] },
    ]);
  });
});

describe("configuration", () => {
  it("filesystem: a port without its allowed directories is refused before it serves", () => {
    // The original refuses to start without a directory (or MCP roots); the port's runtime
    // checks its typed configuration (ToolContext<FilesystemConfig>) when it is created.
    expect(() => createRuntime(filesystem.port, {})).toThrow(
      "no server configuration was given, but the tools read one; the server configuration is invalid: missing:$.allowedDirectories (expected array)",
    );
    expect(() =>
      createRuntime(filesystem.port, { config: { allowedDirectories: "/tmp" } }),
    ).toThrow("the server configuration is invalid: invalid:$.allowedDirectories (expected array)");
  });
});

describe("content", () => {
  it("filesystem: read_media_file answers the original's image, audio and resource blocks", async () => {
    const project = filesystem.original.args[0]!;
    const media: Record<string, Buffer> = {
      "logo.png": Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"),
      "beep.wav": Buffer.from("RIFF\u0024\u0000\u0000\u0000WAVEfmt "),
      "data.bin": Buffer.from([0, 1, 2, 253, 254, 255]),
    };
    const withMedia: RealServer = {
      ...filesystem,
      reset: () => {
        filesystem.reset();
        for (const [name, bytes] of Object.entries(media))
          fs.writeFileSync(path.join(project, name), bytes);
      },
    };
    const steps = Object.keys(media).map((name) => ({
      tool: "read_media_file",
      args: { path: path.join(project, name) },
    }));
    const { original, port } = await both(withMedia, steps);
    expect(original.map((answer) => ("value" in answer ? answer.value : answer))).toEqual([
      [{ type: "image", data: media["logo.png"]!.toString("base64"), mimeType: "image/png" }],
      [{ type: "audio", data: media["beep.wav"]!.toString("base64"), mimeType: "audio/wav" }],
      [
        {
          type: "resource",
          resource: {
            uri: pathToFileURL(path.join(project, "data.bin")).href,
            mimeType: "application/octet-stream",
            blob: media["data.bin"]!.toString("base64"),
          },
        },
      ],
    ]);
    expect(port).toEqual(original);
  });
});
