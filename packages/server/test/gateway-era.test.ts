/**
 * The gateway's upstream in either MCP era, against real upstreams on the official SDKs
 * (test/era-upstream.ts): a 2026-only server (the v2 SDK, `legacy: "reject"`) over stdio and
 * HTTP, a dual-era one (2026 picked), 2025 ones that answer, ignore or exit on the probe, and an
 * upstream that changes era between connections: the remembered verdict goes stale, the era is
 * probed again once and the call made again (or, when the stale call ran, failed).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { STDIO_PROBE_TIMEOUT_MS } from "../src/gateway/era.js";
import { BACKOFF_START_MS, upstream, type Upstream } from "../src/gateway/index.js";
import { CALL_CONTEXT, httpEra, stdioEra } from "./gateway-module.js";

const tmp = mkdtempSync(path.join(os.tmpdir(), "zcp-gateway-era-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const opened: Upstream[] = [];
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((each) => each.close()));
  await Promise.all(stops.splice(0).map((stop) => stop()));
});
function open(server: Parameters<typeof upstream>[0]): Upstream {
  const each = upstream(server, { name: "era" });
  opened.push(each);
  return each;
}
const failed = { code: "upstream_error", message: "it failed on purpose" };
const later = () => new Promise((resolve) => setTimeout(resolve, BACKOFF_START_MS + 50));

describe("the gateway's upstream in either era", () => {
  it("a 2026-only upstream over stdio: calls work in the 2026 era; a tool error comes back clean", async () => {
    const era = open(stdioEra("modern"));
    expect(await era.call("echo", { text: "hi" }, CALL_CONTEXT)).toBe("modern hi");
    await expect(era.call("fail", {}, CALL_CONTEXT)).rejects.toMatchObject(failed);
  });

  it("a 2026-only upstream over HTTP, and a dual-era one (2026 picked)", async () => {
    for (const kind of ["modern", "dual"]) {
      const server = await httpEra(kind);
      stops.push(server.stop);
      const era = open({ url: server.url });
      expect(await era.call("echo", { text: kind }, CALL_CONTEXT)).toBe(`modern ${kind}`);
      await expect(era.call("fail", {}, CALL_CONTEXT)).rejects.toMatchObject(failed);
    }
    expect(await open(stdioEra("dual")).call("echo", { text: "x" }, CALL_CONTEXT)).toBe("modern x");
  });

  it("2025 upstreams: one that answers the probe, one that ignores it (within the probe's bound), one that exits on it", async () => {
    for (const kind of ["legacy", "exits"])
      expect(await open(stdioEra(kind)).call("echo", { text: kind }, CALL_CONTEXT)).toBe(
        `legacy ${kind}`,
      );
    const started = Date.now();
    const silent = open(stdioEra("silent"));
    expect(await silent.call("echo", { text: "silent" }, CALL_CONTEXT)).toBe("legacy silent");
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(STDIO_PROBE_TIMEOUT_MS);
    expect(took).toBeLessThan(STDIO_PROBE_TIMEOUT_MS + 5000);
    // The verdict is remembered: the restarted child is not probed (no wait).
    await restart(silent);
    const restarted = Date.now();
    expect(await silent.call("echo", { text: "again" }, CALL_CONTEXT)).toBe("legacy again");
    expect(Date.now() - restarted).toBeLessThan(STDIO_PROBE_TIMEOUT_MS);
  });

  it("over stdio, a 2025 upstream replaced by a 2026-only one: the restart's initialize is refused, the era probed again", async () => {
    const file = path.join(tmp, "stdio-2025-2026");
    writeFileSync(file, "legacy");
    const era = open(stdioEra(`@${file}`));
    expect(await era.call("echo", { text: "a" }, CALL_CONTEXT)).toBe("legacy a");
    writeFileSync(file, "modern");
    await restart(era);
    expect(await era.call("echo", { text: "b" }, CALL_CONTEXT)).toBe("modern b");
  });

  it("over stdio, a 2026 upstream replaced by a 2025-only one: the call it ran on the stale era fails; the next probes", async () => {
    const file = path.join(tmp, "stdio-2026-2025");
    writeFileSync(file, "modern");
    const era = open(stdioEra(`@${file}`));
    expect(await era.call("echo", { text: "a" }, CALL_CONTEXT)).toBe("modern a");
    writeFileSync(file, "legacy");
    await restart(era);
    await expect(era.call("echo", { text: "b" }, CALL_CONTEXT)).rejects.toMatchObject({
      code: "upstream_error",
      message: expect.stringMatching(
        /^era answered tools\/call as a server of another protocol era \(Invalid result for tools\/call: missing required resultType.*\); the call may have run; its era is probed on the next call$/,
      ) as unknown,
    });
    expect(await era.call("echo", { text: "c" }, CALL_CONTEXT)).toBe("legacy c");
  });

  it("over HTTP, an upstream that changes era between calls: the call is refused unrun, the era probed again and the call made again", async () => {
    let server = await httpEra("legacy");
    const era = open({ url: server.url });
    expect(await era.call("echo", { text: "a" }, CALL_CONTEXT)).toBe("legacy a");
    await server.stop();
    server = await httpEra("modern", server.port);
    expect(await era.call("echo", { text: "b" }, CALL_CONTEXT)).toBe("modern b");
    await server.stop();
    server = await httpEra("legacy", server.port);
    stops.push(server.stop);
    expect(await era.call("echo", { text: "c" }, CALL_CONTEXT)).toBe("legacy c");
    await expect(era.call("fail", {}, CALL_CONTEXT)).rejects.toMatchObject(failed);
  });
});

/** Kills the upstream's child and waits until the next call starts a new one (the backoff passed). */
async function restart(era: Upstream): Promise<void> {
  process.kill(era.pid!);
  while (era.pid !== null) await new Promise((resolve) => setTimeout(resolve, 10));
  await later();
}
