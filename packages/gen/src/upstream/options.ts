/**
 * upstream: the `fromMcp` configuration key: the upstream server, the alias prefix, the groups
 * every tool gets, and per upstream tool what MCP cannot say (alias, groups, stages, output
 * mode, scopes, flags) or that it is left out.
 */
import { TOOL_FLAGS, type OutputMode, type ToolFlag } from "@zcp/runtime/definition";
import { upstreamServer, type UpstreamServer } from "./server.js";

/** What the configuration adds to one upstream tool. */
export interface ToolOverride {
  readonly alias?: string;
  readonly groups?: readonly string[];
  readonly stages?: readonly string[];
  readonly output?: OutputMode;
  readonly scopes?: readonly string[];
  readonly flags?: readonly ToolFlag[];
  readonly exclude?: true;
}

/** A validated `fromMcp`. */
export interface FromMcp {
  readonly server: UpstreamServer;
  /** The alias prefix; by default the upstream's `serverInfo.name`, made alias-safe. */
  readonly name?: string;
  /** Groups every tool of the upstream is in (before its own `groups`). */
  readonly groups?: readonly string[];
  /** By upstream tool name. */
  readonly tools?: { readonly [tool: string]: ToolOverride };
}

const KEYS = ["server", "name", "groups", "tools"];
const TOOL_KEYS = ["alias", "groups", "stages", "output", "scopes", "flags", "exclude"];
const OUTPUTS: readonly OutputMode[] = ["auto", "handle", "scalar"];
/** What the runtime takes as an alias (letters, digits, `_`, `.`, `-`; not starting with a digit, `.` or `-`). */
const ALIAS = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
/** An alias prefix: one segment, no `.`. */
const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** `value` as a `FromMcp`, or what is wrong with it. */
export function fromMcpOption(value: unknown): FromMcp | string {
  const at = `"fromMcp"`;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return `${at} must be an object with "server"`;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (!KEYS.includes(key)) return `${at}: unknown key "${key}" (known: ${KEYS.join(", ")})`;
  if (record.server === undefined) return `${at} must have "server"`;
  const server = upstreamServer(record.server, `${at}.server`);
  if (typeof server === "string") return server;
  if (record.name !== undefined && (typeof record.name !== "string" || !NAME.test(record.name)))
    return `${at}: "name" must be an alias prefix (letters, digits, _ and -, not starting with a digit or -), got ${JSON.stringify(record.name)}`;
  const groups = strings(record.groups, `${at}: "groups"`);
  if (groups) return groups;
  const tools = record.tools;
  if (tools !== undefined) {
    if (typeof tools !== "object" || tools === null || Array.isArray(tools))
      return `${at}: "tools" must be an object keyed by upstream tool name`;
    for (const [tool, override] of Object.entries(tools)) {
      const problem = toolOverride(override, `${at}.tools[${JSON.stringify(tool)}]`);
      if (problem) return problem;
    }
  }
  return record as unknown as FromMcp;
}

function toolOverride(value: unknown, at: string): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return `${at} must be an object`;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (!TOOL_KEYS.includes(key))
      return `${at}: unknown key "${key}" (known: ${TOOL_KEYS.join(", ")})`;
  const { alias, output, flags, exclude } = record;
  if (
    alias !== undefined &&
    (typeof alias !== "string" || !ALIAS.test(alias) || alias.endsWith(".") || alias.includes(".."))
  )
    return `${at}: "alias" must be a tool alias such as "memory.search" (letters, digits, _, . and -), got ${JSON.stringify(alias)}`;
  if (output !== undefined && !OUTPUTS.includes(output as OutputMode))
    return `${at}: "output" must be one of ${OUTPUTS.join(", ")}, got ${JSON.stringify(output)}`;
  if (
    flags !== undefined &&
    !(Array.isArray(flags) && flags.every((flag) => TOOL_FLAGS.includes(flag as ToolFlag)))
  )
    return `${at}: "flags" must be an array of ${TOOL_FLAGS.join(", ")}`;
  if (exclude !== undefined && exclude !== true) return `${at}: "exclude" must be true when given`;
  for (const key of ["groups", "stages", "scopes"]) {
    const problem = strings(record[key], `${at}: "${key}"`);
    if (problem) return problem;
  }
  return null;
}

function strings(value: unknown, at: string): string | null {
  return value === undefined ||
    (Array.isArray(value) && value.every((v) => typeof v === "string" && v !== ""))
    ? null
    : `${at} must be an array of non-empty strings`;
}
