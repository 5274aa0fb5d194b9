/**
 * What a thrown error tells the model (issue 30), through the runtime API on the kitchen-sink
 * fixture's `notes.*` tools: a declared `@throws` class answers its code and its message
 * (cleaned and cut); anything else answers `exec:error`, reported, with what `exposeError`
 * tells (by default Node's system errors by code, never their message). And what a tool reads
 * of its context: the configuration and the caller.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import {
  composeGenerated,
  ConfigurationError,
  createRuntime,
  systemErrorHint,
  type GeneratedModule,
  type RuntimeOptions,
} from "../src/index.js";

const UNTOLD = {
  ok: false,
  error: "exec:error",
  hint: "the tool failed; the details are in the server's log",
};

let notesDir: string;
beforeAll(async () => {
  notesDir = await mkdtemp(path.join(os.tmpdir(), "zcp-notes-"));
  await writeFile(path.join(notesDir, "todo.txt"), "buy milk");
});
afterAll(() => rm(notesDir, { recursive: true, force: true }));

/** A runtime on the kitchen sink whose reported errors are kept in `reported`. */
function runtime(options: RuntimeOptions = {}) {
  const reported: unknown[] = [];
  const created = createRuntime(kitchen, {
    onToolError: (error) => reported.push(error),
    config: { notesDir },
    ...options,
  });
  return { session: created.session(), reported };
}

describe("a declared error type (@throws)", () => {
  it("answers its code and its message, not reported", async () => {
    const { session, reported } = runtime();
    expect(await session.call("notes.lookup", { name: "nope" })).toEqual({
      ok: false,
      error: "not_found",
      hint: 'no note named "nope"',
    });
    expect(reported).toEqual([]);
  });

  it("matches the first declared class the error is an instance of", async () => {
    const { session } = runtime();
    // NoteLockedError extends NotFoundError and is declared first; its message's control
    // characters (a bell and a line break) become one space.
    expect(await session.call("notes.lookup", { name: "locked" })).toEqual({
      ok: false,
      error: "note_locked",
      hint: 'note "locked" is locked until noon',
    });
  });

  it("cuts a long message to 300 characters", async () => {
    const { session } = runtime();
    const name = "n".repeat(400);
    const answer = await session.call("notes.lookup", { name });
    expect(answer).toEqual({
      ok: false,
      error: "not_found",
      hint: `no note named "${name}"`.slice(0, 300),
    });
  });

  it("answers the declared code of a rejected promise too", async () => {
    const { session } = runtime({
      exposeError: () => undefined,
      config: { notesDir: path.join(notesDir, "missing") },
    });
    // notes.read declares NotFoundError only: ENOENT is not one, and the hook tells nothing.
    expect(await session.call("notes.read", { file: "todo.txt" })).toEqual(UNTOLD);
  });

  it("leaves any other throw untold and reported", async () => {
    const { session, reported } = runtime();
    const answer = await session.call("notes.lookup", { name: "broken" });
    expect(answer).toEqual(UNTOLD);
    expect(JSON.stringify(answer)).not.toContain("hunter2");
    expect(String(reported[0])).toContain("hunter2");
  });
});

describe("exposeError", () => {
  it("tells a Node system error by its code and fixed words by default, never its path", async () => {
    const { session, reported } = runtime();
    const answer = await session.call("notes.read", { file: "absent.txt" });
    expect(answer).toEqual({
      ok: false,
      error: "exec:error",
      hint: "ENOENT: no such file or directory (open)",
    });
    expect(JSON.stringify(answer)).not.toContain(notesDir);
    expect(String(reported[0])).toContain(notesDir);
  });

  it("tells what the application's hook returns, cleaned and cut", async () => {
    const { session } = runtime({
      exposeError: (error, tool) =>
        tool.alias === "notes.lookup" ? `lookup failed:\n${"x".repeat(400)}` : undefined,
    });
    expect(await session.call("notes.lookup", { name: "broken" })).toEqual({
      ok: false,
      error: "exec:error",
      hint: `lookup failed: ${"x".repeat(400)}`.slice(0, 300),
    });
  });

  it("tells nothing when the hook returns nothing, an empty text, or throws", async () => {
    const hooks: RuntimeOptions["exposeError"][] = [
      () => undefined,
      () => " \n ",
      () => {
        throw new Error("hook failed");
      },
    ];
    for (const exposeError of hooks) {
      const { session } = runtime({ exposeError });
      expect(await session.call("notes.read", { file: "absent.txt" })).toEqual(UNTOLD);
    }
  });

  it("composes with the default: systemErrorHint is exported", () => {
    const error = Object.assign(new Error("EACCES: permission denied, open '/etc/shadow'"), {
      code: "EACCES",
      syscall: "open",
    });
    expect(systemErrorHint(error)).toBe("EACCES: permission denied (open)");
    // Not a system error: no syscall, an unlisted code, a syscall that is not a word.
    expect(systemErrorHint(Object.assign(new Error("x"), { code: "ENOENT" }))).toBeUndefined();
    expect(systemErrorHint({ code: "ESECRET", syscall: "open" })).toBeUndefined();
    expect(systemErrorHint({ code: "ENOENT", syscall: "open '/x'" })).toBe(
      "ENOENT: no such file or directory",
    );
    expect(systemErrorHint("ENOENT")).toBeUndefined();
  });
});

describe("the context", () => {
  it("gives a tool the runtime's configuration", async () => {
    const { session } = runtime({ config: { notesDir, greeting: "Note: " } });
    expect(await session.call("notes.read", { file: "todo.txt" })).toEqual({
      ok: true,
      value: "Note: buy milk",
    });
  });

  it("refuses a configuration that does not fit the tools' type, naming the field", () => {
    const refused: [unknown, string][] = [
      [{ notesDir: 5 }, "invalid:$.notesDir (expected string)"],
      [{ notesdir: "x" }, "invalid:$.notesdir (unknown property; expected: notesDir, greeting)"],
      ["notes", "invalid:$ (expected SinkConfig object)"],
    ];
    for (const [config, why] of refused) {
      const start = () => createRuntime(kitchen, { config });
      expect(start).toThrow(ConfigurationError);
      expect(start).toThrow(`the server configuration is invalid: ${why}`);
    }
  });

  it("takes no configuration as an empty one, which a type of optional fields accepts", async () => {
    const session = createRuntime(kitchen).session();
    expect(await session.call("notes.read", { file: "todo.txt" })).toEqual({
      ok: false,
      error: "not_found",
      hint: "no notes folder is configured",
    });
  });

  it("says so when no configuration was given and the tools need one", () => {
    const needy: GeneratedModule = {
      ...kitchen,
      config: (input) =>
        typeof input === "object" && input !== null && "key" in input
          ? { ok: true, value: input }
          : { ok: false, error: "missing:$.key", hint: "expected string" },
    };
    expect(() => createRuntime(needy)).toThrow(
      "no server configuration was given, but the tools read one; the server configuration is invalid: missing:$.key (expected string)",
    );
    // Composed, one configuration must fit every module's type.
    const composed = composeGenerated([
      { module: needy, prefix: "a" },
      { module: kitchen, prefix: "b" },
    ]);
    expect(() => createRuntime(composed, { config: { key: "k" } })).toThrow(
      "invalid:$.key (unknown property; expected: notesDir, greeting)",
    );
    expect(() => createRuntime(composed, { config: { notesDir } })).toThrow("missing:$.key");
  });

  it("refuses a file name that is a path: the parameter's pattern", async () => {
    const { session } = runtime();
    expect(await session.call("notes.read", { file: "../todo.txt" })).toMatchObject({
      ok: false,
      error: "invalid:$.file",
    });
  });

  it("gives a tool the caller the surface names, else an anonymous one", async () => {
    const { session } = runtime();
    expect(await session.call("whoami", {})).toEqual({
      ok: true,
      value: { subject: null, scopes: [] },
    });
    const caller = { subject: "ann", scopes: ["notes:read"] };
    expect(await session.call("whoami", {}, { caller })).toEqual({ ok: true, value: caller });
  });
});
