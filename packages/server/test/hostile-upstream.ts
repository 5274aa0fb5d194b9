/**
 * A hostile upstream for the gateway's fault tests: an MCP server over stdio (hand-written, so
 * that it can break the protocol) whose tools answer what a broken or lying server might:
 * `node --import tsx hostile-upstream.ts`. Answers are written as the SDK's servers write them,
 * the id last (`{"result":…,"jsonrpc":"2.0","id":N}`), unless a tool says `idFirst`. Its
 * output is one queue, so that a long answer is never cut by another.
 *
 *   echo {text}                 the text
 *   pid                         its process id, as text
 *   slow {ms, text}             the text, after ms
 *   big {bytes, idFirst?}       a text of `bytes` x's
 *   endless {ms, idFirst?}      a line of x's written for ms (1 MiB every 5 ms), then ended: a
 *                               line that does not end while the test looks
 *   garbage                     a line that is not JSON, with the id at its end
 *   noise {text}                a line that is not JSON and has no id, then the text
 *   not_jsonrpc                 JSON that is no JSON-RPC message (`{"id":N,"result":"…"}`)
 *   wrong_shape                 a result that is no CallToolResult (`content` a string)
 *   stray {answer}              an answer to an id nobody asked for; then the real one if `answer`
 *   closed_error                a JSON-RPC error with the SDK's "Connection closed" code (-32000)
 */
import process from "node:process";

type Id = string | number;

const TOOLS = [
  ["echo", { text: { type: "string" } }],
  ["pid", {}],
  ["slow", { ms: { type: "number" }, text: { type: "string" } }],
  ["big", { bytes: { type: "number" }, idFirst: { type: "boolean" } }],
  ["endless", { ms: { type: "number" }, idFirst: { type: "boolean" } }],
  ["garbage", {}],
  ["noise", { text: { type: "string" } }],
  ["not_jsonrpc", {}],
  ["wrong_shape", {}],
  ["stray", { answer: { type: "boolean" } }],
  ["closed_error", {}],
].map(([name, properties]) => ({
  name,
  description: `hostile: ${String(name)}`,
  inputSchema: { type: "object", properties },
}));

/** Every write goes through this chain: one answer at a time, whole. */
let output = Promise.resolve();
function enqueue(write: () => Promise<void>): void {
  output = output.then(write);
}

function put(text: string): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once("drain", resolve);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A result line: the id last, as the SDK writes, or first. */
function resultLine(id: Id, result: unknown, idFirst = false): string {
  return idFirst
    ? `${JSON.stringify({ jsonrpc: "2.0", id, result })}\n`
    : `${JSON.stringify({ result, jsonrpc: "2.0", id })}\n`;
}

const text = (value: string) => ({ content: [{ type: "text", text: value }] });

function answer(id: Id, result: unknown): void {
  enqueue(() => put(resultLine(id, result)));
}

function call(id: Id, name: string, args: { readonly [key: string]: any }): void {
  switch (name) {
    case "echo":
      return answer(id, text(String(args["text"])));
    case "pid":
      return answer(id, text(String(process.pid)));
    case "slow":
      void sleep(Number(args["ms"])).then(() => answer(id, text(String(args["text"]))));
      return;
    case "big":
      return enqueue(() =>
        put(resultLine(id, text("x".repeat(Number(args["bytes"]))), args["idFirst"] === true)),
      );
    case "endless":
      return enqueue(async () => {
        const [head, end] = resultLine(id, text("\u0000"), args["idFirst"] === true).split(
          "\\u0000",
        );
        await put(head!);
        const chunk = "x".repeat(1024 * 1024);
        const until = Date.now() + Number(args["ms"]);
        while (Date.now() < until) {
          await put(chunk);
          await sleep(5);
        }
        await put(end!);
      });
    case "garbage":
      return enqueue(() =>
        put(`{"result":{"content":[}}],"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n`),
      );
    case "noise":
      enqueue(() => put("hello from the upstream, on stdout\n"));
      return answer(id, text(String(args["text"])));
    case "not_jsonrpc":
      return enqueue(() => put(`${JSON.stringify({ id, result: "not an object" })}\n`));
    case "wrong_shape":
      return answer(id, { content: "not a list" });
    case "stray":
      answer(typeof id === "number" ? id + 1_000_000 : `${id}-stray`, text("stray"));
      if (args["answer"] === true) answer(id, text("answered"));
      return;
    case "closed_error":
      return enqueue(() =>
        put(
          `${JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32000, message: "Connection closed" } })}\n`,
        ),
      );
    default:
      enqueue(() =>
        put(
          `${JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32602, message: `no tool ${name}` } })}\n`,
        ),
      );
  }
}

function handle(message: { id?: Id; method?: string; params?: any }): void {
  const { id, method, params } = message;
  if (id === undefined) return; // notifications: initialized, cancelled
  if (method === "initialize")
    return answer(id, {
      protocolVersion: params?.protocolVersion ?? "2025-11-25",
      capabilities: { tools: {} },
      serverInfo: { name: "hostile", version: "0" },
    });
  if (method === "tools/list") return answer(id, { tools: TOOLS });
  if (method === "tools/call") return call(id, params?.name, params?.arguments ?? {});
  if (method === "ping") return answer(id, {});
  enqueue(() =>
    put(
      `${JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32601, message: "no such method" } })}\n`,
    ),
  );
}

let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  buffer += chunk;
  let end: number;
  while ((end = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, end).trim();
    buffer = buffer.slice(end + 1);
    if (line !== "") handle(JSON.parse(line));
  }
});
process.stdin.on("end", () => process.exit(0));
