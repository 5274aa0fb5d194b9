/**
 * A handle made by one caller is refused to every other caller, on every surface and era, and a
 * guessed id finds nothing: 2026-07-28 MCP callers are told apart by their verified
 * authorization (here an `identify` hook standing in for the server's authentication), anonymous
 * ones share an owner whose handle ids are unguessable; 2025 MCP sessions, native sessions and
 * stdio connections each own their handles.
 */
import { PassThrough } from "node:stream";
import { createRuntime } from "@zcp/runtime";
import { afterAll, describe, expect, it } from "vitest";
import faulty from "../../../fixtures/faulty/src/zcp.gen/index.js";
import { createFetchHandler, serveStdio } from "../src/index.js";
import { MCP_INITIALIZE, NATIVE_INITIALIZE } from "./faults/harness.js";
import { modernBody, modernHeaders, postTo } from "./modern-wire.js";

const runtime = createRuntime(faulty);
const handler = createFetchHandler(runtime, {
  native: true,
  // Who calls: the test's stand-in for a verified bearer token.
  identify: (request) => request.headers.get("x-test-user") ?? undefined,
});
afterAll(() => handler.close());

const MCP = "http://127.0.0.1/mcp";
const NATIVE = "http://127.0.0.1/zcp";

const send = (url: string, body: unknown, headers: { [name: string]: string } = {}) =>
  postTo(handler, url, body, headers);

/** A 2026-07-28 tools/call, as `user` (undefined: anonymous); its result. */
async function modernCall(name: string, args: object, user?: string) {
  const { data } = await send(MCP, modernBody("tools/call", { name, arguments: args }), {
    ...modernHeaders("tools/call", name),
    ...(user !== undefined ? { "x-test-user": user } : {}),
  });
  return (data as { result: { content: { type: string; text: string }[] } }).result;
}

const made = (result: { content: { text: string }[] }): string =>
  (JSON.parse(result.content[0]!.text) as { handle: string }).handle;

const read = (handle: string) => ({ handle, op: "read" });

describe("handles belong to their caller", () => {
  it("2026-07-28, authorized: short ids, refused to another user and to anonymous callers", async () => {
    const alice = made(await modernCall("bulk", { bytes: 600 }, "alice"));
    expect(alice).toMatch(/^#[A-Z][1-9][0-9]{0,3}$/);
    const own = await modernCall("zcp_handle", read(alice), "alice");
    expect(own.content[0]!.text).toBe(`{"value":"${"x".repeat(600)}"}`);
    for (const other of ["bob", undefined]) {
      const refused = await modernCall("zcp_handle", read(alice), other);
      expect(refused.content[0]!.text).toMatch(/^\{"ok":false,"error":"expired:#/);
    }
  });

  it("2026-07-28, anonymous: ids of 99.5 random bits, and a guessed one finds nothing", async () => {
    const first = made(await modernCall("bulk", { bytes: 600 }));
    const second = made(await modernCall("bulk", { bytes: 600 }));
    expect(first).toMatch(/^#[A-Z][1-9][0-9]{29}$/);
    expect(second).not.toBe(first);
    const guessed = `${first.slice(0, 2)}${"1".repeat(30)}`;
    const refused = await modernCall("zcp_handle", read(guessed));
    expect(refused.content[0]!.text).toBe(
      `{"ok":false,"error":"expired:${guessed}","hint":"${guessed} has expired or does not exist in this session: call the tool that made it again"}`,
    );
    // And an authorized caller cannot use an anonymous handle either.
    const other = await modernCall("zcp_handle", read(first), "alice");
    expect(other.content[0]!.text).toMatch(/"error":"expired:/);
  });

  it("a 2025 session, a native session and a stdio connection cannot read another's handle", async () => {
    const anonymous = made(await modernCall("bulk", { bytes: 600 }));
    const alice = made(await modernCall("bulk", { bytes: 600 }, "alice"));

    // A 2025 MCP session.
    const opened = await send(MCP, MCP_INITIALIZE);
    const sessionId = opened.response.headers.get("mcp-session-id")!;
    const legacy = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
    await send(MCP, { jsonrpc: "2.0", method: "notifications/initialized" }, legacy);
    for (const handle of [anonymous, alice]) {
      const { data } = await send(
        MCP,
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "zcp_handle", arguments: read(handle) },
        },
        legacy,
      );
      expect(JSON.stringify(data)).toContain(`expired:${handle}`);
    }

    // A native session.
    const native = await send(NATIVE, NATIVE_INITIALIZE);
    const token = native.response.headers.get("zcp-session-id")!;
    for (const handle of [anonymous, alice]) {
      const { data } = await send(
        NATIVE,
        { jsonrpc: "2.0", id: 3, method: "handles/count", params: { handle } },
        { "zcp-session-id": token },
      );
      expect(JSON.stringify(data)).toContain(`expired:${handle}`);
    }

    // A stdio connection of the same runtime, in the 2026-07-28 era.
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines: string[] = [];
    stdout.on("data", (chunk: Buffer) =>
      lines.push(...chunk.toString().split("\n").filter(Boolean)),
    );
    const served = await serveStdio(runtime, { stdin, stdout });
    for (const [index, handle] of [anonymous, alice].entries())
      stdin.write(
        `${JSON.stringify(modernBody("tools/call", { name: "zcp_handle", arguments: read(handle) }, index))}\n`,
      );
    stdin.end();
    await served.done;
    expect(lines).toHaveLength(2);
    for (const [index, handle] of [anonymous, alice].entries())
      expect(lines[index]).toContain(`expired:${handle}`);
  });
});
