/**
 * The operations that read a handle's value (`count`, `read`, `view`, `grep`), as pure functions
 * of the parsed value and the caller's arguments; `HandleStore` checks the handle first. Lists
 * and records are counted and viewed here, by items; text is counted, viewed and searched by
 * lines and characters in text.ts.
 *
 * Indexes are 0-based, as in JSON arrays and view offsets: `item 0` is the first item and
 * `offset 10, limit 10` the second page. The arguments come from the model, so each one is
 * checked at run time whatever its static type, and every problem is answered with
 * `invalid:<argument>` (or `invalid:<id>` when the handle's value has the wrong shape for the
 * operation) and a hint, never thrown. Hints quote the model's text and the value's keys only
 * in short, so that a hostile value or argument cannot blow up an error message.
 */
import type { JsonValue } from "../definition/registry.js";
import { failure, type CallError } from "../results/result.js";
import {
  countText,
  grepText,
  viewText,
  type CharsViewResult,
  type GrepOptions,
  type GrepResult,
  type LinesViewResult,
  type TextCountResult,
} from "./text.js";

export const VIEW_DEFAULT_LIMIT = 10;
export const VIEW_MAX_LIMIT = 100;

export interface ReadOptions {
  /** 0-based index of the list item to read; the whole value when absent. */
  readonly item?: number;
  /** Only these fields of the record read. */
  readonly fields?: readonly string[];
}

export interface ViewOptions {
  /** Only these fields of each row; a row without one of them just leaves it out. */
  readonly columns?: readonly string[];
  /** 0-based index of the first row (of a text: line); 0 by default. */
  readonly offset?: number;
  /**
   * At most this many rows: 1 to `VIEW_MAX_LIMIT`, `VIEW_DEFAULT_LIMIT` by default (of a text:
   * lines, 1 to `TEXT_VIEW_MAX_LINES`, `TEXT_VIEW_DEFAULT_LINES` by default).
   */
  readonly limit?: number;
  /** Text only, instead of lines: 0-based index of the first character. */
  readonly start?: number;
  /** Text only: at most this many characters, 1 to `TEXT_VIEW_MAX_CHARS` (`TEXT_VIEW_DEFAULT_CHARS`). */
  readonly length?: number;
}

/** Items of a list, keys of a record; lines and characters of a text. */
export type CountResult = { readonly ok: true; readonly count: number } | TextCountResult;

export interface ReadResult {
  readonly ok: true;
  readonly value: JsonValue;
}

interface RowsViewResult {
  readonly ok: true;
  readonly rows: readonly JsonValue[];
  readonly offset: number;
  readonly limit: number;
  /** Items in the whole list. */
  readonly total: number;
}

/** A page of a list's rows, or a piece of a text by lines or by characters. */
export type ViewResult = RowsViewResult | LinesViewResult | CharsViewResult;

type JsonRecord = { readonly [key: string]: JsonValue };

/** Items of a list, keys of a record, lines and characters of a text. */
export function countValue(id: string, value: JsonValue): CountResult | CallError {
  if (isList(value)) return { ok: true, count: value.length };
  if (isRecord(value)) return { ok: true, count: Object.keys(value).length };
  if (typeof value === "string") return countText(value);
  return failure(
    `invalid:${id}`,
    `${id} is ${a(value)}, not a list, a record or text: read it instead`,
  );
}

/** The lines of a text that contain a piece of text. */
export function grepValue(
  id: string,
  value: JsonValue,
  options: GrepOptions,
): GrepResult | CallError {
  if (typeof value === "string") return grepText(value, options);
  return failure(`invalid:${id}`, `${id} is ${a(value)}, not text: view or read it instead`);
}

/** The whole value, one list item, or some fields of either. */
export function readValue(
  id: string,
  value: JsonValue,
  options: ReadOptions,
): ReadResult | CallError {
  const fields = options.fields === undefined ? undefined : fieldNames(options.fields, "fields");
  if (fields !== undefined && "ok" in fields) return fields;
  let target = value;
  let label = id;
  if (options.item !== undefined) {
    const item: unknown = options.item;
    if (!isList(value))
      return failure("invalid:item", `${id} is ${a(value)}, not a list: read it without item`);
    if (typeof item !== "number" || !Number.isInteger(item)) {
      return failure(
        "invalid:item",
        `item must be a whole number (0 is the first item), got ${describe(item)}`,
      );
    }
    if (item < 0 || item >= value.length)
      return failure("invalid:item", `item ${item} is out of range: ${listSize(value.length)}`);
    target = value[item]!;
    label = `item ${item}`;
  }
  if (fields === undefined) return { ok: true, value: target };
  if (!isRecord(target)) {
    const fix =
      isList(target) && options.item === undefined
        ? "pass item to read one of its items"
        : "read it without fields";
    return failure("invalid:fields", `${label} is ${a(target)}, not a record: ${fix}`);
  }
  // A field named on a single record that it lacks is worth telling: usually a typo.
  const missing = fields.find((name) => !Object.hasOwn(target, name));
  if (missing !== undefined)
    return failure(
      "invalid:fields",
      `${label} has no field ${quote(missing)} (${listKeys(target)})`,
    );
  return { ok: true, value: pick(target, fields) };
}

/** A page of a list's items, optionally only some of their fields; a piece of a text. */
export function viewValue(
  id: string,
  value: JsonValue,
  options: ViewOptions,
): ViewResult | CallError {
  if (typeof value === "string") {
    if (options.columns !== undefined)
      return failure("invalid:columns", `${id} is text, which has no columns: view it by lines`);
    return viewText(id, value, options);
  }
  if (!isList(value))
    return failure(`invalid:${id}`, `${id} is ${a(value)}, not a list or text: use read`);
  if (options.start !== undefined || options.length !== undefined)
    return failure(
      "invalid:start",
      `start and length view text by characters; ${id} is a list: view it by rows (offset, limit)`,
    );
  const offset: unknown = options.offset ?? 0;
  const limit: unknown = options.limit ?? VIEW_DEFAULT_LIMIT;
  if (typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) {
    return failure(
      "invalid:offset",
      `offset must be a whole number from 0, got ${describe(offset)}`,
    );
  }
  if (offset > value.length)
    return failure("invalid:offset", `offset ${offset} is past the end: ${listSize(value.length)}`);
  if (
    typeof limit !== "number" ||
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > VIEW_MAX_LIMIT
  ) {
    return failure(
      "invalid:limit",
      `limit must be a whole number from 1 to ${VIEW_MAX_LIMIT}, got ${describe(limit)}`,
    );
  }
  const page = value.slice(offset, offset + limit);
  const total = value.length;
  if (options.columns === undefined) return { ok: true, rows: page, offset, limit, total };
  const columns = fieldNames(options.columns, "columns");
  if ("ok" in columns) return columns;
  const rows: JsonValue[] = [];
  for (const [i, row] of page.entries()) {
    if (!isRecord(row))
      return failure(
        "invalid:columns",
        `columns need records, but item ${offset + i} is ${a(row)}`,
      );
    rows.push(pick(row, columns));
  }
  return { ok: true, rows, offset, limit, total };
}

function fieldNames(names: unknown, argument: "fields" | "columns"): readonly string[] | CallError {
  if (Array.isArray(names) && names.length > 0 && names.every((name) => typeof name === "string"))
    return names as string[];
  return failure(`invalid:${argument}`, `${argument} must be a non-empty list of field names`);
}

/**
 * The named own fields of `record`. `Object.hasOwn` and `fromEntries` (which defines rather
 * than assigns) keep names such as `__proto__` or `constructor` plain data.
 */
function pick(record: JsonRecord, names: readonly string[]): JsonRecord {
  return Object.fromEntries(
    names.filter((name) => Object.hasOwn(record, name)).map((name) => [name, record[name]!]),
  );
}

function isList(value: JsonValue): value is readonly JsonValue[] {
  return Array.isArray(value);
}

function isRecord(value: JsonValue): value is JsonRecord {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function listSize(length: number): string {
  if (length === 0) return "the list is empty";
  if (length === 1) return "the list has 1 item (0)";
  return `the list has ${length} items (0-${length - 1})`;
}

const SHOWN_KEYS = 20;
const SHOWN_CHARS = 40;

function listKeys(record: JsonRecord): string {
  const keys = Object.keys(record);
  if (keys.length === 0) return "it has no fields";
  const more = keys.length > SHOWN_KEYS ? `, ... (${keys.length} in all)` : "";
  return `its fields: ${keys.slice(0, SHOWN_KEYS).map(quote).join(", ")}${more}`;
}

function quote(text: string): string {
  return JSON.stringify(text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}...` : text);
}

/** A model-given argument, briefly. */
function describe(value: unknown): string {
  if (typeof value === "string") return quote(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null)
    return String(value);
  return a(value);
}

function a(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "a record" : `a ${typeof value}`;
}
