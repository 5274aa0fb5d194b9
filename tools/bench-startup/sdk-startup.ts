/**
 * Child process of `pnpm bench:startup`, the MCP SDK side: import the SDK and the generated
 * server module (zod and the 50 tool source modules with it), register the 1,000 tools with
 * their zod schemas on an `McpServer`, connect an SDK `Client` over `InMemoryTransport` and
 * ask for `tools/list` (the SDK turns every zod schema into JSON Schema on that request), then
 * serialize the listing. Prints one JSON line: phase times (ms) and what it produced.
 *
 * usage: node .work/dist/sdk-startup.js <.work/dist/.work/sdk/tools.js> [<zcp.gen/registry.js> to check fidelity] (compiled by prepare.ts)
 */
import { pathToFileURL } from "node:url";
import type { McpServer as McpServerType } from "@modelcontextprotocol/sdk/server/mcp.js";
import { listThroughClient, phases, printResult } from "./child.js";

async function main(): Promise<void> {
  const [moduleFile, registryFile] = process.argv.slice(2);
  if (!moduleFile) throw new Error("usage: sdk-startup.ts <tools.ts> [<registry.js>]");
  const mark = phases();

  const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
  // The client side too, so that the import phase pays for every module it uses.
  await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/inMemory.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  const { registerTools } = (await import(pathToFileURL(moduleFile).href)) as {
    registerTools(server: McpServerType): void;
  };
  mark("import");

  const server = new McpServer({ name: "bench-startup", version: "0.0.0" });
  registerTools(server);
  mark("build");

  const listed = await listThroughClient(server, mark);

  printResult(mark, {
    tools: listed.tools.length,
    nextCursor: listed.nextCursor,
    bytes: { "tools/list": Buffer.byteLength(listed.json) },
    ...(registryFile ? { fidelity: await fidelity(registryFile, listed.tools) } : {}),
  });
}

/**
 * Unmeasured check that the zod side lists the same tools with the same parameters: names,
 * descriptions, top-level property names and required sets (a parameter with a default is
 * optional on both sides), and as many descriptions inside each schema.
 */
async function fidelity(
  registryFile: string,
  listed: readonly { name: string; description?: string | undefined; inputSchema: object }[],
) {
  const { registry } = (await import(pathToFileURL(registryFile).href)) as {
    registry: {
      tools: {
        name: string;
        description: string;
        inputSchema: { properties?: object; required?: string[] };
      }[];
    };
  };
  const byName = new Map(listed.map((tool) => [tool.name, tool]));
  const problems: string[] = [];
  const count = (value: unknown, key: string): number =>
    value === null || typeof value !== "object"
      ? 0
      : Object.entries(value).reduce(
          (n, [k, v]) => n + (k === key && typeof v === "string" ? 1 : 0) + count(v, key),
          0,
        );
  for (const tool of registry.tools) {
    const other = byName.get(tool.name) as
      | { description?: string; inputSchema: { properties?: object; required?: string[] } }
      | undefined;
    if (!other) {
      problems.push(`${tool.name}: not listed`);
      continue;
    }
    if (other.description !== tool.description) problems.push(`${tool.name}: description differs`);
    const keys = (s: { properties?: object }) =>
      Object.keys(s.properties ?? {})
        .sort()
        .join(",");
    if (keys(other.inputSchema) !== keys(tool.inputSchema))
      problems.push(`${tool.name}: properties differ`);
    const req = (s: { required?: string[] }) => [...(s.required ?? [])].sort().join(",");
    if (req(other.inputSchema) !== req(tool.inputSchema))
      problems.push(
        `${tool.name}: required differs: ${req(other.inputSchema)} vs ${req(tool.inputSchema)}`,
      );
    if (count(other.inputSchema, "description") !== count(tool.inputSchema, "description"))
      problems.push(
        `${tool.name}: ${count(other.inputSchema, "description")} descriptions vs ${count(tool.inputSchema, "description")}`,
      );
  }
  return {
    tools: registry.tools.length,
    problems: problems.length,
    firstProblems: problems.slice(0, 5),
  };
}

main().catch((error: unknown) => {
  process.stderr.write(
    `sdk-startup failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
