/**
 * model: the server configuration's schema, from the tools that type their context's
 * configuration (`ToolContext<SinkConfig>`). The runtime validates one configuration for every
 * tool, so every such tool must read the same type: a tool whose schema differs from the first
 * one's (in declaration order) is ZCP1308 and left out, as a tool with any error is.
 */
import { canonicalJson, type JsonValue } from "@zcp/runtime/definition";
import { diagnostic, relativePath, type Diagnostic } from "../diagnostics.js";
import type { Draft } from "./define.js";

export interface ServerConfig {
  /** The configuration's schema; null when no tool types one. */
  readonly schema: JsonValue | null;
  /** The tools that read another type than the first one. */
  readonly rejected: readonly Draft[];
  readonly diagnostics: Diagnostic[];
}

/** The configuration `drafts` read; `root` is the config folder, for the places named. */
export function serverConfig(drafts: readonly Draft[], root: string): ServerConfig {
  const typed = drafts.filter((draft) => draft.tool.config !== null);
  const first = typed[0]?.tool;
  if (first === undefined) return { schema: null, rejected: [], diagnostics: [] };
  const schema = first.config as JsonValue;
  const expected = canonicalJson(schema);
  const rejected = typed.filter(
    (draft) => canonicalJson(draft.tool.config as JsonValue) !== expected,
  );
  const diagnostics = rejected.map(({ tool }) =>
    diagnostic(
      "error",
      "ZCP1308",
      `"${tool.exportName}" reads another configuration type (ToolContext<Config>) than "${first.exportName}" (${relativePath(root, first.file)}:${first.line}): one configuration serves every tool, so all must read the same type`,
      { file: tool.file, line: tool.line, column: tool.column },
    ),
  );
  return { schema, rejected, diagnostics };
}
