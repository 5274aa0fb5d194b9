/**
 * Issue 30 on the server: `zcp-serve --config-file` (good, bad, missing, not JSON, too large),
 * what a thrown error tells the model, and `ctx.caller`, through the official v2 client in both
 * MCP eras (HTTP and stdio), the native client, and `serveHttp` with the embedding server's
 * `identify`. The tools are the kitchen-sink fixture's `notes.*` and `whoami`, run in worker
 * threads (zcp-serve's default isolation) or in process.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { connectHttp } from "@zcp/client";
import { createRuntime } from "@zcp/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import { serveHttp } from "../src/node/index.js";
import { Processes, ROOT, type HttpServed } from "./faults/harness.js";

const KITCHEN = "fixtures/kitchen-sink/src/zcp.gen/index.ts";
const BIN = `${ROOT}packages/server/dist/bin/zcp-serve.js`;

type Mode = "legacy" | "auto" | { readonly pin: "2026-07-28" };
const MODES: readonly (readonly [string, Mode])[] = [
  ["legacy", "legacy"],
  ["auto", "auto"],
  ["pinned 2026-07-28", { pin: "2026-07-28" }],
];

const processes = new Processes();
let dir: string;
let goodConfig: string;
let http: HttpServed;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "zcp-config-"));
  writeFileSync(path.join(dir, "todo.txt"), "buy milk");
  goodConfig = path.join(dir, "good.json");
  writeFileSync(goodConfig, JSON.stringify({ notesDir: dir, greeting: "Note: " }));
  http = await processes.http([
    "--registry",
    KITCHEN,
    "--config-file",
    goodConfig,
    "--scopes",
    "notes:read",
  ]);
}, 60_000);
afterAll(async () => {
  await processes.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

function client(mode: Mode): Client {
  return new Client(
    { name: "config-test", version: "1.0.0" },
    { versionNegotiation: { mode: mode as never } },
  );
}

/** The text of a call's one content block, and whether it is an error. */
async function call(connected: Client, name: string, args: object = {}) {
  const result = await connected.callTool({ name, arguments: args as never });
  return {
    isError: result.isError === true,
    text: (result.content as { text: string }[])[0]!.text,
  };
}

/** What every client sees of the configured server, in either era. */
async function exercise(connected: Client): Promise<void> {
  expect(await call(connected, "notes_read", { file: "todo.txt" })).toEqual({
    isError: false,
    text: "Note: buy milk",
  });
  expect(await call(connected, "notes_lookup", { name: "nope" })).toEqual({
    isError: true,
    text: '{"ok":false,"error":"not_found","hint":"no note named \\"nope\\""}',
  });
  const missing = await call(connected, "notes_read", { file: "absent.txt" });
  expect(missing).toEqual({
    isError: true,
    text: '{"ok":false,"error":"exec:error","hint":"ENOENT: no such file or directory (open)"}',
  });
  expect(await call(connected, "notes_lookup", { name: "broken" })).toEqual({
    isError: true,
    text: '{"ok":false,"error":"exec:error","hint":"the tool failed; the details are in the server\'s log"}',
  });
  expect(JSON.parse((await call(connected, "whoami")).text)).toEqual({
    subject: null,
    scopes: ["notes:read"],
  });
}

describe.each(MODES)("zcp-serve --config-file, the official v2 client, %s", (_label, mode) => {
  it("over Streamable HTTP: configuration, declared and system errors, the caller", async () => {
    const connected = client(mode);
    await connected.connect(new StreamableHTTPClientTransport(http.mcp));
    try {
      await exercise(connected);
    } finally {
      await connected.close();
    }
  });

  it("over stdio, in process (--isolation none)", async () => {
    const connected = client(mode);
    await connected.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", BIN, "--registry", KITCHEN, "--isolation", "none"].concat([
          "--config-file",
          goodConfig,
          "--scopes",
          "notes:read",
        ]),
        cwd: ROOT,
        stderr: "ignore",
      }),
    );
    try {
      await exercise(connected);
    } finally {
      await connected.close();
    }
  });
});

describe("the native surface", () => {
  it("gives the tools the configuration and the caller", async () => {
    const native = connectHttp(http.native);
    try {
      await native.initialize();
      expect(await native.call("notes.read", { file: "todo.txt" })).toEqual({
        ok: true,
        value: "Note: buy milk",
      });
      expect(await native.call("whoami", {})).toEqual({
        ok: true,
        value: { subject: null, scopes: ["notes:read"] },
      });
    } finally {
      await native.close();
    }
  });
});

describe("zcp-serve refuses to start with a configuration the tools cannot read", () => {
  const refused: [string, string | Buffer, string][] = [
    [
      "bad.json",
      JSON.stringify({ notesDir: 5 }),
      "the server configuration is invalid: invalid:$.notesDir (expected string)",
    ],
    [
      "unknown.json",
      JSON.stringify({ notesdir: "x" }),
      "the server configuration is invalid: invalid:$.notesdir (unknown property; expected: notesDir, greeting)",
    ],
    ["broken.json", "{ notesDir:", "not JSON ("],
    ["folder", "", "is a folder"],
    ["large.json", Buffer.alloc(1024 * 1024 + 1, 32), "larger than 1048576 bytes"],
  ];
  for (const [name, content, why] of refused) {
    it(`${name}: exits 2 naming the file and what is wrong`, async () => {
      const file = path.join(dir, name);
      if (name === "folder") mkdirSync(file);
      else writeFileSync(file, content);
      const served = processes.spawn(["--registry", KITCHEN, "--config-file", file]);
      expect((await served.exited).code).toBe(2);
      expect(served.stderr()).toContain(`zcp-serve: --config-file ${file}`);
      expect(served.stderr()).toContain(why);
    });
  }

  it("a file that is not there", async () => {
    const served = processes.spawn(["--registry", KITCHEN, "--config-file", "nope.json"]);
    expect((await served.exited).code).toBe(2);
    expect(served.stderr()).toContain("zcp-serve: --config-file nope.json: no such file");
  });
});

describe("serveHttp with the embedding server's identify", () => {
  it("gives the tools the verified subject, in both eras", async () => {
    const { server, url } = await serveHttp(createRuntime(kitchen), {
      identify: (request) => request.headers.get("x-user") ?? undefined,
    });
    try {
      for (const [, mode] of MODES) {
        const connected = client(mode);
        await connected.connect(
          new StreamableHTTPClientTransport(url, { requestInit: { headers: { "x-user": "ann" } } }),
        );
        try {
          expect(JSON.parse((await call(connected, "whoami")).text)).toEqual({
            subject: "ann",
            scopes: [],
          });
        } finally {
          await connected.close();
        }
      }
    } finally {
      await server.shutdown(0);
    }
  });
});
