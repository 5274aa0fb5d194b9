/**
 * Issue 12, item 2: a line over the stdio cap (12 MiB here; the cap is 1 MiB) is answered with a
 * JSON-RPC error and discarded; the server keeps reading and answers what follows, on both
 * surfaces. Issue 27: the error carries the request's id, read from the start of the line; and
 * every request read before the end of input is answered before the process exits 0.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FAULTY, MCP_INITIALIZE, NATIVE_INITIALIZE, Processes, rssMb, within } from "./harness.js";

const processes = new Processes();
afterEach(() => processes.cleanup());

const TOO_LONG = {
  jsonrpc: "2.0",
  id: 1,
  error: { code: -32600, message: "Invalid Request: the line is longer than 1048576 bytes" },
};
const TWELVE_MIB = 12 * 1024 * 1024;

/** A `tools/call` of echo whose line is about `bytes` long. */
function echoLine(id: number, bytes: number): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "echo", arguments: { text: "x".repeat(bytes) } },
  });
}

const surfaces = [
  {
    surface: "mcp" as const,
    initialize: [MCP_INITIALIZE, { jsonrpc: "2.0", method: "notifications/initialized" }],
    echoed: (answer: any) => answer.result?.structuredContent?.args,
  },
  {
    surface: "native" as const,
    initialize: [NATIVE_INITIALIZE],
    echoed: (answer: any) => answer.result?.value?.args,
  },
];

describe("issue 12 item 2: a 12 MiB line over stdio", () => {
  for (const { surface, initialize, echoed } of surfaces)
    it(`${surface}: answers -32600 for the line, then serves the next requests; exits 0 at end of input`, async () => {
      const served = processes.stdio(surface, ["--registry", FAULTY], {
        env: { FAULTY_DIR: processes.tempDir("stdio") },
      });
      for (const message of initialize) served.lines.send(message);
      await served.lines.answer(0, 20_000);
      const before = rssMb(served.pid);

      served.child.stdin.write(`${echoLine(1, TWELVE_MIB)}\n`);
      const refused = await served.lines
        .next((message) => message?.error !== undefined, 10_000)
        .catch((error: Error) => {
          throw new Error(`no error answer to the 12 MiB line (${surface}): ${error.message}`);
        });
      expect(refused, "the answer to the long line").toEqual(TOO_LONG);

      // The stream goes on: the next line, and one just under the cap, are served.
      served.lines.send(echoLine(2, 10));
      served.lines.send(echoLine(3, 1_000_000));
      const second = await served.lines.answer(2, 5000);
      expect(echoed(second), `${surface}: the request after the long line`).toEqual({
        text: "x".repeat(10),
      });
      const third = await served.lines.answer(3, 5000);
      expect(echoed(third)?.text?.length, `${surface}: a 1 MB request`).toBe(1_000_000);
      expect(served.lines.garbage, "stdout carries JSON-RPC only").toEqual([]);
      expect(
        rssMb(served.pid) - before,
        "RSS growth (MiB) after discarding the long line",
      ).toBeLessThan(150);

      served.child.stdin.end();
      expect(await within(served.exited, 10_000, "exit after end of input")).toEqual({
        code: 0,
        signal: null,
      });
    });
});

describe("issue 27 item 10: requests written just before the end of input", () => {
  for (const { surface, initialize, echoed } of surfaces)
    it(`${surface}: every one is answered, then the process exits 0`, async () => {
      const dir = processes.tempDir("eof");
      const served = processes.stdio(surface, ["--registry", FAULTY], {
        env: { FAULTY_DIR: dir },
      });
      // The first calls load the tools in their workers: the session is warm before the burst.
      for (const message of initialize) served.lines.send(message);
      served.lines.send(echoLine(1, 1));
      await served.lines.answer(1, 20_000);

      // In one write, and stdin closed at once: slow calls, quick ones and a ping.
      const burst = [
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: carefulWrite("eof-a", 300) },
        { jsonrpc: "2.0", id: 3, method: "tools/call", params: carefulWrite("eof-b", 600) },
        ...[4, 5, 6].map((id) => JSON.parse(echoLine(id, 10))),
        { jsonrpc: "2.0", id: 7, method: "ping" },
      ];
      served.child.stdin.end(burst.map((message) => `${JSON.stringify(message)}\n`).join(""));
      expect(await within(served.exited, 10_000, "exit after end of input")).toEqual({
        code: 0,
        signal: null,
      });
      const answered = (id: number) =>
        served.lines.received.find((message: any) => message?.id === id && !("method" in message));
      for (const id of [2, 3])
        expect(answered(id), `the answer to call ${id}`).toMatchObject({ result: {} });
      // Not aborted by the end of input: both ran to the end and wrote.
      for (const name of ["eof-a", "eof-b"])
        expect(existsSync(path.join(dir, "written", name)), name).toBe(true);
      for (const id of [4, 5, 6])
        expect(echoed(answered(id)), `the answer to echo ${id}`).toEqual({ text: "x".repeat(10) });
      expect(answered(7), "the answer to ping").toEqual({ jsonrpc: "2.0", id: 7, result: {} });
      expect(served.lines.garbage, "stdout carries JSON-RPC only").toEqual([]);
    });
});

/** careful_write's arguments: it waits `ms`, then writes. */
function carefulWrite(name: string, ms: number) {
  return { name: "careful_write", arguments: { name, ms } };
}
