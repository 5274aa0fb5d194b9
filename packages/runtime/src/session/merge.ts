/**
 * The three-way merge of session states that keeps replicas from losing each other's changes:
 * a replica that changed a session since it last read it (`base`) while another replica saved
 * it too (`stored`) keeps both. Found tools only ever grow, so they are a union; the other
 * fields have one value, and the replica that changed one since `base` wins it.
 */
import type { SessionState } from "./state.js";

/**
 * `stored` with this replica's changes since `base` applied: its fields that differ from
 * `base`, and the tools it found that `stored` lacks, after those of `stored` (in the order
 * found). `base` undefined (never stored): every field of `ours` is a change.
 */
export function mergeStates(
  base: SessionState | undefined,
  ours: SessionState,
  stored: SessionState,
): SessionState {
  const changed = <K extends "stage" | "findFormat" | "data">(key: K): SessionState[K] =>
    base === undefined || !same(ours[key], base[key]) ? ours[key] : stored[key];
  const had = new Set([...(base?.found ?? []), ...stored.found]);
  const data = changed("data");
  return {
    surface: stored.surface,
    stage: changed("stage"),
    found: [...stored.found, ...ours.found.filter((id) => !had.has(id))],
    findFormat: changed("findFormat"),
    ...(data === undefined ? {} : { data }),
  };
}

/** Whether two JSON values are the same (a session's data is JSON). */
function same(a: unknown, b: unknown): boolean {
  return a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b));
}

/** The state `json` (a `stateJson`) describes, or undefined for none. */
export function parseState(json: string | undefined): SessionState | undefined {
  return json === undefined ? undefined : (JSON.parse(json) as SessionState);
}
