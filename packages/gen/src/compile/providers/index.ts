/**
 * compile: what the provider rules say about each tool, as diagnostics at its declaration,
 * and, on demand, the artifact sets themselves. The rules are the runtime's (`compileEntries` of
 * @zcp/runtime/codegen), which derives the same entries from the registry when it serves them;
 * `zcp gen` needs the sets only for the token report (`--report`) and, with `"jsonFiles": true`,
 * the `artifacts/<provider>.json` files, so a plain run applies only the rules that can refuse
 * or weaken a tool (OpenAI's, which both OpenAI sets share, and Gemini's).
 *
 * Lean sets (`compileLeanEntries`): a tool has a lean entry exactly where it has a full one, and
 * the diagnostics are the full entries'.
 */
import {
  ARTIFACT_PROVIDERS,
  compileEntries,
  compileLeanEntries,
  type ArtifactEntries,
  type ArtifactIssue,
  type ArtifactProvider,
  type ToolDefinition,
  type ToolEntries,
} from "@zcp/runtime/codegen";
import { diagnostic, type Code, type Diagnostic, type Severity } from "../../diagnostics.js";
import type { Site } from "../../model/index.js";

export type ArtifactSets = { [P in ArtifactProvider]: { [toolId: string]: ArtifactEntries[P] } };

/** The providers whose rules can leave a tool out or weaken it: every `ArtifactIssue` comes from them. */
const DIAGNOSED: readonly ArtifactProvider[] = ["openai-responses", "gemini"];

/** The diagnostics of one tool's provider rules, at the tool's declaration. */
export function artifactDiagnostics(tool: ToolDefinition, site: Site): Diagnostic[] {
  return compileEntries(tool, DIAGNOSED).issues.map((issue) => issueDiagnostic(tool, issue, site));
}

/** Each tool's full and lean entries, kept per definition (a pure function of it; definitions are not changed). */
const FULL = new WeakMap<ToolDefinition, ToolEntries>();
const LEAN = new WeakMap<ToolDefinition, ToolEntries>();

/** The artifact sets of `tools` (full, or with `lean` the lean ones), by provider, in the tools' order. */
export function artifactSets(tools: readonly ToolDefinition[], lean = false): ArtifactSets {
  const sets = Object.fromEntries(ARTIFACT_PROVIDERS.map((provider) => [provider, {}])) as {
    [P in ArtifactProvider]: { [toolId: string]: unknown };
  };
  for (const tool of tools) {
    let entries = FULL.get(tool);
    if (entries === undefined) FULL.set(tool, (entries = compileEntries(tool).entries));
    if (lean) {
      const full = entries;
      entries = LEAN.get(tool);
      if (entries === undefined) LEAN.set(tool, (entries = compileLeanEntries(tool, full)));
    }
    for (const provider of ARTIFACT_PROVIDERS) {
      const entry = entries[provider];
      if (entry) sets[provider][tool.id] = entry;
    }
  }
  return sets as ArtifactSets;
}

/** ZCP1501 (not strict), ZCP1502 (over OpenAI's limits), ZCP1503 (no Gemini entry). */
function issueDiagnostic(tool: ToolDefinition, issue: ArtifactIssue, site: Site): Diagnostic {
  const at = (severity: Severity, code: Code, text: string) =>
    diagnostic(severity, code, `${tool.alias}: ${text}`, site);
  switch (issue.kind) {
    case "openai-not-strict":
      return at(
        "warning",
        "ZCP1501",
        `OpenAI strict mode cannot express it (${issue.reason}); its OpenAI entries are sent with strict: false`,
      );
    case "openai-limits":
      return at(
        "error",
        "ZCP1502",
        `its OpenAI schema exceeds the provider's limits: ${issue.exceeded.join(", ")}; it has no OpenAI entries`,
      );
    case "gemini-inexpressible":
      return at(
        "warning",
        "ZCP1503",
        `Gemini cannot declare it (${issue.reason}); it has no Gemini entry`,
      );
  }
}
