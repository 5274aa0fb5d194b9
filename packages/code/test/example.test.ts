/** The README's runnable example runs and prints what the README says. */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

it("examples/weather.ts runs end to end", () => {
  const run = spawnSync(
    process.execPath,
    ["--import", "tsx", "packages/code/examples/weather.ts"],
    {
      cwd: REPO,
      encoding: "utf8",
    },
  );
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  expect(run.stdout.trim().split("\n")).toEqual([
    "math.average math.subtract unit.celsius_to_fahrenheit weather.get_current zcp.run",
    '{"ok":true,"value":{"value":{"mean":22.666666666666668,"fahrenheit":72.8},"logs":["cities: 3"]}}',
    '{"ok":false,"error":"program_error","hint":"ToolError: invalid:$.city: expected one of: Shanghai, Beijing, Shenzhen, Hangzhou"}',
  ]);
});
