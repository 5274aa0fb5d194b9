/**
 * The 2026-07-28 era's HTTP details on real `zcp-serve` processes, over raw HTTP:
 *
 * - `Mcp-Param-*` headers checked against the arguments of a tool whose input schema declares
 *   `x-mcp-header` (a gateway tool, listed from a v2 upstream that declares them:
 *   param-upstream.ts), by mcp/param-headers.ts;
 * - what the SDK gives zcp: cancellation by closing the response stream, the per-request log
 *   level, `subscriptions/listen`, the answers to GET and DELETE without a session, `-32022`
 *   for an unknown version, `-32020` for standard headers that contradict the body, 404 for an
 *   unknown method.
 */
import { existsSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  FAULTY,
  LIMIT_FLAGS,
  post,
  Processes,
  sleep,
  warmUp,
  within,
  type HttpAnswer,
  type HttpServed,
} from "./faults/harness.js";
import conformance from "../../../fixtures/conformance/src/zcp.gen/index.js";
import { writeGatewayModule } from "./gateway-module.js";
import { MODERN, modern, modernBody, modernHeaders } from "./modern-wire.js";

const CONFORMANCE = "fixtures/conformance/src/zcp.gen/index.ts";
const PARAM_UPSTREAM = fileURLToPath(new URL("./param-upstream.ts", import.meta.url));
/** tsx's loader by its path: the upstream runs under zcp-serve, wherever `tsx` resolves. */
const TSX = fileURLToPath(new URL("../../../node_modules/tsx/dist/loader.mjs", import.meta.url));

/** An answer as status and parsed body, to compare whole. */
function whole(answer: HttpAnswer): { status: number; body: unknown } {
  return { status: answer.status, body: JSON.parse(answer.text) };
}

/** What a refusal of a header value that is not valid says. */
const INVALID =
  "the Mcp-Param-Region header is not a valid value (a character outside visible ASCII, or a =?base64?…?= value that is not Base64 of UTF-8)";

/** The 400 `-32020` refusal of request `id` for `header`, with `message`. */
function refusal(id: number | string, header: string, message: string) {
  return {
    status: 400,
    body: {
      jsonrpc: "2.0",
      id,
      error: { code: -32020, message: `Header mismatch: ${message}`, data: { header } },
    },
  };
}

describe("Mcp-Param-* headers of a tool that declares x-mcp-header", () => {
  const processes = new Processes();
  const ROUTE = "p_route";
  let served: HttpServed;

  beforeAll(async () => {
    const file = path.join(processes.tempDir("param-headers"), "gateway.js");
    await writeGatewayModule(
      { command: process.execPath, args: ["--import", TSX, PARAM_UPSTREAM] },
      { name: "p" },
      file,
    );
    served = await processes.http(["--registry", file]);
  }, 60_000);
  afterAll(() => processes.cleanup());

  /** A 2026-07-28 `tools/call` of the route tool with `args`, id `id`, and `headers` added. */
  const call = (args: object, headers: { [name: string]: string } = {}, id: number | string = 7) =>
    post(served.mcp, modernBody("tools/call", { name: ROUTE, arguments: args }, id), {
      ...modernHeaders("tools/call", ROUTE),
      ...headers,
    });

  /** What the route tool answers for `args`: its arguments, through the gateway. */
  const routed = (args: object) => ({
    content: [{ type: "text", text: JSON.stringify(args) }],
    resultType: "complete",
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "zcp", version: "0.1.0" } },
  });

  it("lists the tool with its x-mcp-header declarations", async () => {
    const listed = await modern(served.mcp, "tools/list");
    const tool = listed.messages[0].result.tools.find((t: { name: string }) => t.name === ROUTE);
    expect(tool.inputSchema.properties).toMatchObject({
      region: { type: "string", "x-mcp-header": "Region" },
      count: { type: "integer", "x-mcp-header": "Count" },
      dry: { type: "boolean", "x-mcp-header": "Dry" },
      target: { properties: { zone: { type: "string", "x-mcp-header": "Zone" } } },
    });
  });

  it("serves a call whose headers match the body: plain, Base64, numeric, nested, any case", async () => {
    const args = {
      region: "Zürich",
      count: 42,
      dry: false,
      target: { zone: "=?base64?literal?=" },
      query: "q",
    };
    const answer = await call(args, {
      "MCP-PARAM-REGION": `=?base64?${Buffer.from("Zürich").toString("base64")}?=`,
      "mcp-param-count": "42.0",
      "Mcp-Param-Dry": "false",
      // A literal value that looks like the sentinel travels encoded (the spec's example).
      "Mcp-Param-Zone": "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=",
    });
    expect(answer.status).toBe(200);
    expect(answer.messages).toEqual([{ jsonrpc: "2.0", id: 7, result: routed(args) }]);
  });

  it("expects no header for an absent or null value, and ignores headers it does not declare", async () => {
    const args = { region: "eu", count: null, query: "q" };
    const answer = await call(args, {
      "Mcp-Param-Region": "eu",
      // Not declared, or declared for a value the body does not carry: forwarded, ignored.
      "Mcp-Param-Tenant": "acme",
      "Mcp-Param-Zone": "anything",
    });
    expect(answer.status).toBe(200);
    // The call went through (what the upstream echoes of a null is the gateway's business).
    expect(answer.messages[0]).toMatchObject({ id: 7, result: { resultType: "complete" } });
    expect(answer.messages[0].result.isError).toBeUndefined();
  });

  it("refuses a missing header for a value in the body, echoing the request id", async () => {
    expect(whole(await call({ region: "eu", query: "q" }, {}, "r-1"))).toEqual(
      refusal(
        "r-1",
        "Mcp-Param-Region",
        "the Mcp-Param-Region header is absent, but the body carries arguments.region",
      ),
    );
    expect(
      whole(
        await call(
          { region: "eu", target: { zone: "z1" }, query: "q" },
          { "Mcp-Param-Region": "eu" },
        ),
      ),
    ).toEqual(
      refusal(
        7,
        "Mcp-Param-Zone",
        "the Mcp-Param-Zone header is absent, but the body carries arguments.target.zone",
      ),
    );
  });

  it("refuses a header that contradicts the body", async () => {
    expect(whole(await call({ region: "eu", query: "q" }, { "Mcp-Param-Region": "us" }))).toEqual(
      refusal(
        7,
        "Mcp-Param-Region",
        'Mcp-Param-Region header value "us" does not match body value "eu" (arguments.region)',
      ),
    );
    const numbers = { region: "eu", count: 42, query: "q" };
    expect(
      whole(await call(numbers, { "Mcp-Param-Region": "eu", "Mcp-Param-Count": "0x2a" })),
    ).toEqual(
      refusal(
        7,
        "Mcp-Param-Count",
        'Mcp-Param-Count header value "0x2a" does not match body value 42 (arguments.count)',
      ),
    );
    const flags = { region: "eu", dry: true, query: "q" };
    expect(whole(await call(flags, { "Mcp-Param-Region": "eu", "Mcp-Param-Dry": "TRUE" }))).toEqual(
      refusal(
        7,
        "Mcp-Param-Dry",
        'Mcp-Param-Dry header value "TRUE" does not match body value true (arguments.dry)',
      ),
    );
    // The sentinel is decoded, so the literal text of one is not the value it encodes.
    const encoded = `=?base64?${Buffer.from("eu").toString("base64")}?=`;
    expect(
      whole(await call({ region: encoded, query: "q" }, { "Mcp-Param-Region": encoded })),
    ).toEqual(
      refusal(
        7,
        "Mcp-Param-Region",
        `Mcp-Param-Region header value "eu" does not match body value ${JSON.stringify(encoded)} (arguments.region)`,
      ),
    );
  });

  it("refuses a header value with a byte outside visible ASCII, sent raw", async () => {
    const body = JSON.stringify(
      modernBody("tools/call", { name: ROUTE, arguments: { region: "Zürich", query: "q" } }, 7),
    );
    const head = [
      `POST ${served.mcp.pathname} HTTP/1.1`,
      `host: ${served.mcp.host}`,
      "content-type: application/json",
      "connection: close",
      `content-length: ${Buffer.byteLength(body)}`,
      ...Object.entries(modernHeaders("tools/call", ROUTE)).map(
        ([name, value]) => `${name}: ${value}`,
      ),
      // ISO-8859-1 bytes on the wire (obs-text): HTTP parsers pass them, the spec does not.
      "Mcp-Param-Region: Zürich",
    ];
    const socket = net.connect(Number(served.mcp.port), served.mcp.hostname);
    socket.end(
      Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "latin1"), Buffer.from(body)]),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of socket) chunks.push(chunk as Buffer);
    const [status, answer] = /^HTTP\/1\.1 (\d+)[^]*?\r\n\r\n([^]*)$/
      .exec(Buffer.concat(chunks).toString())!
      .slice(1);
    expect({ status: Number(status), body: JSON.parse(answer!) }).toEqual(
      refusal(7, "Mcp-Param-Region", INVALID),
    );
  });

  it("refuses a header value that is not valid: a bad Base64 sentinel", async () => {
    for (const value of ["=?base64?ZXU?=", "=?base64?#$%^?=", "=?base64?/w==?="])
      expect(
        whole(await call({ region: "eu", query: "q" }, { "Mcp-Param-Region": value })),
        value,
      ).toEqual(refusal(7, "Mcp-Param-Region", INVALID));
  });
});

describe("the 2026-07-28 era on zcp-serve: what the SDK gives", () => {
  const processes = new Processes();
  afterEach(() => processes.cleanup());

  /** `zcp-serve` on the faulty registry, long limits (only a cancel ends a call quickly), warm. */
  async function faulty(...flags: string[]) {
    const dir = processes.tempDir("modern-cancel");
    const served = await processes.http(
      [
        "--registry",
        FAULTY,
        ...LIMIT_FLAGS,
        "--timeout-ms",
        "30000",
        "--grace-ms",
        "10000",
        ...flags,
      ],
      { env: { FAULTY_DIR: dir } },
    );
    await warmUp(served.native);
    return { served, written: (name: string) => existsSync(path.join(dir, "written", name)) };
  }

  /** A 2026-07-28 `tools/call` the client gives up on (aborts its fetch) after `ms`. */
  async function abandon(url: URL, name: string, args: object, ms: number): Promise<void> {
    const controller = new AbortController();
    const pending = post(
      url,
      modernBody("tools/call", { name, arguments: args }),
      modernHeaders("tools/call", name),
      controller.signal,
    ).catch((error: unknown) => error);
    await sleep(ms);
    controller.abort();
    expect(await pending, "the abandoned call's fetch").toMatchObject({ name: "AbortError" });
  }

  it("closing the response stream cancels the call: the tool's signal aborts", async () => {
    const { served, written } = await faulty();
    // The control: a call that is not abandoned lands.
    const kept = await modern(served.mcp, "tools/call", {
      name: "careful_write",
      arguments: { name: "kept.txt", ms: 300 },
    });
    expect(kept.messages[0]?.result?.isError, kept.text).toBeUndefined();
    expect(written("kept.txt")).toBe(true);

    await abandon(served.mcp, "careful_write", { name: "modern.txt", ms: 400 }, 100);
    await sleep(700);
    expect(written("modern.txt"), "the abandoned write landed").toBe(false);
  });

  it("closing the response stream frees the call's slot: the next call is not busy", async () => {
    // One call at a time, and 500 ms for a cancelled call to end before its worker is stopped
    // (hang never looks at its signal); the time limit (30 s) is not what frees it.
    const { served } = await faulty("--max-concurrent", "1", "--grace-ms", "500");
    const echo = async () =>
      (await modern(served.mcp, "tools/call", { name: "echo", arguments: {} })).messages[0]?.result;
    const running = new AbortController();
    const hanging = post(
      served.mcp,
      modernBody("tools/call", { name: "hang", arguments: {} }),
      modernHeaders("tools/call", "hang"),
      running.signal,
    ).catch((error: unknown) => error);
    await sleep(200);
    expect((await echo())?.content?.[0]?.text, "a call while hang runs").toMatch(/"error":"busy"/);
    running.abort();
    await hanging;
    const abandoned = performance.now();
    let answer = await echo();
    while (answer?.isError && performance.now() - abandoned < 3000) {
      await sleep(100);
      answer = await echo();
    }
    expect(answer, "a call after hang was abandoned (3 s on)").toMatchObject({
      content: [{ type: "text" }],
    });
    expect(answer?.isError, JSON.stringify(answer)).toBeUndefined();
  });

  describe("on the conformance registry", () => {
    const shared = new Processes();
    let served: HttpServed;
    beforeAll(async () => {
      served = await shared.http(["--registry", CONFORMANCE]);
    }, 60_000);
    afterAll(() => shared.cleanup());

    const LOGGING = "test_tool_with_logging";
    /** A `tools/call` of the logging tool, `level` in its `_meta` (none: no key). */
    async function logged(level?: string): Promise<HttpAnswer> {
      const body = modernBody("tools/call", { name: LOGGING, arguments: {} }) as {
        params: { _meta: { [key: string]: unknown } };
      };
      if (level !== undefined) body.params._meta["io.modelcontextprotocol/logLevel"] = level;
      return post(served.mcp, body, modernHeaders("tools/call", LOGGING));
    }
    const line = (data: string) => ({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level: "info", logger: LOGGING, data },
    });

    it("per-request log level: notifications/message at or above it, none without the key", async () => {
      const debug = await logged("debug");
      expect(debug.headers.get("content-type")).toBe("text/event-stream");
      expect(debug.messages.slice(0, 3)).toEqual([
        line("Tool execution started"),
        line("Tool processing data"),
        line("Tool execution completed"),
      ]);
      expect(debug.messages[3]?.result?.content).toEqual([
        { type: "text", text: "Tool with logging executed successfully" },
      ]);
      for (const answer of [await logged("warning"), await logged()]) {
        expect(answer.messages.map((message) => message.method ?? "result")).toEqual(["result"]);
      }
    });

    it("subscriptions/listen opens a stream whose first message is the ack", async () => {
      const controller = new AbortController();
      const response = await fetch(served.mcp, {
        method: "POST",
        headers: { "content-type": "application/json", ...modernHeaders("subscriptions/listen") },
        body: JSON.stringify(
          modernBody(
            "subscriptions/listen",
            {
              notifications: {
                toolsListChanged: true,
                resourcesListChanged: true,
                resourceSubscriptions: ["zcp://handle/%23T1"],
              },
            },
            9,
          ),
        ),
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      const reader = response.body!.getReader();
      let text = "";
      while (!text.includes("\n\n")) {
        const { value, done } = await within(reader.read(), 5000, "the listen stream's ack");
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      const data = /^data: (.*)$/m.exec(text)?.[1];
      // Only what the server can deliver is honoured: nothing, since no listing changes while
      // the process runs (the 2026-07-28 servers do not offer tools.listChanged).
      expect(JSON.parse(data!)).toEqual({
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: {
          notifications: {},
          _meta: { "io.modelcontextprotocol/subscriptionId": 9 },
        },
      });
      controller.abort();
    });

    it("GET and DELETE without a session: 400, the session header is required (2025 era)", async () => {
      for (const method of ["GET", "DELETE"]) {
        const response = await fetch(served.mcp, {
          method,
          headers: { accept: "text/event-stream", "mcp-protocol-version": MODERN },
        });
        expect({ status: response.status, body: await response.json() }, method).toEqual({
          status: 400,
          body: {
            jsonrpc: "2.0",
            error: { code: -32000, message: "Bad Request: the mcp-session-id header is required" },
            id: null,
          },
        });
      }
    });

    it("a 2026-07-28 request ignores Mcp-Session-Id and Last-Event-ID, and mints no session", async () => {
      const answer = await modern(
        served.mcp,
        "tools/list",
        {},
        { "mcp-session-id": "no-such-session", "last-event-id": "42" },
      );
      expect(answer.status).toBe(200);
      expect(answer.messages[0]?.result?.tools?.length).toBe(conformance.registry.tools.length);
      expect(answer.headers.get("mcp-session-id")).toBeNull();
    });

    it("-32022 with data.supported for a version the server does not serve", async () => {
      const body = modernBody("tools/list") as { params: { _meta: { [key: string]: unknown } } };
      body.params._meta["io.modelcontextprotocol/protocolVersion"] = "2099-01-01";
      const answer = await post(served.mcp, body, {
        ...modernHeaders("tools/list"),
        "mcp-protocol-version": "2099-01-01",
      });
      expect(whole(answer)).toEqual({
        status: 400,
        body: {
          jsonrpc: "2.0",
          id: 1,
          error: {
            code: -32022,
            message: "Unsupported protocol version: 2099-01-01",
            data: { supported: [MODERN], requested: "2099-01-01" },
          },
        },
      });
    });

    /** The SDK's 400 `-32020` for request 1: `header` is what the header said. */
    const disagree = (header: string, body: string) => ({
      status: 400,
      body: {
        jsonrpc: "2.0",
        id: 1,
        error: {
          code: -32020,
          message: `Bad Request: the request headers and body disagree: ${body}`,
          data: { mismatch: { header, body } },
        },
      },
    });

    it("-32020 for an MCP-Protocol-Version, Mcp-Method or Mcp-Name that contradicts the body", async () => {
      const call = { name: "test_simple_text", arguments: {} };
      expect(
        whole(await modern(served.mcp, "tools/list", {}, { "mcp-protocol-version": "2099-01-01" })),
      ).toEqual(
        disagree(
          "2099-01-01",
          "the body envelope names protocol version 2026-07-28 but the MCP-Protocol-Version header names 2099-01-01",
        ),
      );
      expect(
        whole(await modern(served.mcp, "tools/call", call, { "mcp-method": "tools/list" })),
      ).toEqual(
        disagree(
          "tools/list",
          "the body names method tools/call but the Mcp-Method header names tools/list",
        ),
      );
      expect(
        whole(await modern(served.mcp, "tools/call", call, { "mcp-name": "test_error_handling" })),
      ).toEqual(
        disagree(
          "test_error_handling",
          'the body carries params.name="test_simple_text" but the Mcp-Name header names "test_error_handling"',
        ),
      );
      // A name in the Base64 sentinel is decoded first.
      const encoded = `=?base64?${Buffer.from("test_simple_text").toString("base64")}?=`;
      const served64 = await modern(served.mcp, "tools/call", call, { "mcp-name": encoded });
      expect(served64.status).toBe(200);
      expect(served64.messages[0]?.result?.isError).toBeUndefined();
    });

    it("404 with -32601 for a method the server does not implement (and the removed ping)", async () => {
      for (const method of ["foo/bar", "ping"])
        expect(whole(await modern(served.mcp, method)), method).toEqual({
          status: 404,
          body: { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } },
        });
    });
  });
});
