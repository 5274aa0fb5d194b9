/**
 * How `zcp-serve` serves, once its runtime is made: MCP or native ZCP over stdio, or both
 * surfaces over HTTP; each resolves to the exit code once it has stopped (stdin ended, or
 * SIGINT/SIGTERM: running calls may answer for `--grace-ms`, then every session closes).
 */
import process from "node:process";
import type { Runtime } from "@zcp/runtime";
import { responseLimitsOf } from "../budget.js";
import { FLUSH_MS, SHUTTING_DOWN } from "../http/drain.js";
import { LOOPBACK } from "../http/guards.js";
import { serveHttp } from "../node/server.js";
import { serveStdio } from "../mcp/stdio.js";
import { serveNativeStdio } from "../native/stdio.js";
import { parseSecret } from "../native/token.js";
import { viewSurface } from "./registry.js";
import type { ServeArgs } from "./args.js";
import { fail, log } from "./log.js";

/** The stdio caller, as the tools read it (`ctx.caller`): no subject, the `--scopes` granted. */
function grantedCaller(args: ServeArgs): { caller?: { scopes: string[] } } {
  return args.scopes === undefined ? {} : { caller: { scopes: [...args.scopes] } };
}

/** Resolves with the first SIGINT or SIGTERM; a second one exits at once with code 1. */
export function stopSignal(): Promise<NodeJS.Signals> {
  let stopping: NodeJS.Signals | undefined;
  return new Promise((resolve) => {
    const on = (received: NodeJS.Signals) => {
      if (stopping !== undefined) {
        log(`${received} again: exiting now`);
        process.exit(1);
      }
      stopping = received;
      resolve(received);
    };
    // `on`, not `once`: with no listener left, a second signal would kill the process (143).
    process.on("SIGINT", on).on("SIGTERM", on);
  });
}

export async function serveNativeOnStdio(
  runtime: Runtime,
  args: ServeArgs,
  signal: Promise<NodeJS.Signals>,
): Promise<number> {
  const served = serveNativeStdio(runtime, {
    name: args.name,
    ...grantedCaller(args),
    ...(args.maxLineBytes !== undefined ? { maxLineBytes: args.maxLineBytes } : {}),
    ...responseLimitsOf(args),
  });
  log("serving native ZCP on stdio");
  const why = await Promise.race([served.done.then(() => "end" as const), signal]);
  if (why !== "end")
    await stopStdio(
      why,
      args.graceMs,
      () => served.idle(),
      (reason) => served.native.close(reason),
    );
  await flushStdout();
  log("stopped");
  return 0;
}

export async function serveMcpOnStdio(
  runtime: Runtime,
  args: ServeArgs,
  signal: Promise<NodeJS.Signals>,
): Promise<number> {
  const mcp = await serveStdio(runtime, {
    name: args.name,
    ...grantedCaller(args),
    surface: args.surfaces[0]!,
    ...(args.stage !== undefined ? { stage: args.stage } : {}),
    ...(args.maxLineBytes !== undefined ? { maxLineBytes: args.maxLineBytes } : {}),
    ...(args.codeOnly ? { codeOnly: true } : {}),
    ...responseLimitsOf(args),
  });
  log(`serving MCP on stdio`);
  // Stdin ended and every request read before was answered.
  const why = await Promise.race([mcp.done.then(() => "end" as const), signal]);
  // The runtime session first (the SDK server after it), so the calls' answers still go out.
  if (why !== "end")
    await stopStdio(
      why,
      args.graceMs,
      () => mcp.idle(),
      (reason) => mcp.endCalls(reason),
    );
  await mcp.close();
  // Let the last answers reach the host before the process ends.
  await flushStdout();
  log("stopped");
  return 0;
}

export async function serveOnHttp(
  runtime: Runtime,
  args: ServeArgs,
  signal: Promise<NodeJS.Signals>,
): Promise<number> {
  const { host, port, token, surfaces } = args;
  const hostName = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const wildcard = host === "0.0.0.0" || host === "::" || host === "[::]";
  if (token === undefined && !LOOPBACK.includes(hostName))
    log(
      `warning: listening on ${host} without --token: anyone who reaches it can call every exposed tool`,
    );
  let served;
  try {
    served = await serveHttp(runtime, {
      name: args.name,
      surface: "mcp",
      ...(args.stage !== undefined ? { stage: args.stage } : {}),
      views: Object.fromEntries(
        args.views.map((view) => [
          view.name,
          {
            surface: viewSurface(view.name),
            ...(view.stage !== undefined ? { stage: view.stage } : {}),
          },
        ]),
      ),
      mcp: surfaces.includes("mcp"),
      ...(args.codeOnly ? { codeOnly: true } : {}),
      // Native session tokens and MCP requestState are signed with --secret (a random key per
      // process without it; checked by parseServeArgs).
      ...(args.secret !== undefined ? { secret: parseSecret(args.secret) as Buffer } : {}),
      native:
        surfaces.includes("native") && (args.secret === undefined ? true : { secret: args.secret }),
      host,
      port,
      ...(token !== undefined ? { token } : {}),
      // The static token names nobody: a caller is who holds it, with the granted scopes.
      ...(args.scopes !== undefined
        ? { callerIdentity: () => ({ scopes: [...args.scopes!] }) }
        : {}),
      ...(args.maxBodiesPerAddress !== undefined
        ? { maxBodiesPerAddress: args.maxBodiesPerAddress }
        : {}),
      ...(args.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: args.bodyTimeoutMs } : {}),
      ...responseLimitsOf(args),
      // A server on another interface is reached under its own name (and, on a wildcard, any the machine has: pass them in front of a proxy).
      allowedHosts: LOOPBACK.includes(hostName) || wildcard ? LOOPBACK : [...LOOPBACK, hostName],
      onError: (error) =>
        log(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    });
  } catch (error) {
    return fail(1, `cannot listen on ${host}:${port}: ${(error as Error).message}`);
  }
  const { server, url } = served;
  const endpoints = surfaces.flatMap((surface) =>
    surface === "mcp"
      ? [url.pathname, ...args.views.map((view) => `${url.pathname}/${view.name}`)].map(
          (pathname) => new URL(pathname, url).href,
        )
      : [new URL("/zcp", url).href],
  );
  if (args.store !== undefined)
    log(`handles and 2025 MCP sessions are kept in Redis at ${withoutPassword(args.store)}`);
  log(
    `listening on ${endpoints.join(" and ")}${token !== undefined ? " (bearer token required)" : ""}`,
  );
  const received = await signal;
  log(`${received}: stopping (running calls may finish for ${args.graceMs} ms)`);
  await server.shutdown(args.graceMs);
  log("stopped");
  return 0;
}

/**
 * A stdio server's stop on a signal: it stops reading, lets running calls answer for up to
 * `graceMs`, then ends the calls still running (`cancelled`, "the server is shutting down") and
 * lets those answers be written.
 */
async function stopStdio(
  why: NodeJS.Signals,
  graceMs: number,
  idle: () => Promise<void>,
  endCalls: (reason: string) => Promise<void>,
): Promise<void> {
  log(`${why}: stopping (running calls may finish for ${graceMs} ms)`);
  process.stdin.pause();
  await waitAtMost(idle(), graceMs);
  await endCalls(SHUTTING_DOWN);
  await waitAtMost(idle(), FLUSH_MS);
}

/** A URL as it may be logged: without its password. */
function withoutPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = "";
  return parsed.href;
}

function flushStdout(): Promise<void> {
  return new Promise((resolve) => process.stdout.write("", () => resolve()));
}

function waitAtMost(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
  ]).finally(() => clearTimeout(timer));
}
