/**
 * A call script: the agent's task for one server and the tool calls it makes, by the original's
 * MCP names, with what the agent reads of each result and where it decides from what it read.
 * drive.ts runs it turn by turn, programs.ts derives code mode's programs from it.
 */
import type { JsonValue } from "@zcp/runtime";

export interface Step {
  /** The original's MCP tool name. */
  readonly tool: string;
  readonly args: { readonly [name: string]: JsonValue };
  /**
   * The agent reads this result whole (a handle is read back, a program returns it); otherwise
   * what it is told suffices.
   */
  readonly needs?: "all";
  /** The words the agent searches for this tool with (discover mode). */
  readonly find?: string;
  /**
   * The agent chose this call's arguments from what it read of an earlier result: in code mode
   * a program ends before this step and the next program starts with it (programs.ts).
   */
  readonly decision?: true;
}

export interface Script {
  readonly server: string;
  /** The user's request that opens the conversation. */
  readonly task: string;
  readonly steps: readonly Step[];
}
