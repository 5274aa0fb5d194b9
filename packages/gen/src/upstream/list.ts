/**
 * upstream: reading an upstream MCP server's listing. Connects with the official SDK client
 * (stdio: the child is started with its stderr kept for messages; Streamable HTTP) in either
 * MCP era: it probes with `server/discover` (2026-07-28) and falls back to `initialize` (2025);
 * a stdio server that leaves the probe unanswered for PROBE_TIMEOUT_MS is taken for a 2025 one
 * (the SDK probes a stdio server on a sibling process, so the listed one never sees it). It reads
 * `tools/list` page by page, and closes (which ends the child). Every failure is a diagnostic:
 * the server could not be started or connected to (with the command and the last lines of its
 * stderr), the listing failed, or the whole took longer than the timeout (30 s by default).
 * The pages are read raw, not with the SDK's `listTools`: that validates a whole page at once,
 * so one malformed tool would fail the listing of every tool. Here a page must only hold a
 * `tools` array (and a string `nextCursor` or none), and each entry is checked on its own
 * (`tool.ts`). The listing is bounded: at most `MAX_PAGES` pages and `MAX_TOOLS` entries, and
 * past either it fails whole (a partial listing would drop tools without a word).
 * The SDK is loaded here only, so that a TypeScript project's run never loads it.
 */
import type { Client, StandardSchemaV1, Transport } from "@modelcontextprotocol/client";
import { diagnostic, type Diagnostic } from "../diagnostics.js";
import { expandServer, MissingVariableError, type UpstreamServer } from "@zcp/runtime/definition";
import { describeServer } from "./server.js";
import { readTool, type MalformedTool, type UpstreamTool } from "./tool.js";

export interface Listing {
  /** `serverInfo.name` from the initialize answer ("" when the server sent none). */
  readonly serverName: string;
  /** Every page's valid tools, in the order listed. */
  readonly tools: readonly UpstreamTool[];
  /** The entries that are not valid MCP tools, in the order listed; none when absent. */
  readonly malformed?: readonly MalformedTool[];
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
  /** How long a stdio server's probe may go unanswered (default PROBE_TIMEOUT_MS, 3 s). */
  readonly probeTimeoutMs?: number;
}

const STDERR_LINES = 10;
/**
 * How long a stdio server's probe may go unanswered before it is taken for a 2025 server (some
 * ignore a request before `initialize`): a bound on what the probe costs such a server.
 */
const PROBE_TIMEOUT_MS = 3000;
/** A listing longer than this many pages is taken to be a server that never ends it. */
const MAX_PAGES = 1000;
/** The most entries a listing may hold: four times a large catalog (Cloudflare's 2,500 endpoints). */
const MAX_TOOLS = 10_000;

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
  const { Client } = await import("@modelcontextprotocol/client");
  const stderr: string[] = [];
  /** The client and its transport: a second pair when the first probe was wrong (below). */
  let opened: { readonly client: Client; readonly transport: Transport } | undefined;
  const close = async () => {
    await opened?.client.close().catch(() => {});
    await opened?.transport.close().catch(() => {});
  };
  const connect = async (probeTimeoutMs: number): Promise<Client> => {
    const transport = await openTransport(expanded, options.cwd, stderr);
    const client = new Client(
      { name: "zcp-gen", version: "0" },
      { versionNegotiation: { mode: "auto", probe: { timeoutMs: probeTimeoutMs } } },
    );
    opened = { client, transport };
    await client.connect(transport, { timeout: timeoutMs });
    return client;
  };
  let stage: "connect" | "list" = "connect";
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError()), timeoutMs);
  });
  try {
    const listing = await Promise.race([
      (async (): Promise<Listing> => {
        // An HTTP server's probe has the whole timeout: silence there is an outage, not an era.
        const client =
          "url" in expanded
            ? await connect(timeoutMs)
            : await reprobed(connect, close, options.probeTimeoutMs ?? PROBE_TIMEOUT_MS, timeoutMs);
        stage = "list";
        const listed = await readPages((cursor) =>
          client.request(
            { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
            ANY_OBJECT,
            { timeout: timeoutMs },
          ),
        );
        return { serverName: client.getServerVersion()?.name ?? "", ...listed };
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
    // A JSON-RPC error's code is part of what the server answered (the SDK keeps it apart).
    const code = (error as { code?: unknown } | undefined)?.code;
    const message =
      error instanceof Error
        ? `${error.message}${typeof code === "number" ? ` (JSON-RPC error ${code})` : ""}`
        : String(error);
    return stage === "connect"
      ? failed(
          "ZCP1701",
          `cannot start or connect to the upstream server ${what}: ${message}${tail}`,
        )
      : failed("ZCP1702", `the upstream server ${what} failed tools/list: ${message}${tail}`);
  } finally {
    clearTimeout(timer);
    await close();
  }
}

class TimeoutError extends Error {}

/**
 * A stdio server connected with the probe bounded by `probeTimeoutMs`; when its probe went
 * unanswered and then `initialize` was refused (-32022, unsupported protocol version), it is a
 * 2026 server slower to start than the bound: closed, and probed again with `timeoutMs`.
 */
async function reprobed(
  connect: (probeTimeoutMs: number) => Promise<Client>,
  close: () => Promise<void>,
  probeTimeoutMs: number,
  timeoutMs: number,
): Promise<Client> {
  try {
    return await connect(probeTimeoutMs);
  } catch (error) {
    if ((error as { code?: unknown } | undefined)?.code !== -32022) throw error;
    await close();
    return await connect(timeoutMs);
  }
}

/** Any object passes: the page is checked here, each tool on its own (`readPages`). */
const ANY_OBJECT: StandardSchemaV1<unknown, { readonly [key: string]: unknown }> = {
  "~standard": {
    version: 1,
    vendor: "zcp",
    validate: (value) =>
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? { value: value as { readonly [key: string]: unknown } }
        : { issues: [{ message: "the result is not an object" }] },
  },
};

async function openTransport(
  server: UpstreamServer,
  cwd: string | undefined,
  stderr: string[],
): Promise<Transport> {
  if ("url" in server) {
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
    return new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { ...server.headers } },
    });
  }
  const path = await import("node:path");
  const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
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

/**
 * Every page of the listing, each entry read on its own. A page without a `tools` array, a
 * `nextCursor` that is not a string, or a listing past the bounds fails the whole listing.
 */
async function readPages(
  page: (cursor: string | undefined) => Promise<{ readonly [key: string]: unknown }>,
): Promise<Pick<Listing, "tools" | "malformed">> {
  const tools: UpstreamTool[] = [];
  const malformed: MalformedTool[] = [];
  let cursor: string | undefined;
  for (let count = 1; ; count++) {
    if (count > MAX_PAGES)
      throw new Error(`the listing did not end within ${MAX_PAGES} pages, the most zcp gen reads`);
    const answer = await page(cursor);
    if (!Array.isArray(answer.tools)) throw new Error(`page ${count} has no "tools" array`);
    const index = tools.length + malformed.length;
    if (index + answer.tools.length > MAX_TOOLS)
      throw new Error(`it lists more than ${MAX_TOOLS} tools, the most zcp gen reads`);
    answer.tools.forEach((entry: unknown, at) => {
      const tool = readTool(entry, index + at);
      if ("problems" in tool) malformed.push(tool);
      else tools.push(tool);
    });
    if (answer.nextCursor === undefined) break;
    if (typeof answer.nextCursor !== "string")
      throw new Error(`page ${count} has a "nextCursor" that is not a string`);
    cursor = answer.nextCursor;
  }
  return malformed.length === 0 ? { tools } : { tools, malformed };
}

function failed(
  code: "ZCP1701" | "ZCP1702" | "ZCP1703" | "ZCP1704",
  message: string,
): ListingResult {
  return { listing: null, diagnostics: [diagnostic("error", code, message)] };
}
