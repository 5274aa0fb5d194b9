/**
 * The wire's lines (issue 12, P1; issue 27): the shared line reader, the id read from the head
 * of a line too long to parse, and zcp-serve over stdio (MCP and native, spawned on the faulty
 * fixture) answering such a line and serving the next. Every answer is checked exactly.
 */
import { PassThrough } from "node:stream";
import { connectStdio, ZcpRpcError } from "@zcp/client";
import { describe, expect, it } from "vitest";
import { HEAD_BYTES, idOfHead } from "../src/stdio/head-id.js";
import { readLines } from "../src/stdio/lines.js";
import { call, faultyDir, mcpOverStdio, ROOT, SERVE, Served, useFaultyDir } from "./wire-stdio.js";

const MiB = 1024 * 1024;
const TOO_LONG = {
  jsonrpc: "2.0",
  id: null,
  error: { code: -32600, message: "Invalid Request: the line is longer than 1048576 bytes" },
};

useFaultyDir();

describe("P1: the shared line reader", () => {
  const lines = (chunks: (string | Buffer)[], maxLineBytes: number) => {
    const input = new PassThrough();
    const seen: string[] = [];
    readLines(input, {
      maxLineBytes,
      onLine: (line) => seen.push(line),
      onTooLong: () => seen.push("<too long>"),
      onEnd: () => seen.push("<end>"),
    });
    for (const chunk of chunks) input.write(chunk);
    input.end();
    return new Promise<string[]>((resolve) =>
      input.once("end", () => setImmediate(() => resolve(seen))),
    );
  };

  it("splits across chunks, drops \\r before \\n, passes on a last line without a newline", async () => {
    expect(await lines(["ab", "c\nd\r\n\ne", "f"], 10)).toEqual(["abc", "d", "", "ef", "<end>"]);
  });

  it("keeps a line of exactly maxLineBytes and skips a longer one, even split over chunks", async () => {
    expect(await lines(["12345\n123456\n", "123", "456", "789\nok\n"], 5)).toEqual([
      "12345",
      "<too long>",
      "<too long>",
      "ok",
      "<end>",
    ]);
    expect(await lines(["123456"], 5)).toEqual(["<too long>", "<end>"]);
  });

  it("counts bytes, not characters", async () => {
    expect(await lines([Buffer.from("ééé\n"), "éé\n"], 5)).toEqual(["<too long>", "éé", "<end>"]);
  });

  it("passes on the first HEAD_BYTES bytes of a skipped line, however it came in chunks", async () => {
    const input = new PassThrough();
    const heads: string[] = [];
    readLines(input, {
      maxLineBytes: 10,
      onLine: () => undefined,
      onTooLong: (head) => heads.push(head),
      onEnd: () => undefined,
    });
    input.write("0123456789ab\n");
    input.write("x".repeat(HEAD_BYTES - 1));
    input.write("yz".repeat(5000));
    input.end("\n");
    await new Promise((resolve) => input.once("end", () => setImmediate(resolve)));
    expect(heads).toEqual(["0123456789ab", `${"x".repeat(HEAD_BYTES - 1)}y`]);
  });

  it("reads a request's id from the head of its line, by a scan that evaluates nothing", () => {
    const cases: [string, string | number | null | undefined][] = [
      ['{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":"', 7],
      ['  {\n "id" : "a\\"b\\u0063" , "method"', 'a"bc'],
      ['{"jsonrpc":"2.0","method":"x","id":-1.5e3,"params":[', -1500],
      ['{"\\u0069d":null,', null],
      ['{"params":{"id":1,"s":"}{\\"","n":[1,[2]]},"jsonrpc":"2.0","id":8}', 8],
      ['{"a":true,"b":false,"c":null,"d":-0,"id":"z"}', "z"],
      // Cut off: the id may go on, or there is no telling where the value ends.
      ['{"jsonrpc":"2.0","id":12', undefined],
      ['{"jsonrpc":"2.0","id":"abc', undefined],
      ['{"params":{"text":"xxxxxxxx', undefined],
      // No id, or none of a usable kind.
      ['{"jsonrpc":"2.0","method":"x"}', undefined],
      ['{"id":{"x":1},"method":"x"}', undefined],
      ['{"id":[1],"method":"x"}', undefined],
      ['{"id":1e999,"method":"x"}', undefined],
      ['{"id":01,"method":"x"}', undefined],
      ['{"id":true,"method":"x"}', undefined],
      // Not an object at the top, or not JSON.
      ['[{"id":1}]', undefined],
      ['"{\\"id\\":1}"', undefined],
      ["{id:1,", undefined],
      ['{"a" 1,"id":2,', undefined],
      ['{"a":1 "id":2,', undefined],
      ['{"a":tru,"id":2,', undefined],
      ['{"id":(globalThis.x=1),', undefined],
      ["", undefined],
    ];
    for (const [head, id] of cases) expect(idOfHead(head), head).toBe(id);
    expect((globalThis as { x?: unknown }).x).toBeUndefined();
  });

  for (const surface of ["mcp", "native"] as const) {
    it(`${surface} over stdio: a 12 MiB line gets -32600, the next request is answered, stdin end exits 0`, async () => {
      const served = surface === "mcp" ? await mcpOverStdio() : new Served("native");
      const before = served.messages.length;
      served.send("x".repeat(12 * MiB));
      expect(await served.nth(before + 1)).toEqual(TOO_LONG);
      served.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      const listed = await served.answer(2);
      const names =
        surface === "mcp"
          ? listed.result.tools.map((tool: { name: string }) => tool.name)
          : listed.result.tools
              .split("\n")
              .map((line: string) => line.split(" ")[2]!.split("(")[0]);
      expect(names).toContain("careful_write");
      expect(await served.end()).toBe(0);
    });
  }
});

describe("issue 27: a line over --max-line-bytes is answered with its request's id", () => {
  const tooLong = (id: unknown) => ({
    jsonrpc: "2.0",
    id,
    error: { code: -32600, message: "Invalid Request: the line is longer than 200 bytes" },
  });
  const long = "x".repeat(300);

  for (const surface of ["mcp", "native"] as const)
    it(`${surface} over stdio: the id when the line starts with it, else null; the next line is served`, async () => {
      const flags = ["--max-line-bytes", "200"];
      const served = surface === "mcp" ? await mcpOverStdio(flags) : new Served("native", flags);
      const before = served.messages.length;
      served.send(call(7, "echo", { text: long }));
      served.send(call("seven", "echo", { text: long }));
      // The id after HEAD_BYTES of params: not in the head.
      served.send(
        `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{"text":"${"x".repeat(HEAD_BYTES)}"}},"id":8}`,
      );
      served.send(call(9, "echo", { text: "x".repeat(100) }));
      const fits = await served.answer(9);
      expect(fits.error).toBeUndefined();
      expect(served.messages.slice(before, before + 3)).toEqual([
        tooLong(7),
        tooLong("seven"),
        tooLong(null),
      ]);
      expect(await served.end()).toBe(0);
    });

  it("@zcp/client over stdio: an oversized call rejects at once with the server's -32600, and the next one is served", async () => {
    const client = connectStdio(
      process.execPath,
      [...SERVE, "--surface", "native", "--max-line-bytes", "200"],
      { cwd: ROOT, env: { ...process.env, FAULTY_DIR: faultyDir() }, stderr: "ignore" },
    );
    try {
      await client.initialize();
      const refused = await client.call("echo", { text: long }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ZcpRpcError);
      expect(refused).toMatchObject({
        code: -32600,
        message: "Invalid Request: the line is longer than 200 bytes",
      });
      expect(await client.call("echo", { text: "short" })).toMatchObject({ ok: true });
    } finally {
      await client.close();
    }
  });
});
