/**
 * Child process of `pnpm bench:startup`, the zcp side. Two modes:
 *
 * - `render`: import the generated module (registry, validators, the dispatch table and with it
 *   the 50 tool source modules, the artifact loader) and @zcp/runtime, create a runtime and a
 *   session, and render the exposed view's planner text and its `openai-responses` and `mcp`
 *   artifacts, serialized to JSON (what would be sent);
 * - `mcp`: the same runtime behind the SDK's low-level `Server` (tools/list answers
 *   `session.exposed.artifacts("mcp")`, tools/call calls `session.call`), connect the SDK
 *   `Client` over `InMemoryTransport` and ask for `tools/list`, as the SDK side does.
 *
 * Prints one JSON line: phase times (ms) and what it produced.
 *
 * usage: node .work/dist/zcp-startup.js render|mcp <.work/dist/.work/project/src/zcp.gen/index.js> (compiled by prepare.ts)
 */
import { pathToFileURL } from "node:url";
import type { GeneratedModule } from "@zcp/runtime";
import { listThroughClient, phases, printResult } from "./child.js";

async function main(): Promise<void> {
  const [mode, indexFile] = process.argv.slice(2);
  if ((mode !== "render" && mode !== "mcp") || !indexFile)
    throw new Error("usage: zcp-startup.ts render|mcp <zcp.gen/index.ts>");
  const mark = phases();
  const { createRuntime } = await import("@zcp/runtime");
  const { default: generated } = (await import(pathToFileURL(indexFile).href)) as {
    default: GeneratedModule;
  };
  if (mode === "render") {
    mark("import");
    const runtime = createRuntime(generated);
    const session = runtime.session();
    mark("build");
    const view = session.exposed;
    const planner = view.planner;
    const openai = JSON.stringify(view.artifacts("openai-responses"));
    const mcp = JSON.stringify(view.artifacts("mcp"));
    mark("render");
    printResult(mark, {
      tools: view.tools.length,
      plannerLines: planner.split("\n").length,
      bytes: {
        planner: Buffer.byteLength(planner),
        "openai-responses": Buffer.byteLength(openai),
        mcp: Buffer.byteLength(mcp),
      },
    });
    return;
  }

  const { Server } = await import("@modelcontextprotocol/sdk/server/index.js");
  // The client side too, so that the import phase pays for every module it uses.
  await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/inMemory.js"),
  ]);
  const { CallToolRequestSchema, ListToolsRequestSchema } =
    await import("@modelcontextprotocol/sdk/types.js");
  mark("import");

  const runtime = createRuntime(generated);
  const session = runtime.session({ surface: "mcp" });
  const server = new Server(
    { name: "bench-startup", version: "0.0.0" },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: session.exposed.artifacts("mcp") as never,
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const result = await session.call(request.params.name, request.params.arguments ?? {});
    return {
      content: [
        {
          type: "text",
          text: JSON.stringify(result.ok ? ("value" in result ? result.value : result) : result),
        },
      ],
      ...(result.ok ? {} : { isError: true }),
    };
  });
  mark("build");

  const listed = await listThroughClient(server, mark);
  printResult(mark, {
    tools: listed.tools.length,
    nextCursor: listed.nextCursor,
    bytes: { "tools/list": Buffer.byteLength(listed.json) },
  });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `zcp-startup failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
