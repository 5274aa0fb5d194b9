/**
 * compile: what the provider rules say about each tool, as diagnostics at its declaration,
 * and, on demand, the artifact sets themselves. The rules are the runtime's (`compileEntries` of
 * @zcp/runtime/codegen), and the sets are the runtime's own (`artifactSet`), derived from the
 * registry as a server derives them; `zcp gen` needs them only for the token report
 * (`--report`) and, with `"jsonFiles": true`, the `artifacts/<provider>.json` files, so a plain
 * run applies only the rules that can refuse or weaken a tool (OpenAI's, which both OpenAI sets
 * share, and Gemini's). A tool has a lean entry exactly where it has a full one, and the
 * diagnostics are the full entries'.
 */
import {
  ARTIFACT_PROVIDERS,
  artifactSet,
  compileEntries,
  type ArtifactEntries,
  type ArtifactIssue,
  type ArtifactProvider,
  type Registry,
  type ToolDefinition,
} from "@zcp/runtime/definition";
import { diagnostic, type Code, type Diagnostic, type Severity } from "../../diagnostics.js";
import type { Site } from "../../model/index.js";

export type ArtifactSets = { [P in ArtifactProvider]: { [toolId: string]: ArtifactEntries[P] } };

/** The providers whose rules can leave a tool out or weaken it: every `ArtifactIssue` comes from them. */
const DIAGNOSED: readonly ArtifactProvider[] = ["openai-responses", "gemini"];

/** The diagnostics of one tool's provider rules, at the tool's declaration. */
export function artifactDiagnostics(tool: ToolDefinition, site: Site): Diagnostic[] {
  return compileEntries(tool, DIAGNOSED).issues.map((issue) => issueDiagnostic(tool, issue, site));
}

/**
 * The artifact sets of `registry` (full, or with `lean` the lean ones), by provider: the
 * runtime's `artifactSet` of each, the very entries a server built on this registry serves.
 */
export function artifactSets(registry: Registry, lean = false): ArtifactSets {
  return Object.fromEntries(
    ARTIFACT_PROVIDERS.map((provider) => [provider, artifactSet(registry, provider, { lean })]),
  ) as ArtifactSets;
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
