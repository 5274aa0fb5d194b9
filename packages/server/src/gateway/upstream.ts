/**
 * `upstream(server)`: what a gateway's generated dispatch calls. One connection per process,
 * opened on the first call and shared by every session; when it dies (the child exits, an HTTP
 * request fails), the calls in flight and those until the next attempt answer
 * `upstream_unavailable`, and the next call after the backoff (100 ms, doubling to 5 s while
 * attempts keep failing; back to 100 ms after a call succeeded) opens a new one. A bad answer
 * (an error, an HTTP error status, too large, malformed, a result of the wrong shape) fails its
 * own call only: the connection, and the other sessions' calls on it, go on. An HTTP upstream
 * that answers 404 for our session has forgotten it: a new one is opened at once and the call
 * made again on it (the upstream did not run it). The old connection is retired, not cut: the
 * calls in flight on it finish, or fail, on their own, and it closes after the last.
 *
 * Either MCP era (era.ts): the first connection probes, and the era it found is remembered and
 * handed to every later one (no probe on a restart). An upstream that changed era since (its
 * answer says it does not speak the remembered one) is probed again, once, and the call made
 * again on the new connection (the upstream did not run it either).
 */
import process from "node:process";
import {
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  type PriorDiscovery,
} from "@modelcontextprotocol/client";
import { clip, ToolError, type ToolContext } from "@zcp/runtime";
import { DEFAULT_MAX_ANSWER_BYTES, faultOf } from "./answers.js";
import { openConnection, type Connection } from "./connection.js";
import { eraMismatch } from "./era.js";
import { expandServer } from "./expand.js";
import { resultValue, type UpstreamResult } from "./result.js";
import type { Upstream, UpstreamOptions, UpstreamServer } from "./types.js";

export const BACKOFF_START_MS = 100;
export const BACKOFF_MAX_MS = 5000;
/** The SDK's own request timeout, made as long as a timer allows: the runtime's timeout (which aborts the signal) is the limit. */
const NO_SDK_TIMEOUT = 2_147_483_647;

type State =
  | { readonly kind: "idle" }
  | { readonly kind: "connecting"; readonly opening: Promise<Connection> }
  | { readonly kind: "up"; readonly connection: Connection }
  | { readonly kind: "down"; readonly why: string; readonly retryAt: number };

/** Every upstream of this process, for `closeUpstreams`. */
const open = new Set<GatewayUpstream>();

export function upstream(server: UpstreamServer, options: UpstreamOptions = {}): Upstream {
  return new GatewayUpstream(
    server,
    options.name ?? defaultName(server),
    options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
  );
}

/** Closes every upstream this process opened (zcp-serve, before it exits). */
export async function closeUpstreams(): Promise<void> {
  await Promise.all([...open].map((each) => each.close()));
}

/** An URL's host as written (`${NAME}` kept: the name is no secret), or a command's file name. */
function defaultName(server: UpstreamServer): string {
  if ("url" in server)
    return /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/i.exec(server.url)?.[1] ?? server.url;
  return server.command.split(/[\\/]/).pop() || server.command;
}

const log = (message: string) => process.stderr.write(`zcp gateway: ${message}\n`);

/** At most this many reports of an upstream's per REPORT_WINDOW_MS (an upstream may write garbage without end). */
const REPORTS_PER_WINDOW = 10;
const REPORT_WINDOW_MS = 1000;

/**
 * Logs what an upstream did that failed no call (an answer dropped, an id nobody asked for), at
 * most REPORTS_PER_WINDOW times per window; the next logged line says how many were not.
 */
function reporter(name: string): (error: Error) => void {
  let windowAt = -Infinity;
  let reports = 0;
  let unlogged = 0;
  return (error) => {
    const now = Date.now();
    if (now - windowAt >= REPORT_WINDOW_MS) {
      windowAt = now;
      reports = 0;
    }
    if (++reports > REPORTS_PER_WINDOW) {
      unlogged++;
      return;
    }
    const more = unlogged > 0 ? ` (${unlogged} earlier reports not logged)` : "";
    unlogged = 0;
    log(`${name}: ${clip(error.message, 300)}${more}`);
  };
}

class GatewayUpstream implements Upstream {
  private state: State = { kind: "idle" };
  private backoffMs = BACKOFF_START_MS;
  /** Whether a connection was ever up: the next one is a restart. */
  private started = false;
  /** The era the last connection found, for the next one; none: it probes. */
  private verdict: PriorDiscovery | undefined;
  /**
   * Connections retired (`drop`) whose calls in flight have not all settled yet, for `close`.
   * Bounded by the calls in flight: each holds at least one, and each call ends by its time limit.
   */
  private readonly retiring = new Set<Connection>();

  private readonly report: (error: Error) => void;

  constructor(
    private readonly server: UpstreamServer,
    readonly name: string,
    private readonly maxAnswerBytes: number,
  ) {
    this.report = reporter(name);
  }

  get pid(): number | null {
    return this.state.kind === "up" ? this.state.connection.pid : null;
  }

  async call(
    tool: string,
    args: { readonly [key: string]: unknown },
    context: ToolContext,
  ): Promise<unknown> {
    const result = await this.attempt(tool, args, context);
    // The upstream refused the call unrun (a forgotten session, another era): once more, on a new connection.
    const value = typeof result === "string" ? await this.attempt(tool, args, context) : result;
    if (typeof value === "string") throw new ToolError("upstream_error", AGAIN[value](this.name));
    this.backoffMs = BACKOFF_START_MS;
    return resultValue(value, this.name, tool);
  }

  /** One `tools/call` on the connection: its result, why to make it again, or a rejection with the ToolError. */
  private async attempt(
    tool: string,
    args: { readonly [key: string]: unknown },
    context: ToolContext,
  ): Promise<UpstreamResult | Again> {
    const { signal } = context;
    if (signal.aborted) throw aborted(signal);
    const connection = await abortable(this.connection(), signal);
    try {
      return (await connection.run((client) =>
        client.callTool(
          { name: tool, arguments: { ...args } },
          {
            signal,
            timeout: NO_SDK_TIMEOUT,
            onprogress: ({ progress, total, message }) =>
              context.progress(progress, total, message),
          },
        ),
      )) as UpstreamResult;
    } catch (error) {
      const failure = this.failure(error, connection, signal);
      if (typeof failure === "string") return failure;
      throw failure;
    }
  }

  async close(): Promise<void> {
    const state = this.state;
    this.state = { kind: "idle" };
    open.delete(this);
    const retiring = [...this.retiring];
    this.retiring.clear();
    await Promise.all(retiring.map((connection) => connection.close()));
    if (state.kind === "up") await state.connection.close();
    if (state.kind === "connecting")
      await state.opening.then(
        (connection) => connection.close(),
        () => undefined,
      );
  }

  /** The connection up, opened now if none is and the backoff allows; else ToolError("upstream_unavailable"). */
  private connection(): Promise<Connection> {
    const state = this.state;
    if (state.kind === "up") return Promise.resolve(state.connection);
    if (state.kind === "connecting") return state.opening;
    if (state.kind === "down" && Date.now() < state.retryAt)
      return Promise.reject(
        unavailable(
          `the upstream MCP server ${this.name} ${state.why}; restarting (next attempt in ${state.retryAt - Date.now()} ms)`,
        ),
      );
    const opening = this.open();
    this.state = { kind: "connecting", opening };
    return opening;
  }

  private async open(): Promise<Connection> {
    const restart = this.started;
    let connection: Connection;
    try {
      connection = await this.connect();
    } catch (error) {
      const why = `could not be started: ${(error as Error).message}`;
      if (this.state.kind === "connecting") this.down(why);
      throw unavailable(`the upstream MCP server ${this.name} ${why}`);
    }
    if (this.state.kind !== "connecting") {
      // closed while connecting
      await connection.close();
      throw unavailable(`the upstream MCP server ${this.name} was closed`);
    }
    this.state = { kind: "up", connection };
    this.verdict = connection.verdict;
    this.started = true;
    open.add(this);
    if (restart)
      log(`${this.name}: restarted${connection.pid !== null ? ` (pid ${connection.pid})` : ""}`);
    void connection.ended.then((why) => this.lost(connection, why));
    return connection;
  }

  /**
   * A connection in the remembered era; when the upstream refuses that era (it was replaced by
   * one of the other era since), the verdict is forgotten and a new connection probes, once.
   */
  private async connect(): Promise<Connection> {
    const server = expandServer(this.server, process.env);
    const options = { maxAnswerBytes: this.maxAnswerBytes, onError: this.report };
    const prior = this.verdict;
    if (prior === undefined) return await openConnection(server, options);
    try {
      return await openConnection(server, { ...options, prior });
    } catch (error) {
      if (eraMismatch((error as Error).cause, prior.kind) === undefined) throw error;
      this.eraChanged(prior);
      return await openConnection(server, options);
    }
  }

  /** The upstream no longer speaks the era of `was`: the next connection probes. */
  private eraChanged(was: PriorDiscovery): void {
    this.verdict = undefined;
    log(`${this.name} no longer speaks the ${ERA[was.kind]} era it spoke; its era is probed again`);
  }

  /** The connection is gone (`why`, e.g. `exited (code 1)`): down until the backoff has passed. */
  private lost(connection: Connection, why: string): void {
    if (this.state.kind !== "up" || this.state.connection !== connection) return;
    this.down(why);
    void connection.close(why).catch(() => undefined);
  }

  private down(why: string): void {
    const delayMs = this.backoffMs;
    this.state = { kind: "down", why, retryAt: Date.now() + delayMs };
    this.backoffMs = Math.min(this.backoffMs * 2, BACKOFF_MAX_MS);
    log(`${this.name} ${why}; restarting on the next call after ${delayMs} ms`);
  }

  /**
   * What a failed `tools/call` rejects with: `cancelled`; `upstream_unavailable` when the
   * connection is gone (the only case that restarts it: the child exited, an HTTP request found
   * no server); "session" when an HTTP upstream answered 404 for our session (it was restarted,
   * or let the session expire: the spec's signal to start a new one, which is done at once);
   * "era" when it refused the connection's era (it was replaced by a server of the other era:
   * the era is probed again at once); else the call's own failure: `upstream_too_large`,
   * `upstream_invalid`, `upstream_error` (an error response, an HTTP error status).
   */
  private failure(error: unknown, connection: Connection, signal: AbortSignal): ToolError | Again {
    if (signal.aborted) return aborted(signal);
    // The connection's own state says whether it died (a child's close rejects the calls in
    // flight after it is recorded), never an error code an upstream could answer itself.
    if (connection.endedWhy === null) {
      // An answer of the other era: the upstream was replaced. Refused unrun, the call is made
      // again; answered (it ran), it fails, and the next call probes.
      const mismatch = eraMismatch(error, connection.verdict.kind);
      if (mismatch !== undefined) {
        const was = connection.verdict;
        this.drop(connection, `answered in another era than ${ERA[was.kind]}`);
        if (this.verdict === was) this.eraChanged(was);
        if (mismatch === "refused") return "era";
        return new ToolError(
          "upstream_error",
          `${this.name} answered tools/call as a server of another protocol era (${clip(String((error as Error).message), 200)}); the call may have run; its era is probed on the next call`,
        );
      }
      const fault = faultOf(error);
      if (fault)
        return new ToolError(
          fault.code,
          `${this.name} answered ${fault.what} to tools/call; the answer was dropped`,
        );
      if (error instanceof ProtocolError)
        return new ToolError("upstream_error", clip(error.message, 300));
      // The upstream answered this one POST (an error status, a 400 that says nothing of the
      // era, a body of another type): the server is there, and the other calls go on; only a 404
      // for our session ends the session.
      if (error instanceof SdkHttpError) {
        if (error.status === 404 && connection.sessionId !== undefined) {
          this.drop(connection, "forgot the session (HTTP 404)");
          return "session";
        }
        return new ToolError(
          "upstream_error",
          `${this.name} answered HTTP ${error.status} to tools/call: ${clip(error.message, 300)}`,
        );
      }
      if (error instanceof SdkError && error.code === SdkErrorCode.ClientHttpUnexpectedContent)
        return new ToolError(
          "upstream_invalid",
          `${this.name} answered a body of another type (${clip(error.message, 300)}) to tools/call; the answer was dropped`,
        );
    }
    // The connection failed. A closed child: its exit status; a failed HTTP request: the error says why.
    const why =
      connection.endedWhy ??
      `failed (${clip(String((error as Error | undefined)?.message ?? error), 200)})`;
    this.lost(connection, why);
    return unavailable(`the upstream MCP server ${this.name} ${why}; restarting`);
  }

  /**
   * The upstream refused the connection (`why`: it forgot the session, it refused the era): the
   * next call opens a new one, without a backoff (the upstream answered: it is up). The old one
   * is retired, not closed: one call's answer is no reason to cut the other sessions' calls on
   * it short (each finishes, or meets the same refusal and is made again on the new one); it
   * closes once the last has settled.
   */
  private drop(connection: Connection, why: string): void {
    if (this.state.kind !== "up" || this.state.connection !== connection) return;
    this.state = { kind: "idle" };
    log(`${this.name} ${why}; starting a new connection`);
    this.retiring.add(connection);
    void connection
      .retire(why)
      .catch(() => undefined)
      .finally(() => this.retiring.delete(connection));
  }
}

/**
 * Why an attempt's call is made again, once, on a new connection: the upstream forgot our
 * session (HTTP 404), or refused the era the connection speaks. The call was not run.
 */
type Again = "session" | "era";

/** The error of a call refused again on the new connection. */
const AGAIN: { readonly [why in Again]: (name: string) => string } = {
  session: (name) =>
    `${name} answered HTTP 404 to tools/call on a new session; the session was not found`,
  era: (name) =>
    `${name} refused tools/call again on a new connection, in the era probed anew (-32022 unsupported protocol version, or a 2025 server's HTTP 400 asking for its session)`,
};

const ERA: { readonly [kind in PriorDiscovery["kind"]]: string } = {
  legacy: "2025 (initialize)",
  modern: "2026-07-28",
};

/**
 * What a call rejects with once the runtime aborted its signal (it has answered `cancelled` or
 * `timeout` already): a ToolError, which the runtime does not log as a tool failure.
 */
const aborted = (signal: AbortSignal) =>
  new ToolError(
    "cancelled",
    `the call was stopped (${String((signal.reason as Error | undefined)?.message ?? signal.reason)})`,
  );

const unavailable = (hint: string) => new ToolError("upstream_unavailable", hint);

/** `promise`, or the signal's reason as soon as it aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
