/**
 * extract: a tool's own tags: `@tool <alias>`, `@id`, `@title`, `@output`, `@handleKind`,
 * `@maxResultTokens`, `@groups`/`@stages`/`@scopes` words, `@flags`, `@deprecated` and `@describe`,
 * each checked (ZCP1301).
 */
import type { ts } from "@ts-morph/common";
import { TOOL_FLAGS, type OutputMode, type ToolFlag } from "@zcp/runtime/definition";
import { DESCRIBE_MODES, type Describe } from "../config.js";
import type { Code } from "../diagnostics.js";
import type { Tag } from "./jsdoc.js";

const OUTPUT_MODES = new Set<OutputMode>(["scalar", "handle", "auto"]);
/** Tags that say one thing; a second one is a mistake, not an override. */
const ONCE = new Set([
  "tool",
  "id",
  "title",
  "output",
  "handleKind",
  "maxResultTokens",
  "deprecated",
  "describe",
]);
/** The largest `@maxResultTokens`: past it no host reads a result whole anyway. */
const MAX_RESULT_TOKENS = 1_000_000;
const FLAGS = new Set<ToolFlag>(TOOL_FLAGS);
const ALIAS = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$/;
const ID = /^[A-Za-z0-9_]{1,32}$/;
const WORD = /^[A-Za-z0-9_][A-Za-z0-9_.:/-]*$/;
const KIND = /^[a-z][a-z0-9_]*$/;

/** What a tool's own tags say (`ExtractedTool`'s fields of the same names; `handleKind` null for the default). */
export interface ToolOptions {
  alias: string | null;
  id: string | null;
  title: string | null;
  outputMode: OutputMode;
  groups: string[];
  stages: string[];
  flags: ToolFlag[];
  scopes: string[];
  deprecated: string | null;
  handleKind: string | null;
  /** `@maxResultTokens`: the tool's budget for an `auto` result, in tokens; null when not set. */
  maxResultTokens: number | null;
  /** `@describe first|full`, or null for the configuration's `describe`. */
  describe: Describe | null;
}

/** Reads the tool-level tags (`@tool`, `@id`, `@title`, `@output`, `@handleKind`, groups, `@flags`...); bad ones are diagnosed and skipped. */
export function readToolTags(
  tags: Tag[],
  diagnose: (node: ts.Node, code: Code, message: string) => void,
): ToolOptions {
  const options: ToolOptions = {
    alias: null,
    id: null,
    title: null,
    outputMode: "auto",
    handleKind: null,
    groups: [],
    stages: [],
    flags: [],
    scopes: [],
    deprecated: null,
    maxResultTokens: null,
    describe: null,
  };
  let budgetTag: Tag | undefined;
  const words = (tag: Tag, pattern: RegExp, what: string): string[] => {
    const list = tag.text.split(/[\s,]+/).filter(Boolean);
    const bad = list.find((word) => !pattern.test(word));
    if (bad !== undefined)
      diagnose(tag.node, "ZCP1301", `@${tag.name}: "${bad}" is not a valid ${what}`);
    if (list.length === 0)
      diagnose(tag.node, "ZCP1301", `@${tag.name}: expected at least one ${what}`);
    return [...new Set(list.filter((word) => pattern.test(word)))].sort();
  };
  const seen = new Set<string>();
  for (const tag of tags) {
    if (ONCE.has(tag.name) && seen.has(tag.name)) {
      diagnose(tag.node, "ZCP1301", `@${tag.name} is given more than once`);
      continue;
    }
    seen.add(tag.name);
    switch (tag.name) {
      case "tool":
        if (tag.text === "") break;
        if (ALIAS.test(tag.text) && tag.text.length <= 64) options.alias = tag.text;
        else
          diagnose(
            tag.node,
            "ZCP1301",
            `@tool: "${tag.text}" is not a valid alias (dotted names of letters, digits, "_" and "-", at most 64 characters)`,
          );
        break;
      case "id":
        if (ID.test(tag.text)) options.id = tag.text;
        else
          diagnose(
            tag.node,
            "ZCP1301",
            `@id: "${tag.text}" is not a valid id (1 to 32 letters, digits or "_")`,
          );
        break;
      case "title":
        if (tag.text) options.title = tag.text;
        else diagnose(tag.node, "ZCP1301", "@title: expected a title");
        break;
      case "output":
        if (OUTPUT_MODES.has(tag.text as OutputMode)) options.outputMode = tag.text as OutputMode;
        else
          diagnose(
            tag.node,
            "ZCP1301",
            `@output: expected scalar, handle or auto, got "${tag.text}"`,
          );
        break;
      case "handleKind":
        if (KIND.test(tag.text)) options.handleKind = tag.text;
        else
          diagnose(
            tag.node,
            "ZCP1301",
            `@handleKind: "${tag.text}" is not a valid kind (lower-case letters, digits, "_")`,
          );
        break;
      case "groups":
        options.groups = words(tag, WORD, "group name");
        break;
      case "stages":
        options.stages = words(tag, WORD, "stage name");
        break;
      case "scopes":
        options.scopes = words(tag, WORD, "scope");
        break;
      case "flags": {
        const flags = tag.text.split(/[\s,]+/).filter(Boolean);
        const unknown = flags.filter((flag) => !FLAGS.has(flag as ToolFlag));
        if (flags.length === 0)
          diagnose(
            tag.node,
            "ZCP1301",
            `@flags: expected at least one flag (${[...FLAGS].join(", ")})`,
          );
        else if (unknown.length > 0)
          diagnose(
            tag.node,
            "ZCP1301",
            `@flags: unknown flag "${unknown[0]}" (known: ${[...FLAGS].join(", ")})`,
          );
        else {
          const both = flags.find((flag) => flags.includes(`!${flag}`));
          if (both !== undefined)
            diagnose(tag.node, "ZCP1301", `@flags: ${both} and !${both} contradict each other`);
        }
        options.flags = [
          ...new Set(flags.filter((flag): flag is ToolFlag => FLAGS.has(flag as ToolFlag))),
        ].sort();
        break;
      }
      case "deprecated":
        options.deprecated = tag.text;
        break;
      case "maxResultTokens": {
        const tokens = /^[1-9][0-9]{0,6}$/.test(tag.text) ? Number(tag.text) : 0;
        if (tokens >= 1 && tokens <= MAX_RESULT_TOKENS) {
          options.maxResultTokens = tokens;
          budgetTag = tag;
        } else
          diagnose(
            tag.node,
            "ZCP1301",
            `@maxResultTokens: expected a whole number of tokens from 1 to ${MAX_RESULT_TOKENS}, got "${tag.text}"`,
          );
        break;
      }
      case "describe":
        if (DESCRIBE_MODES.includes(tag.text as Describe)) options.describe = tag.text as Describe;
        else diagnose(tag.node, "ZCP1301", `@describe: expected first or full, got "${tag.text}"`);
        break;
    }
  }
  // A budget sizes `auto` results only: a scalar result is always inline, a handle always kept.
  if (budgetTag && options.outputMode !== "auto") {
    diagnose(
      budgetTag.node,
      "ZCP1301",
      `@maxResultTokens: applies to @output auto results, not ${options.outputMode}`,
    );
    options.maxResultTokens = null;
  }
  return options;
}
