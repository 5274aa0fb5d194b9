/**
 * Prints the planner lines of a generated registry module, one per tool:
 *   node --import tsx tools/print-planner.ts fixtures/weather/src/zcp.gen/registry.ts
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Registry } from "@zcp/runtime";

const file = process.argv[2];
if (!file) {
  process.stderr.write("usage: print-planner <generated registry.ts>\n");
  process.exit(2);
}
const { registry } = (await import(pathToFileURL(path.resolve(file)).href)) as {
  registry: Registry;
};
process.stdout.write(`${registry.tools.map((tool) => tool.planner).join("\n")}\n`);
