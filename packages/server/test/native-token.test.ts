/**
 * The native session as a signed token (native/token.ts) through the web-standard handler: any
 * handler holding the secret serves any request from the token alone (two handlers sharing a
 * handle storage, no session store); a tampered, expired, foreign-secret, other-identity or
 * guessed token gets the one 404 of an unknown session; a handle of one session is refused to
 * another; `session/close` drops the handles and the closed session's token opens it again
 * empty; the client keeps the newest token.
 */
import { randomBytes } from "node:crypto";
import { createRuntime } from "@zcp/runtime";
import { afterEach, describe, expect, it } from "vitest";
import kitchenSink from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import { MAX_SESSION_TOKENS, SessionTokenJar } from "@zcp/runtime/wire";
import { createNativeFetchHandler, type NativeFetchOptions } from "../src/index.js";
import { parseServeArgs } from "../src/cli/args.js";
import { parseSecret, SECRET_RULE, SessionTokens } from "../src/native/token.js";
import {
  closeNativeReplicas,
  NATIVE_SECRET as SECRET,
  nativePostTo as post,
  nativeReplicas,
  payloadFields as fields,
} from "./native-fetch.js";
import { find, load, rpc } from "./replicas.js";

const INIT = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "zcp/1", clientInfo: { name: "t", version: "0" } },
};
const GONE = {
  status: 404,
  token: null,
  body: {
    jsonrpc: "2.0",
    id: null,
    error: { code: -32001, message: "Session not found: start a new session with initialize" },
  },
};

afterEach(closeNativeReplicas);

/** Discover-profile kitchen-sink runtimes sharing one handle storage: replicas without a session store. */
const replicas = (count: number, options: NativeFetchOptions = {}) =>
  nativeReplicas(kitchenSink, count, options, {
    exposure: { defaults: { "*": { profile: "discover" } } },
  });

describe("native session tokens", () => {
  it("any replica serves any request from the token: find on A, call on B, a handle made on A read on B", async () => {
    const [a, b] = replicas(2);
    const opened = await post(a!, INIT);
    expect(opened.status).toBe(200);
    const t0 = opened.token!;
    expect(t0).toMatch(/^z1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const found = await post(a!, find(1, "load a table of rows"), t0);
    expect(found.body.result.ok).toBe(true);
    const t1 = found.token!;
    // The find changed the state: a new token, one revision on, its found tools in it.
    expect(fields(t0)[0]).toBe(0);
    expect(fields(t1)[0]).toBe(1);
    expect(fields(t1)[2]).toBe(fields(t0)[2]);
    const loaded = await post(b!, load(2), t1);
    expect(loaded.body.result).toMatchObject({ ok: true, handle: "#T1" });
    // A request that changes nothing keeps the revision.
    expect(fields(loaded.token!)[0]).toBe(1);
    const listed = await post(b!, rpc(3, "tools/list", { format: "json" }), t1);
    expect(listed.body.result.tools.map((tool: { name: string }) => tool.name)).toContain(
      "tables_load",
    );
    const made = await post(a!, load(4), t1);
    const count = await post(b!, rpc(5, "handles/count", { handle: made.body.result.handle }), t1);
    expect(count.body.result).toEqual({ ok: true, count: 3 });
    // The stage moves on B and is the view on A.
    const staged = await post(b!, rpc(6, "session/stage", { stage: "operate" }), t1);
    expect(fields(staged.token!)[0]).toBe(2);
    const again = await post(a!, rpc(7, "tools/list", { format: "json" }), staged.token!);
    expect(again.body.result.hash).toBe(staged.body.result.hash);
    // A has the session loaded at revision 1: the older token does not take the stage back.
    const old = await post(a!, rpc(8, "tools/list", { format: "json" }), t1);
    expect(old.body.result.hash).toBe(staged.body.result.hash);
  });

  it("refuses a tampered, expired, foreign-secret, other-identity or guessed token with the one 404", async () => {
    const identity = (request: Request) => request.headers.get("x-user");
    const [a, b] = replicas(2, { identity });
    const [foreign] = replicas(1, { identity, secret: randomBytes(32).toString("hex") });
    const alice = { "x-user": "alice" };
    const opened = await post(a!, INIT, undefined, alice);
    const token = opened.token!;
    expect((await post(a!, rpc(1, "ping"), token, alice)).status).toBe(200);
    const [version, payload, mac] = token.split(".") as [string, string, string];
    const changed = Buffer.from(
      JSON.stringify(fields(token).map((field, i) => (i === 3 ? "operate" : field))),
    ).toString("base64url");
    const expired = new SessionTokens(parseSecret(SECRET) as Buffer, kitchenSink.registry, -60_000);
    const refused = {
      tampered: `${version}.${changed}.${mac}`,
      "flipped mac": `${version}.${payload}.${mac.startsWith("A") ? "B" : "A"}${mac.slice(1)}`,
      "other version": `z2.${payload}.${mac}`,
      expired: expired.mint(
        { id: fields(token)[2] as string, rev: 0, stage: null, findFormat: "planner", found: [] },
        "alice",
      ),
      guessed: `z1.${Buffer.from(JSON.stringify([0, 9e9, crypto.randomUUID(), null, "planner", "", ""])).toString("base64url")}.${randomBytes(32).toString("base64url")}`,
      "a bare id": fields(token)[2] as string,
      garbage: "not a token",
    };
    for (const [why, bad] of Object.entries(refused))
      expect({ why, ...(await post(a!, rpc(2, "ping"), bad, alice)) }).toEqual({ why, ...GONE });
    expect(await post(a!, rpc(3, "ping"), token, { "x-user": "bob" })).toEqual(GONE);
    // Another replica: the same, from the token alone.
    expect((await post(b!, rpc(3, "ping"), token, alice)).status).toBe(200);
    expect(await post(b!, rpc(3, "ping"), token, { "x-user": "bob" })).toEqual(GONE);
    expect(await post(foreign!, rpc(4, "ping"), token, alice)).toEqual(GONE);
    // Without the identity at all: 401 before the token is looked at.
    expect((await post(a!, rpc(5, "ping"), token)).status).toBe(401);
  });

  it("a handle made in one session is refused to another; a guessed id finds nothing", async () => {
    const [a, b] = replicas(2);
    const one = (await post(a!, INIT)).token!;
    const found = (await post(a!, find(1, "load a table of rows"), one)).token!;
    const made = await post(a!, load(2), found);
    expect(made.body.result.handle).toBe("#T1");
    const other = (await post(b!, INIT)).token!;
    const otherFound = (await post(b!, find(1, "load a table of rows"), other)).token!;
    for (const handler of [a!, b!])
      for (const handle of ["#T1", "#T2", "#T9"])
        expect(
          (await post(handler, rpc(3, "handles/count", { handle }), otherFound)).body.result,
        ).toEqual({
          ok: false,
          error: `expired:${handle}`,
          hint: `${handle} has expired or does not exist in this session: call the tool that made it again`,
        });
  });

  it("session/close drops the handles everywhere; its answer has no token, and the old token opens the session again empty", async () => {
    const [a, b] = replicas(2);
    const opened = (await post(a!, INIT)).token!;
    const token = (await post(a!, find(1, "load a table of rows"), opened)).token!;
    expect((await post(a!, load(2), token)).body.result.handle).toBe("#T1");
    // Loaded on B too.
    expect((await post(b!, rpc(3, "handles/count", { handle: "#T1" }), token)).body.result.ok).toBe(
      true,
    );
    const closed = await post(a!, rpc(4, "session/close"), token);
    expect(closed).toEqual({
      status: 200,
      token: null,
      body: { jsonrpc: "2.0", id: 4, result: {} },
    });
    expect(a!.sessionCount).toBe(0);
    for (const handler of [a!, b!]) {
      const after = await post(handler, rpc(5, "handles/count", { handle: "#T1" }), token);
      expect(after.status).toBe(200);
      expect(after.body.result).toMatchObject({ ok: false, error: "expired:#T1" });
    }
    // The view the token carries is still its own.
    const listed = await post(a!, rpc(6, "tools/list", { format: "json" }), token);
    expect(listed.body.result.tools.map((tool: { name: string }) => tool.name)).toContain(
      "tables_load",
    );
  });

  it("keeps loaded sessions in a bounded cache: an unloaded session is loaded again from its token", async () => {
    const [a] = replicas(1, { maxSessions: 1 });
    const first = (await post(a!, INIT)).token!;
    const found = (await post(a!, find(1, "load a table of rows"), first)).token!;
    await post(a!, load(2), found);
    await post(a!, INIT);
    expect(a!.sessionCount).toBe(1);
    const back = await post(a!, rpc(3, "handles/count", { handle: "#T1" }), found);
    expect(back.body.result).toEqual({ ok: true, count: 3 });
    expect(a!.sessionCount).toBe(1);
  });

  it("takes the union of the found tools of tokens made at once from one token", async () => {
    const [a, b, c] = replicas(3);
    const t0 = (await post(a!, INIT)).token!;
    // Two finds from the same token on two replicas: two tokens of revision 1.
    const t1 = (await post(a!, find(1, "load a table of rows"), t0)).token!;
    const t2 = (await post(b!, find(2, "area of a shape"), t0)).token!;
    expect([fields(t1)[0], fields(t2)[0]]).toEqual([1, 1]);
    // A replica that sees both has both.
    await post(c!, rpc(3, "ping"), t1);
    const merged = await post(c!, rpc(4, "tools/list", { format: "json" }), t2);
    const names = merged.body.result.tools.map((tool: { name: string }) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["tables_load", "shapes_area"]));
    expect(fields(merged.token!)[0]).toBe(2);
  });
});

describe("tokens of requests that changed the state at once", () => {
  it("sent together, comma-separated, are merged: no tool found is lost, on any replica", async () => {
    const [a, b, c] = replicas(3);
    const t0 = (await post(a!, INIT)).token!;
    const t1 = (await post(a!, find(1, "load a table of rows"), t0)).token!;
    const t2 = (await post(b!, find(2, "area of a shape"), t0)).token!;
    const jar = new SessionTokenJar();
    jar.keep(t1);
    jar.keep(t2);
    expect(jar.header).toBe(`${t1}, ${t2}`);
    const merged = await post(c!, rpc(3, "tools/list", { format: "json" }), jar.header);
    const names = merged.body.result.tools.map((tool: { name: string }) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["tables_load", "shapes_area"]));
    jar.keep(merged.token!);
    expect(jar.header).toBe(merged.token);
    expect(fields(merged.token!)[0]).toBe(2);
    // The merged token alone carries both to a replica that saw neither find.
    const [fresh] = replicas(1);
    const listed = await post(fresh!, rpc(4, "tools/list", { format: "json" }), merged.token!);
    expect(listed.body.result.hash).toBe(merged.body.result.hash);
  });

  it("refuses more than MAX_SESSION_TOKENS, or tokens of two sessions, with the one 404", async () => {
    const [a] = replicas(1);
    const one = (await post(a!, INIT)).token!;
    const two = (await post(a!, INIT)).token!;
    expect(await post(a!, rpc(1, "ping"), `${one}, ${two}`)).toEqual(GONE);
    expect(
      await post(
        a!,
        rpc(2, "ping"),
        Array(MAX_SESSION_TOKENS + 1)
          .fill(one)
          .join(", "),
      ),
    ).toEqual(GONE);
    expect(
      (await post(a!, rpc(3, "ping"), Array(MAX_SESSION_TOKENS).fill(one).join(","))).status,
    ).toBe(200);
  });
});

describe("the secret", () => {
  it("takes 32 random bytes or more, as hex or base64", () => {
    expect(parseSecret(randomBytes(32).toString("hex"))).toHaveLength(32);
    expect(parseSecret(randomBytes(32).toString("base64"))).toHaveLength(32);
    expect(parseSecret(randomBytes(48).toString("base64url"))).toHaveLength(48);
    for (const weak of [
      randomBytes(31).toString("hex"),
      randomBytes(31).toString("base64"),
      "a".repeat(64),
      "password".repeat(8),
      "correct horse battery staple correct horse battery staple",
      "",
    ])
      expect(parseSecret(weak)).toBe(SECRET_RULE);
    expect(SECRET_RULE).toBe(
      "must be at least 32 random bytes, as hex (64 or more digits) or base64 (43 or more characters), e.g. the output of openssl rand -base64 32",
    );
  });

  it("zcp-serve takes it from --secret or ZCP_SERVE_SECRET, checked; --store redis:// with the native surface needs it", () => {
    const base = ["--registry", "r.js", "--transport", "http", "--surface", "both"];
    const key = randomBytes(32).toString("base64");
    const parsed = (argv: string[], env: { [name: string]: string } = {}) => {
      const result = parseServeArgs(argv, env);
      return result.kind === "serve" ? { secret: result.args.secret } : result;
    };
    expect(parsed([...base, "--secret", key])).toEqual({ secret: key });
    expect(parsed(base, { ZCP_SERVE_SECRET: key })).toEqual({ secret: key });
    expect(parsed(base)).toEqual({ secret: undefined });
    expect(parsed([...base, "--secret", "hunter2"])).toEqual({
      kind: "usage",
      message: `--secret ${SECRET_RULE}`,
    });
    expect(parsed(base, { ZCP_SERVE_SECRET: "hunter2" })).toEqual({
      kind: "usage",
      message: `ZCP_SERVE_SECRET ${SECRET_RULE}`,
    });
    expect(parsed([...base, "--store", "redis://127.0.0.1:6379"])).toEqual({
      kind: "usage",
      message:
        "--store redis://… with the native surface needs --secret (or ZCP_SERVE_SECRET): replicas must share the key that signs native session tokens",
    });
    expect(
      parsed([...base, "--store", "redis://127.0.0.1:6379"], { ZCP_SERVE_SECRET: key }),
    ).toEqual({ secret: key });
    // MCP over HTTP takes it (it signs requestState) but does not need it; stdio: an error, the
    // environment ignored.
    const mcp = ["--registry", "r.js", "--transport", "http"];
    expect(parsed([...mcp, "--store", "redis://127.0.0.1:6379"])).toEqual({ secret: undefined });
    expect(parsed(mcp, { ZCP_SERVE_SECRET: key })).toEqual({ secret: key });
    expect(
      parsed(["--registry", "r.js", "--surface", "native"], { ZCP_SERVE_SECRET: key }),
    ).toEqual({ secret: undefined });
    expect(parsed(["--registry", "r.js", "--surface", "native", "--secret", key])).toEqual({
      kind: "usage",
      message:
        "--secret applies to --transport http only (it signs native session tokens and MCP requestState)",
    });
  });

  it("a handler given a weak one does not start", () => {
    const runtime = createRuntime(kitchenSink);
    expect(() => createNativeFetchHandler(runtime, { secret: "hunter2" })).toThrow(
      new TypeError(`NativeFetchOptions.secret ${SECRET_RULE}`),
    );
  });
});
