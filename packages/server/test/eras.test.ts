/**
 * Both MCP eras from one `zcp-serve`, as the official v2 client sees them: in `legacy` mode (the
 * 2025 handshake), `auto` (a `server/discover` probe, which must find 2026-07-28) and pinned to
 * 2026-07-28, over stdio and Streamable HTTP, the client connects, lists, calls and gets a clean
 * tool error.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEATHER_TOOLS } from "./checks.js";
import { Processes, ROOT, type HttpServed } from "./faults/harness.js";

const WEATHER = "fixtures/weather/src/zcp.gen/index.ts";
const BIN = `${ROOT}packages/server/dist/bin/zcp-serve.js`;

type Mode = "legacy" | "auto" | { readonly pin: "2026-07-28" };
const MODES: readonly (readonly [string, Mode, "legacy" | "modern"])[] = [
  ["legacy", "legacy", "legacy"],
  ["auto", "auto", "modern"],
  ["pinned 2026-07-28", { pin: "2026-07-28" }, "modern"],
];

const processes = new Processes();
let http: HttpServed;

beforeAll(async () => {
  http = await processes.http(["--registry", WEATHER, "--isolation", "none"]);
}, 60_000);
afterAll(() => processes.cleanup());

function client(mode: Mode): Client {
  return new Client(
    { name: "eras-test", version: "1.0.0" },
    { versionNegotiation: { mode: mode as never } },
  );
}

/** What a client does on either transport: list, call, and a call the tool refuses. */
async function exercise(connected: Client, era: "legacy" | "modern"): Promise<void> {
  expect(connected.getProtocolEra()).toBe(era);
  const { tools } = await connected.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(WEATHER_TOOLS);
  const sum = await connected.callTool({ name: "math_subtract", arguments: { a: 5, b: 3 } });
  expect(sum.isError).toBeFalsy();
  expect(sum.content).toEqual([{ type: "text", text: "2" }]);
  const refused = await connected.callTool({ name: "math_subtract", arguments: { a: "five" } });
  expect(refused.isError).toBe(true);
  expect((refused.content as { text: string }[])[0]!.text).toMatch(
    /^\{"ok":false,"error":"invalid:/,
  );
}

describe.each(MODES)("the official v2 client, %s", (_label, mode, era) => {
  it(`over Streamable HTTP: connects in the ${era} era, lists, calls, gets a tool error`, async () => {
    const connected = client(mode);
    await connected.connect(new StreamableHTTPClientTransport(http.mcp));
    try {
      await exercise(connected, era);
    } finally {
      await connected.close();
    }
  });

  it(`over stdio: connects in the ${era} era, lists, calls, gets a tool error`, async () => {
    const connected = client(mode);
    await connected.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", BIN, "--registry", WEATHER, "--isolation", "none"],
        cwd: ROOT,
        stderr: "ignore",
      }),
    );
    try {
      await exercise(connected, era);
    } finally {
      await connected.close();
    }
  });
});
