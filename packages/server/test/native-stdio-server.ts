/**
 * A native ZCP stdio server for the tests: `node --import tsx native-stdio-server.ts [weather|kitchen-sink]`
 * (default kitchen-sink). Writes nothing but JSON-RPC responses to stdout.
 */
import { createRuntime } from "@zcp/runtime";
import kitchenSink from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { serveNativeStdio } from "../src/index.js";

const [fixture = "kitchen-sink"] = process.argv.slice(2);
const runtime = createRuntime(fixture === "weather" ? weather : kitchenSink, {
  approve: () => true,
});
serveNativeStdio(runtime, { name: `zcp-${fixture}` });
console.error(`zcp: serving ${fixture} natively on stdio`);
