/** The README's runnable example runs and prints what the README says. */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

it("examples/weather.ts runs end to end", () => {
  const run = spawnSync(
    process.execPath,
    ["--import", "tsx", "packages/runtime/examples/weather.ts"],
    { cwd: REPO, encoding: "utf8" },
  );
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const lines = run.stdout.trim().split("\n");
  expect(lines[0]).toBe(
    'TOOL @jnb1vo math.average(numbers:num[] "The numbers to average.") -> scalar -- "Average of a list of numbers."',
  );
  expect(lines).toContain(
    '{"ok":true,"value":{"city":"Shanghai","temperature":22,"unit":"celsius","condition":"cloudy","humidity":71}}',
  );
  expect(lines).toContain(
    '{"ok":false,"error":"invalid:$.city","hint":"expected one of: Shanghai, Beijing, Shenzhen, Hangzhou"}',
  );
  expect(lines).toContain(
    '{"ok":false,"error":"forbidden:unit.celsius_to_fahrenheit","hint":"the tool is not available in this session"}',
  );
  expect(lines.at(-1)).toBe("RET c2 22.666666666666668");
});
