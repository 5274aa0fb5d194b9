/**
 * A stdio MCP server for the tests: `node --import tsx stdio-server.ts <weather|kitchen-sink> [pageSize]`.
 * Writes nothing but protocol messages to stdout.
 */
import { createRuntime } from "@zcp/runtime";
import kitchenSink from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { serveStdio } from "../src/index.js";

const [fixture = "weather", pageSize] = process.argv.slice(2);
const generated = fixture === "kitchen-sink" ? kitchenSink : weather;
const runtime = createRuntime(generated, { approve: () => true });
await serveStdio(runtime, {
  name: `zcp-${fixture}`,
  ...(pageSize ? { pageSize: Number(pageSize) } : {}),
});
console.error(`zcp: serving ${fixture} on stdio`);
