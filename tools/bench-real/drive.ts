/**
 * Runs a call script on one connection the way an agent's host would, and bills what the model
 * sees under bench:tokens' rules (`bill`, `totals`: o200k_base tokens of the Chat Completions
 * messages, the tool definitions on every request). A script is the agent's task and its tool
 * calls, by the original's MCP names; each call is one turn (the assistant's tool call, the
 * tool's result), and a last turn reads the last result.
 *
 * What the model sees of a result: the text of its text blocks as they are, and any other block
 * (an image, a `resource_link`) as its JSON, which a host has to put into words somehow.
 *
 * Modes, the same script on each:
 * - `plain`: every tool listed, each call made by its name.
 * - `discover`: the listing is zcp's tool search. Before the first call of a tool the agent
 *   searches with the step's `find` words (default: the tool's name, words split at `_` and `-`),
 *   one search per tool, and the search must answer it. On 2025-11-25 the listing then grows with
 *   what was found; on 2026-07-28 (a listing never changes) a found tool is called through
 *   `zcp_call_tool`.
 * - handles (`handles: true`, the budgets configurations): a result past the server's token
 *   budget comes back as a handle with its first page inline; when the step says the agent needs
 *   the whole result (`needs: "all"`), the agent reads it with `zcp_handle` (`op: "read"`), one
 *   more turn. A handle is the `resource_link` to a `zcp://handle/` URI (a tool's own resource
 *   links, such as everything's `get-resource-links`, are not handles).
 * - code (`code: true`, `zcp-serve --code`): every tool listed and `zcp_run`; the script runs as
 *   its programs (programs.ts), one `zcp_run` call each: the program is the call, its answer the
 *   result the model reads. With discover, before a program the agent searches (as above) for
 *   each of its tools not found yet; on 2026-07-28 the program calls them through
 *   `tools.zcp.call_tool`. Code-only (`codeOnly: true`, `zcp-serve --code-only`): `zcp_run`
 *   alone listed, the port's API text in its description; the same programs.
 */
import { listAllTools, mcpFunction, type McpTool } from "../bench-tokens/surfaces/mcp-listing.ts";
import {
  bill,
  tokensOf,
  totals,
  type Message,
  type ToolCallMessage,
} from "../bench-tokens/surfaces/transcript.ts";
import { HANDLE_URI_PREFIX } from "@zcp/server";
import type { Connection } from "./connect.ts";
import { programsOf } from "./programs.ts";
import type { Script, Step } from "./script.ts";

export interface DriveOptions {
  readonly discover?: boolean;
  readonly handles?: boolean;
  /** Code mode: the script runs as its programs (programs.ts), each one `zcp_run` call. */
  readonly code?: boolean;
  /** Code mode only (`zcp-serve --code-only`): `zcp_run` alone is listed; the tools are not. */
  readonly codeOnly?: boolean;
}

/** One turn of the conversation: what was called, and the tokens of the result the model read. */
interface TurnRecord {
  /** The step it serves (its index), or -1 for the last turn. */
  readonly step: number;
  readonly kind: "call" | "find" | "handle" | "program";
  readonly name: string;
  readonly resultTokens: number;
  readonly isError: boolean;
  readonly text: string;
}

export interface RunRecord {
  readonly era: string;
  /** How many tools the first request listed. */
  readonly tools: number;
  /** The tokens of the tool definitions each request carried: the first request's, and the largest. */
  readonly listingFirst: number;
  readonly listingMax: number;
  readonly requests: number;
  readonly turns: readonly TurnRecord[];
  readonly totals: ReturnType<typeof totals>;
}

const SYSTEM: Message = { role: "system", content: "You are a helpful assistant. Use the tools." };
const FIND = "zcp_find_tools";
const CALL = "zcp_call_tool";
const HANDLE = "zcp_handle";
const RUN = "zcp_run";

/** What the model sees of a `CallToolResult`. */
function seenText(answer: { readonly [key: string]: unknown }): string {
  const blocks = (answer["content"] ?? []) as { type: string; text?: string }[];
  return blocks
    .map((block) => (block.type === "text" ? (block.text ?? "") : JSON.stringify(block)))
    .join("\n");
}

const wordsOf = (tool: string) => tool.split(/[_-]+/).join(" ");

/**
 * The name a server lists the original's tool under: its own, or (a gateway, which prefixes its
 * aliases with the upstream's name) the one that ends with `_<name>`.
 */
const listedName = (tool: string, names: readonly string[]) =>
  names.find((name) => name === tool) ?? names.find((name) => name.endsWith(`_${tool}`));

export async function drive(
  connection: Connection,
  script: Script,
  options: DriveOptions = {},
): Promise<RunRecord> {
  const { client } = connection;
  const messages: Message[] = [SYSTEM, { role: "user", content: script.task }];
  const turns: TurnRecord[] = [];
  // The tool definitions of each request (a 2025 discover listing grows), billed per request.
  const listings: unknown[][] = [];
  let listed: McpTool[] = await listAllTools(client);
  const modern = connection.era === "2026-07-28";
  const found = new Set<string>();
  let next = 0;

  async function turn(step: number, kind: TurnRecord["kind"], name: string, args: object) {
    const id = `call_${next++}`;
    const call: ToolCallMessage = {
      id,
      type: "function",
      function: { name, arguments: JSON.stringify(args) },
    };
    listings.push(listed.map(mcpFunction));
    messages.push({ role: "assistant", content: null, tool_calls: [call] });
    const answer = await client.callTool({ name, arguments: args as Record<string, unknown> });
    const text = seenText(answer);
    messages.push({ role: "tool", tool_call_id: id, content: text });
    const record = {
      step,
      kind,
      name,
      resultTokens: tokensOf(text),
      isError: answer["isError"] === true,
      text,
    };
    turns.push(record);
    return { record, answer };
  }

  const listedNames = () => listed.map((tool) => tool.name);
  /** The name a step's tool is called by, after a search for it (discover mode) unless listed or found. */
  async function reach(index: number, step: Step): Promise<string> {
    const name = listedName(step.tool, [...listedNames(), ...found]);
    if (!options.discover || name !== undefined) return orThrow(name, step);
    const query = step.find ?? wordsOf(step.tool);
    const { record } = await turn(index, "find", FIND, { query });
    const names = (JSON.parse(record.text) as { tools?: { name: string }[] }).tools ?? [];
    for (const tool of names) found.add(tool.name);
    if (!modern) listed = await listAllTools(client);
    return orThrow(listedName(step.tool, [...found]), step);
  }
  const orThrow = (name: string | undefined, step: Step) => {
    if (name === undefined)
      throw new Error(`${script.server}: ${step.tool} is neither listed nor found`);
    return name;
  };

  if (options.code) {
    // A found tool is in a 2025 view (`tools.<alias>`); a 2026 one is reached by `zcp.call_tool`.
    const form = options.discover && modern ? "call_tool" : "alias";
    for (const program of programsOf(script, form)) {
      // Code-only lists no tool to check; the API text in zcp_run's entry names them.
      if (!options.codeOnly)
        for (const index of program.steps) await reach(index, script.steps[index]!);
      await turn(program.first, "program", RUN, { code: program.code });
    }
  } else
    for (const [index, step] of script.steps.entries()) {
      let name = await reach(index, step);
      let args: object = step.args;
      if (options.discover && modern && !listedNames().includes(name)) {
        args = { name, arguments: step.args };
        name = CALL;
      }
      const { answer } = await turn(index, "call", name, args);
      const handle = (answer["content"] as { type: string; uri?: string }[]).find(
        (block) => block.type === "resource_link" && block.uri?.startsWith(HANDLE_URI_PREFIX),
      );
      if (options.handles && step.needs === "all" && handle?.uri) {
        const id = decodeURIComponent(handle.uri.slice(handle.uri.lastIndexOf("/") + 1));
        await turn(index, "handle", HANDLE, { op: "read", handle: id });
      }
    }
  // The last turn: the model reads the last result and answers.
  listings.push(listed.map(mcpFunction));
  messages.push({ role: "assistant", content: "Done." });
  const billed = billPerRequest(listings, messages);
  const sizes = listings.map((tools) => tokensOf(tools));
  return {
    era: connection.era,
    tools: listings[0]!.length,
    listingFirst: sizes[0] ?? 0,
    listingMax: Math.max(...sizes),
    requests: listings.length,
    turns,
    totals: billed,
  };
}

/**
 * Bills a conversation whose tool definitions may change between requests: each request is
 * billed with its own definitions (bench:tokens' `bill` takes one list; it is applied to each
 * request's prefix of the conversation, and the turn that request ends is kept).
 */
function billPerRequest(listings: readonly unknown[][], messages: readonly Message[]) {
  const turns = listings.map((tools, request) => {
    let assistants = -1;
    const end = messages.findIndex(
      (message) => message.role === "assistant" && ++assistants === request,
    );
    return bill(tools, messages.slice(0, end + 1)).at(-1)!;
  });
  return totals(turns);
}
