/**
 * `zcp-serve --code-only` as the official v2 client sees it, in both eras (the 2025 handshake,
 * and pinned to 2026-07-28) over Streamable HTTP and stdio: the listing is `zcp_run` alone with
 * the view's API text in its description (exact, and byte-stable across 2026-07-28 requests), a
 * program calls two tools by the names that text declares, and a direct call of a tool is
 * refused with the exact error.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { codeTool, createRuntime, type CodeRunner } from "@zcp/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseServeArgs, USAGE } from "../src/cli/args.js";
import { Processes, ROOT, type HttpServed } from "./faults/harness.js";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";

const WEATHER = "fixtures/weather/src/zcp.gen/index.ts";
const BIN = `${ROOT}packages/server/dist/bin/zcp-serve.js`;
const FLAGS = ["--registry", WEATHER, "--isolation", "none", "--code-only"];

/** The weather view's API text, as the runtime renders it for a session with code mode on. */
const unused: CodeRunner = () => Promise.reject(new Error("not run"));
const API_TEXT = createRuntime(weather, { code: unused }).session().exposed.declarations();

/** `zcp_run`'s MCP entry (name, title, schema, hints: the runtime's), with the API text. */
const LISTING = [
  {
    ...codeTool.artifacts.mcp,
    description:
      "Run a short JavaScript program against this session's tools and return its result. The tools are callable only from a program, as `await tools.<name>(args)` with the names declared below; only the program's return value and its console output come back.\n\n" +
      API_TEXT,
  },
];

const REFUSED = {
  ok: false,
  error: "forbidden:math.subtract",
  hint: "this server runs its tools from programs only: call zcp_run with a program that does `await tools.math.subtract(args)`",
};

type Mode = "legacy" | { readonly pin: "2026-07-28" };
const MODES: readonly (readonly [string, Mode])[] = [
  ["legacy", "legacy"],
  ["pinned 2026-07-28", { pin: "2026-07-28" }],
];

const processes = new Processes();
let http: HttpServed;

beforeAll(async () => {
  http = await processes.http(FLAGS);
}, 60_000);
afterAll(() => processes.cleanup());

function client(mode: Mode): Client {
  return new Client(
    { name: "code-only-test", version: "1.0.0" },
    { versionNegotiation: { mode: mode as never } },
  );
}

function stdio(): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", BIN, ...FLAGS],
    cwd: ROOT,
    stderr: "ignore",
  });
}

/** What a host does: list, run a program that calls two tools, and call a tool directly. */
async function exercise(connected: Client): Promise<void> {
  const { tools } = await connected.listTools();
  expect(tools).toEqual(LISTING);
  const run = await connected.callTool({
    name: "zcp_run",
    arguments: {
      code: 'const d = await tools.math.subtract({ a: 5, b: 3 }); const w = await tools.weather.get_current({ city: "Beijing" }); return [d, w.city]',
    },
  });
  expect(run.isError).toBeFalsy();
  expect(run.structuredContent).toEqual({ value: [2, "Beijing"] });
  const direct = await connected.callTool({ name: "math_subtract", arguments: { a: 5, b: 3 } });
  expect(direct.isError).toBe(true);
  expect(direct.content).toEqual([{ type: "text", text: JSON.stringify(REFUSED) }]);
}

describe("zcp-serve --code-only's options", () => {
  it("turn code mode on too, and are in the usage text", () => {
    const parsed = parseServeArgs(["--registry", "r.js", "--code-only"], {});
    expect(parsed).toMatchObject({ args: { code: true, codeOnly: true } });
    expect(parseServeArgs(["--registry", "r.js", "--code"], {})).toMatchObject({
      args: { code: true, codeOnly: false },
    });
    expect(USAGE).toContain("--code-only");
    expect(API_TEXT).toContain("get_current(args: {");
    expect(LISTING[0]).toMatchObject({ name: "zcp_run", title: "Run a program" });
  });
});

describe.each(MODES)("zcp-serve --code-only, the official v2 client %s", (_label, mode) => {
  it("over Streamable HTTP: lists zcp_run alone, runs a program, refuses a direct call", async () => {
    const connected = client(mode);
    await connected.connect(new StreamableHTTPClientTransport(http.mcp));
    try {
      await exercise(connected);
    } finally {
      await connected.close();
    }
  });

  it("over stdio: lists zcp_run alone, runs a program, refuses a direct call", async () => {
    const connected = client(mode);
    await connected.connect(stdio());
    try {
      await exercise(connected);
    } finally {
      await connected.close();
    }
  });
});

describe("zcp-serve --code-only on 2026-07-28", () => {
  it("answers every request, of every client, the same listing bytes", async () => {
    const texts: string[] = [];
    for (let i = 0; i < 2; i++) {
      const connected = client({ pin: "2026-07-28" });
      await connected.connect(new StreamableHTTPClientTransport(http.mcp));
      try {
        for (let j = 0; j < 2; j++) texts.push(JSON.stringify(await connected.listTools()));
      } finally {
        await connected.close();
      }
    }
    expect(new Set(texts).size).toBe(1);
    expect(JSON.parse(texts[0]!)).toMatchObject({ tools: LISTING });
  });
});
