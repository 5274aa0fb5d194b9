/**
 * A tiny MCP server for the upstream tests, written into a scratch folder: newline-delimited
 * JSON-RPC over stdio, answering `initialize` and `tools/list` from `tools.json` beside it, read
 * on every request (so a test changes the listing between runs), one tool per page. With
 * `mode.json` it pages otherwise or misbehaves: `{"pageSize": n}` lists n tools a page,
 * `{"endless": true}` always gives a next cursor (back to the start after the last page),
 * `{"page": <result>}` answers every tools/list with that result, `{"exit": "<stderr text>"}`
 * prints that and exits before answering, `{"silent": true}` never answers,
 * `{"listError": "<message>"}` fails tools/list.
 */
import fs from "node:fs";
import path from "node:path";

const SERVER = String.raw`
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
const here = path.dirname(new URL(import.meta.url).pathname);
const read = (name, fallback) => {
  try { return JSON.parse(fs.readFileSync(path.join(here, name), "utf8")); } catch { return fallback; }
};
const mode = read("mode.json", {});
if (mode.exit !== undefined) {
  process.stderr.write(mode.exit + "\n");
  process.exit(3);
}
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (mode.silent) return;
  const request = JSON.parse(line);
  if (request.id === undefined) return;
  if (request.method === "initialize") {
    send({ id: request.id, result: {
      protocolVersion: request.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: "@acme/fake-server", version: "1.0.0" },
    } });
  } else if (request.method === "tools/list") {
    if (mode.listError) return send({ id: request.id, error: { code: -32603, message: mode.listError } });
    if (mode.page) return send({ id: request.id, result: mode.page });
    const tools = read("tools.json", []);
    const size = mode.pageSize ?? 1;
    const at = Number(request.params?.cursor ?? 0);
    const next = at + size < tools.length || mode.endless
      ? { nextCursor: String((at + size) % tools.length) } : {};
    send({ id: request.id, result: { tools: tools.slice(at, at + size), ...next } });
  } else {
    send({ id: request.id, error: { code: -32601, message: "no such method" } });
  }
});
`;

/** Writes the fake server (`fake-server.mjs`) and its listing into `dir`. */
export function writeFakeUpstream(dir: string, tools: readonly object[], mode: object = {}): void {
  fs.writeFileSync(path.join(dir, "fake-server.mjs"), SERVER);
  setFakeTools(dir, tools);
  fs.writeFileSync(path.join(dir, "mode.json"), JSON.stringify(mode));
}

export function setFakeTools(dir: string, tools: readonly object[]): void {
  fs.writeFileSync(path.join(dir, "tools.json"), JSON.stringify(tools));
}

/** Two tools: one with `$schema`, a default, annotations and an output schema; one whose schema OpenAI's strict mode cannot take. */
export const FAKE_TOOLS = [
  {
    name: "get-forecast",
    description: "Forecast for a city.\n\nReturns one entry per day.",
    annotations: { title: "Forecast", readOnlyHint: true, idempotentHint: true },
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        city: { type: "string", description: "City name." },
        days: { type: "integer", minimum: 1, maximum: 14, default: 3 },
      },
      required: ["city"],
    },
    outputSchema: {
      type: "object",
      properties: { days: { type: "array", items: { type: "number" } } },
      required: ["days"],
    },
  },
  {
    name: "put_note",
    title: "Put a note",
    description: "Stores a note under free-form metadata.",
    inputSchema: {
      type: "object",
      properties: {
        text: { type: "string" },
        meta: { type: "object", additionalProperties: true },
      },
      required: ["text"],
    },
  },
];
