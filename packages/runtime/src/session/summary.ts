/**
 * Summaries: the one line a model reads instead of a large result. The defaults say what a
 * model needs to decide its next step (how many records, which fields; which keys; how long a
 * text and how it starts); a tool can write its own with `withSummary`.
 */
const SUMMARY = Symbol.for("zcp.summary");

export interface Summarized<T> {
  readonly [SUMMARY]: string;
  readonly value: T;
}

/** Returns `value` with the summary the model should see if it becomes a handle. */
export function withSummary<T>(value: T, summary: string): Summarized<T> {
  return { [SUMMARY]: summary, value };
}

/** Splits a tool's return value into the value and the summary it set, if any. */
export function unwrapSummary(result: unknown): { value: unknown; summary: string | null } {
  if (result !== null && typeof result === "object" && SUMMARY in result) {
    const summarized = result as Summarized<unknown>;
    return { value: summarized.value, summary: String(summarized[SUMMARY]) };
  }
  return { value: result, summary: null };
}

const PREVIEW = 60;
const MAX_FIELDS = 8;

/** The default summary of a JSON value. */
export function defaultSummary(value: unknown): string {
  if (Array.isArray(value)) {
    const records = value.filter(
      (item) => item !== null && typeof item === "object" && !Array.isArray(item),
    );
    if (value.length > 0 && records.length === value.length) {
      const fields = [...new Set(records.flatMap((record) => Object.keys(record as object)))];
      return `${value.length} ${value.length === 1 ? "record" : "records"}; fields: ${listed(fields)}`;
    }
    return `${value.length} ${value.length === 1 ? "item" : "items"}`;
  }
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    return `object with ${keys.length} ${keys.length === 1 ? "key" : "keys"}: ${listed(keys)}`;
  }
  if (typeof value === "string") {
    const preview = value.length > PREVIEW ? `${value.slice(0, PREVIEW)}…` : value;
    return `text, ${value.length} chars: ${JSON.stringify(preview)}`;
  }
  return JSON.stringify(value) ?? "null";
}

function listed(names: readonly string[]): string {
  return names.length > MAX_FIELDS
    ? `${names.slice(0, MAX_FIELDS).join(", ")}, … (${names.length})`
    : names.join(", ") || "none";
}
