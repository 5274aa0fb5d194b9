/**
 * upstream: reading an upstream MCP server's listing. Connects with the official SDK client
 * (stdio: the child is started with its stderr kept for messages; Streamable HTTP), reads
 * `tools/list` page by page, and closes (which ends the child). Every failure is a diagnostic:
 * the server could not be started or connected to (with the command and the last lines of its
 * stderr), the listing failed, or the whole took longer than the timeout (30 s by default).
 * The SDK is loaded here only, so that a TypeScript project's run never loads it.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { diagnostic, type Diagnostic } from "../diagnostics.js";
import { expandServer, MissingVariableError, type UpstreamServer } from "@zcp/runtime/codegen";
import { describeServer } from "./server.js";

/** One tool of an upstream's `tools/list`, as listed (unknown fields are kept out). */
export interface UpstreamTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: { readonly [keyword: string]: unknown };
  readonly outputSchema?: { readonly [keyword: string]: unknown };
  readonly annotations?: { readonly [key: string]: unknown };
}

export interface Listing {
  /** `serverInfo.name` from the initialize answer ("" when the server sent none). */
  readonly serverName: string;
  /** Every page's tools, in the order listed. */
  readonly tools: readonly UpstreamTool[];
}

export type ListingResult =
  | { readonly listing: Listing; readonly diagnostics: [] }
  | { readonly listing: null; readonly diagnostics: Diagnostic[] };

export interface ListOptions {
  /** Milliseconds for connecting and listing together (default 30 000). */
  readonly timeoutMs?: number;
  /** Where a relative stdio `cwd` is resolved, and the child's folder without one. */
  readonly cwd?: string;
  /** Where `${NAME}` values come from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
}

const STDERR_LINES = 10;
/** A listing longer than this many pages is taken to be a server that never ends it. */
const MAX_PAGES = 1000;

/** Connects to `server`, lists every page of its tools and closes. */
export async function listUpstream(
  server: UpstreamServer,
  options: ListOptions = {},
): Promise<ListingResult> {
  const what = describeServer(server);
  let expanded: UpstreamServer;
  try {
    expanded = expandServer(server, options.env ?? process.env);
  } catch (error) {
    if (!(error instanceof MissingVariableError)) throw error;
    return failed(
      "ZCP1704",
      `the environment variable ${error.variable}, which the upstream server ${what} names as \${${error.variable}}, is not set`,
    );
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const stderr: string[] = [];
  const transport = await openTransport(expanded, options.cwd, stderr);
  const client = new Client({ name: "zcp-gen", version: "0" });
  let stage: "connect" | "list" = "connect";
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError()), timeoutMs);
  });
  try {
    const listing = await Promise.race([
      (async (): Promise<Listing> => {
        await client.connect(transport);
        stage = "list";
        const tools: UpstreamTool[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < MAX_PAGES; page++) {
          const answer = await client.listTools(cursor === undefined ? {} : { cursor });
          tools.push(...answer.tools.map(listedTool));
          cursor = answer.nextCursor;
          if (cursor === undefined) break;
        }
        return { serverName: client.getServerVersion()?.name ?? "", tools };
      })(),
      timeout,
    ]);
    return { listing, diagnostics: [] };
  } catch (error) {
    const tail = stderrTail(stderr);
    if (error instanceof TimeoutError)
      return failed(
        "ZCP1703",
        `the upstream server ${what} did not ${stage === "connect" ? "answer initialize" : "finish tools/list"} within ${timeoutMs / 1000} s${tail}`,
      );
    const message = error instanceof Error ? error.message : String(error);
    return stage === "connect"
      ? failed(
          "ZCP1701",
          `cannot start or connect to the upstream server ${what}: ${message}${tail}`,
        )
      : failed("ZCP1702", `the upstream server ${what} failed tools/list: ${message}${tail}`);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
  }
}

class TimeoutError extends Error {}

async function openTransport(
  server: UpstreamServer,
  cwd: string | undefined,
  stderr: string[],
): Promise<Transport> {
  if ("url" in server) {
    const { StreamableHTTPClientTransport } =
      await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    return new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { ...server.headers } },
    });
  }
  const path = await import("node:path");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const transport = new StdioClientTransport({
    command: server.command,
    args: [...(server.args ?? [])],
    ...(server.env ? { env: { ...server.env } } : {}),
    ...(server.cwd || cwd ? { cwd: path.resolve(cwd ?? ".", server.cwd ?? ".") } : {}),
    stderr: "pipe",
  });
  let partial = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop()!;
    stderr.push(...lines);
    stderr.splice(0, Math.max(0, stderr.length - STDERR_LINES));
  });
  transport.stderr?.on("end", () => {
    if (partial !== "") stderr.push(partial);
  });
  return transport;
}

/** The child's last stderr lines, as the end of a message; "" without any. */
function stderrTail(lines: readonly string[]): string {
  const kept = lines.slice(-STDERR_LINES).filter((line) => line.trim() !== "");
  return kept.length === 0
    ? ""
    : `; its last stderr lines:\n${kept.map((line) => `    ${line}`).join("\n")}`;
}

/** The fields of a listed tool that zcp uses. */
function listedTool(tool: {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: object;
  outputSchema?: object | undefined;
  annotations?: object | undefined;
}): UpstreamTool {
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema as UpstreamTool["inputSchema"],
    ...(tool.outputSchema !== undefined
      ? { outputSchema: tool.outputSchema as UpstreamTool["outputSchema"] }
      : {}),
    ...(tool.annotations !== undefined
      ? { annotations: tool.annotations as UpstreamTool["annotations"] }
      : {}),
  };
}

function failed(
  code: "ZCP1701" | "ZCP1702" | "ZCP1703" | "ZCP1704",
  message: string,
): ListingResult {
  return { listing: null, diagnostics: [diagnostic("error", code, message)] };
}
