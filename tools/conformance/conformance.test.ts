/**
 * The official MCP conformance suite against the built `zcp-serve` (Streamable HTTP: the suite's
 * server leg drives a URL) and against a bare server on the official SDK, the oracle
 * (`reference-server.ts`, `reference-server-v2.ts`): every check the reference passes, zcp
 * passes, except the scenarios listed in `EXPECTED_GAPS` with their reasons. The list is exact
 * both ways: a new gap fails the test, and so does an entry zcp has come to pass (remove it
 * then, and update the README's figures). */
import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { Processes, ROOT } from "../../packages/server/test/faults/harness.js";
import { startReference, type Reference } from "./reference-server.js";
import { startReferenceV2 } from "./reference-server-v2.js";
import { figures, runSuite, type Requirements, type SuiteResult } from "./suite.js";

/** The requirement sets run: both eras, against one `zcp-serve`. */
const ERAS: readonly Requirements[] = ["2025-11-25", "2026-07-28"];

/** Each set's oracle: the v1 SDK (`@modelcontextprotocol/sdk`) for 2025, the v2 SDK for 2026. */
const REFERENCES: Record<Requirements, () => Promise<Reference>> = {
  "2025-11-25": startReference,
  "2026-07-28": startReferenceV2,
};

/**
 * What the reference passes and zcp does not, by requirement set: a scenario, or one check as
 * `scenario:check-id` (the suite's own baseline grammar), with the reason.
 */
const EXPECTED_GAPS: Record<Requirements, Record<string, string>> = {
  "2025-11-25": {},
  "2026-07-28": {},
};

/**
 * The content, prompts, resources and completion scenarios, in both eras (subscriptions are
 * 2025's only).
 */
const FEATURE_SCENARIOS = [
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "json-schema-2020-12",
  "prompts-list",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "completion-complete",
];

/**
 * Scenarios zcp-serve passes outright (no check failed or warned; a check the suite skips as not
 * applicable, as `server-stateless` skips the list-changed ones for a server that declares no
 * `listChanged`, is no failure), whatever the reference does: the 2026-07-28 oracle serves the
 * four tools only, so a gap against it would not show a regression.
 */
const PASSES: Record<Requirements, readonly string[]> = {
  "2025-11-25": [...FEATURE_SCENARIOS, "resources-subscribe", "resources-unsubscribe"],
  "2026-07-28": [
    ...FEATURE_SCENARIOS,
    "caching",
    "server-stateless",
    "http-custom-header-server-validation",
    "input-required-result-non-tool-request",
  ],
};

const REGISTRY = "fixtures/conformance/src/zcp.gen/index.ts";

/** What `zcp gen` warns of the fixture: the providers that cannot take the hand-written schema. */
const EXPECTED_WARNINGS = [
  "warning ZCP1501: json_schema_2020_12_tool: OpenAI strict mode cannot express it",
  "warning ZCP1503: json_schema_2020_12_tool: Gemini cannot declare it",
];

/** `scenario:check` for every check the reference passes and zcp does not (absent included). */
function gaps(reference: SuiteResult, zcp: SuiteResult): string[] {
  const found: string[] = [];
  for (const [scenario, { byId }] of reference)
    for (const [check, status] of byId)
      if (status === "SUCCESS" && zcp.get(scenario)?.byId.get(check) !== "SUCCESS")
        found.push(`${scenario}:${check}`);
  return found;
}

it("serves a registry zcp gen keeps up to date (zcp gen --check)", () => {
  const check = spawnSync(
    process.execPath,
    [
      "packages/gen/dist/bin/zcp.js",
      "gen",
      "--check",
      "--config",
      "fixtures/conformance/zcp.config.json",
    ],
    { cwd: ROOT, encoding: "utf8" },
  );
  expect([check.status, check.stdout, check.stderr.split("\n").filter(Boolean)]).toEqual([
    0,
    expect.any(String),
    EXPECTED_WARNINGS.map((warning) => expect.stringContaining(warning)),
  ]);
});

describe.each(ERAS)("the MCP conformance suite, requirement set %s", (era) => {
  const processes = new Processes();
  afterAll(() => processes.cleanup());

  it("zcp-serve passes every check the bare SDK server passes, but the listed gaps", async () => {
    const reference = await REFERENCES[era]();
    processes.defer(() => reference.close());
    const zcp = await processes.http(["--registry", REGISTRY]);
    const [ofReference, ofZcp] = await Promise.all([
      runSuite(reference.url, era),
      runSuite(zcp.mcp, era),
    ]);
    console.log(`${era}: reference ${figures(ofReference)}; zcp-serve ${figures(ofZcp)}`);

    const found = gaps(ofReference, ofZcp);
    const entries = Object.keys(EXPECTED_GAPS[era]);
    const covers = (entry: string, gap: string) => gap === entry || gap.startsWith(`${entry}:`);
    const unlisted = found.filter((gap) => !entries.some((entry) => covers(entry, gap)));
    expect(unlisted, "checks the reference passes and zcp-serve fails").toEqual([]);
    const stale = entries.filter((entry) => !found.some((gap) => covers(entry, gap)));
    expect(stale, "EXPECTED_GAPS entries zcp-serve now passes: remove them").toEqual([]);
    const failing = PASSES[era].filter((scenario) => {
      const checks = [...(ofZcp.get(scenario)?.byId.values() ?? [])];
      return (
        checks.length === 0 || checks.some((status) => status === "FAILURE" || status === "WARNING")
      );
    });
    expect(failing, "scenarios zcp-serve must pass outright").toEqual([]);
  });
});
