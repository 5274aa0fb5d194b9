/**
 * Serves the weather fixture to MCP hosts:
 *   node --import tsx packages/server/examples/serve-weather.ts              # stdio
 *   node --import tsx packages/server/examples/serve-weather.ts --http 8080  # http://127.0.0.1:8080/mcp
 * Logs go to stderr; over stdio, stdout carries nothing but MCP messages.
 */
import { createRuntime } from "@zcp/runtime";
import generated from "../../../fixtures/weather/src/zcp.gen/index.js";
import { serveStdio } from "../src/index.js";
import { serveHttp } from "../src/node/index.js";

const runtime = createRuntime(generated);
const at = process.argv.indexOf("--http");
if (at === -1) {
  await serveStdio(runtime, { name: "zcp-weather" });
  console.error("zcp-weather: serving MCP on stdio");
} else {
  const port = Number(process.argv[at + 1] ?? 8080);
  const { server, url } = await serveHttp(runtime, { name: "zcp-weather", port });
  console.error(`zcp-weather: serving MCP on ${url.href}`);
  const stop = () => server.close(() => process.exit(0));
  process.once("SIGINT", stop).once("SIGTERM", stop);
}
