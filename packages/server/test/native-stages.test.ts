/**
 * Server-set stages on the native surface over HTTP (`clientStages: false`): the stage is the
 * server's, so it is not in the session's token, and every load of a session (its creation, and
 * each time a replica loads it from its token) goes through `onSession`, where the server
 * restores its own record. A client replaying an older token after its session was unloaded
 * does not get an older stage back; a replica that never saw the session gets the server's
 * stage from an asynchronous hook before the first message runs; a hook that fails answers
 * -32603 and leaves the token good.
 */
import { createRuntime, type Session } from "@zcp/runtime";
import { afterEach, describe, expect, it } from "vitest";
import workbench from "../../../fixtures/workbench/src/zcp.gen/index.js";
import { createNativeSession } from "../src/index.js";
import {
  closeNativeReplicas,
  nativePostTo as post,
  nativeReplicas,
  payloadFields as fields,
} from "./native-fetch.js";
import { rpc } from "./replicas.js";

const INIT = rpc(0, "initialize", { protocolVersion: "zcp/1" });
const LIST = rpc(1, "tools/list", { format: "json" });

afterEach(closeNativeReplicas);

/** The aliases of a `tools/list` (json) answer. */
const aliases = (answer: { body: any }): string[] =>
  answer.body.result.tools.map((tool: { alias: string }) => tool.alias);

/**
 * The server's own record of the stages it set, by session id, and the `onSession` hook that
 * restores it on every load (after `delayMs`, as a remote store would).
 */
function serverStages(delayMs = 0) {
  const record = new Map<string, string | null>();
  const loads: { id: string; loaded: boolean }[] = [];
  const sessions: Session[] = [];
  const onSession = async (session: Session, load: { readonly loaded: boolean }) => {
    loads.push({ id: session.id, loaded: load.loaded });
    sessions.push(session);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (record.has(session.id)) session.setStage(record.get(session.id)!);
  };
  /** The server moves a session's stage: on the loaded session, and in its record. */
  const move = (session: Session, stage: string) => {
    session.setStage(stage);
    record.set(session.id, stage);
  };
  return { onSession, move, loads, sessions };
}

describe("server-set stages (clientStages: false)", () => {
  it("a client replaying an older token after its session was unloaded does not get the older stage back", async () => {
    const stages = serverStages();
    const [handler] = nativeReplicas(workbench, 1, {
      clientStages: false,
      stage: "setup",
      maxSessionsPerClient: 1,
      onSession: stages.onSession,
    });
    const opened = await post(handler!, INIT);
    const old = opened.token!;
    // The stage is the server's: the token carries none.
    expect(fields(old)[3]).toBeNull();
    const setup = await post(handler!, LIST, old);
    expect(aliases(setup)).toContain("excel.create_workbook");
    const [kept] = stages.sessions;
    stages.move(kept!, "verify");
    const verify = await post(handler!, LIST, old);
    expect(verify.body.result.hash).not.toBe(setup.body.result.hash);
    // A second session of the same client unloads the first (maxSessionsPerClient: 1) …
    expect((await post(handler!, INIT)).status).toBe(200);
    // … and the older token loads it again at the server's stage, not the token's.
    const replayed = await post(handler!, LIST, old);
    expect(replayed.status).toBe(200);
    expect(replayed.body.result.hash).toBe(verify.body.result.hash);
    expect(aliases(replayed)).not.toContain("excel.create_workbook");
    expect(aliases(replayed)).toContain("excel.validate_excel_range");
    expect(fields(replayed.token!)[3]).toBeNull();
    expect(stages.loads).toEqual([
      { id: kept!.id, loaded: false },
      { id: expect.any(String), loaded: false },
      { id: kept!.id, loaded: true },
    ]);
    // The client cannot move it either.
    const refused = await post(handler!, rpc(2, "session/stage", { stage: "setup" }), old);
    expect(refused.body.error).toEqual({
      code: -32602,
      message: "Invalid params: this server does not let clients change the stage",
    });
  });

  it("a replica that never saw the session waits for the asynchronous hook and serves the server's stage", async () => {
    const stages = serverStages(20);
    const [a, b] = nativeReplicas(workbench, 2, {
      clientStages: false,
      stage: "setup",
      onSession: stages.onSession,
    });
    const opened = await post(a!, INIT);
    const setup = await post(a!, LIST, opened.token!);
    stages.move(stages.sessions[0]!, "verify");
    const onA = await post(a!, LIST, opened.token!);
    const onB = await post(b!, LIST, opened.token!);
    expect(onB.body.result.hash).toBe(onA.body.result.hash);
    expect(onB.body.result.hash).not.toBe(setup.body.result.hash);
    expect(stages.loads.map((load) => load.loaded)).toEqual([false, true]);
  });

  it("with clientStages (the default) the token carries the stage, and onSession sees every load", async () => {
    const stages = serverStages();
    const [a, b] = nativeReplicas(workbench, 2, { onSession: stages.onSession });
    const opened = await post(a!, INIT);
    const staged = await post(a!, rpc(2, "session/stage", { stage: "verify" }), opened.token!);
    expect(fields(staged.token!)[3]).toBe("verify");
    const onB = await post(b!, LIST, staged.token!);
    expect(onB.body.result.hash).toBe(staged.body.result.hash);
    expect(stages.loads.map((load) => load.loaded)).toEqual([false, true]);
  });

  it("a session of its own (stdio, createNativeSession) answers no message before its asynchronous hook has run", async () => {
    const stages = serverStages(20);
    const native = createNativeSession(createRuntime(workbench), {
      clientStages: false,
      stage: "setup",
      onSession: async (session, load) => {
        await stages.onSession(session, load);
        session.setStage("verify");
      },
    });
    const answer = (await native.handle(INIT)) as any;
    expect(answer.result.stage).toBe("verify");
    expect(stages.loads).toEqual([{ id: native.session.id, loaded: false }]);
    await native.close();
  });

  it("a hook that fails answers -32603, goes to onError, and leaves the token good for the next load", async () => {
    const errors: unknown[] = [];
    let fail = true;
    const [a, b] = nativeReplicas(workbench, 2, {
      clientStages: false,
      onError: (error) => errors.push(error),
      onSession: async (_session, load) => {
        if (load.loaded && fail) throw new Error("the stage store is down");
      },
    });
    const opened = await post(a!, INIT);
    const failed = await post(b!, LIST, opened.token!);
    expect(failed.status).toBe(200);
    expect(failed.body).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32603, message: "Internal error" },
    });
    expect(failed.token).not.toBeNull();
    expect(errors).toEqual([new Error("the stage store is down")]);
    expect(b!.sessionCount).toBe(0);
    fail = false;
    const served = await post(b!, LIST, failed.token!);
    expect(served.body.result.count).toBeGreaterThan(0);
  });
});
