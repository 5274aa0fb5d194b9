/**
 * JSON pieces shared by the encodings: a strict JSON reader that works on a slice of a line and
 * reports errors by column (JSON.parse reports positions differently in every Node version, and
 * not at all in some), and the compact writer.
 *
 * The reader recurses once per nesting level and refuses to go deeper than its `maxDepth`, so
 * hostile input cannot exhaust the stack; every character is looked at a bounded number of
 * times, so it runs in linear time.
 */
import { setOwn } from "../definition/own.js";
import type { JsonValue } from "../definition/registry.js";

/** A malformed line in the text protocol; `column` is 1-based. */
export class TextProtocolError extends Error {
  override name = "TextProtocolError";
  constructor(
    message: string,
    readonly column: number,
  ) {
    super(message);
  }
}

/** Compact JSON; `undefined` (which JSON.stringify turns into no text at all) becomes `null`. */
export function compactJson(value: JsonValue | undefined): string {
  return JSON.stringify(value) ?? "null";
}

const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
const NUMBER_AT = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/** Whether `text` is a JSON number literal (`1`, `-2.5e3`; not `01`, `1.`, `+1`, `NaN`). */
export function isJsonNumber(text: string): boolean {
  return NUMBER.test(text);
}

/** Quotes `text` for an error message, cut short so that a huge token makes a short message. */
export function shown(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/** Whitespace inside a line: JavaScript's `\s` (line feeds never reach here). */
export function isSpace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * Reads exactly one JSON value from `text[start, end)`, white space around it allowed. Throws
 * `TextProtocolError` as `<context> at column N: <reason>`.
 */
export function readJson(
  text: string,
  start: number,
  end: number,
  maxDepth: number,
  context: string,
): JsonValue {
  const reader = new JsonReader(text, start, end, maxDepth, context);
  const value = reader.value(0);
  reader.space();
  if (reader.pos < end) reader.fail(`unexpected ${reader.found()} after the value`);
  return value;
}

class JsonReader {
  pos: number;

  constructor(
    private readonly text: string,
    start: number,
    private readonly end: number,
    private readonly maxDepth: number,
    private readonly context: string,
  ) {
    this.pos = start;
  }

  fail(reason: string, at = this.pos): never {
    throw new TextProtocolError(`${this.context} at column ${at + 1}: ${reason}`, at + 1);
  }

  found(): string {
    return this.pos < this.end ? JSON.stringify(this.text[this.pos]) : "the end of the value";
  }

  space(): void {
    while (this.pos < this.end) {
      const code = this.text.charCodeAt(this.pos);
      if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return;
      this.pos++;
    }
  }

  value(depth: number): JsonValue {
    this.space();
    const ch = this.pos < this.end ? this.text[this.pos] : undefined;
    switch (ch) {
      case "{":
        return this.object(depth + 1);
      case "[":
        return this.array(depth + 1);
      case '"':
        return this.string();
      case "t":
        return this.literal("true", true);
      case "f":
        return this.literal("false", false);
      case "n":
        return this.literal("null", null);
      default:
        if (ch === "-" || (ch !== undefined && ch >= "0" && ch <= "9")) return this.number();
        return this.fail(`expected a value, found ${this.found()}`);
    }
  }

  private literal(word: string, value: JsonValue): JsonValue {
    if (this.pos + word.length > this.end || !this.text.startsWith(word, this.pos)) {
      this.fail(`expected a value, found ${this.found()}`);
    }
    this.pos += word.length;
    return value;
  }

  private number(): number {
    NUMBER_AT.lastIndex = this.pos;
    const match = NUMBER_AT.exec(this.text);
    if (!match || this.pos + match[0].length > this.end) return this.fail(`invalid number`);
    const value = Number(match[0]);
    if (!Number.isFinite(value)) this.fail(`number ${shown(match[0])} is out of range`);
    this.pos += match[0].length;
    return value;
  }

  string(): string {
    const open = this.pos;
    let out = "";
    let from = ++this.pos;
    while (this.pos < this.end) {
      const code = this.text.charCodeAt(this.pos);
      if (code === 0x22) {
        out += this.text.slice(from, this.pos);
        this.pos++;
        return out;
      }
      if (code < 0x20)
        this.fail(
          `control character U+${code.toString(16).padStart(4, "0").toUpperCase()} in a string (escape it)`,
        );
      if (code === 0x5c) {
        out += this.text.slice(from, this.pos);
        out += this.escape();
        from = this.pos;
      } else this.pos++;
    }
    return this.fail("unterminated string", open);
  }

  /** Reads the escape at `pos` (a backslash) and returns the character(s) it stands for. */
  private escape(): string {
    const at = this.pos;
    const ch = this.text[at + 1];
    this.pos += 2;
    switch (ch) {
      case '"':
      case "\\":
      case "/":
        return ch;
      case "b":
        return "\b";
      case "f":
        return "\f";
      case "n":
        return "\n";
      case "r":
        return "\r";
      case "t":
        return "\t";
      case "u": {
        const hex = this.text.slice(at + 2, at + 6);
        if (at + 6 > this.end || !/^[0-9A-Fa-f]{4}$/.test(hex))
          this.fail(`invalid escape ${shown(`\\u${hex}`)}`, at);
        this.pos = at + 6;
        return String.fromCharCode(parseInt(hex, 16));
      }
      default:
        return this.fail(
          at + 1 < this.end ? `invalid escape ${shown(`\\${ch}`)}` : "unterminated string",
          at,
        );
    }
  }

  private array(depth: number): JsonValue[] {
    if (depth > this.maxDepth) this.fail(`nested deeper than ${this.maxDepth} levels`);
    this.pos++;
    const items: JsonValue[] = [];
    this.space();
    if (this.text[this.pos] === "]" && this.pos < this.end) {
      this.pos++;
      return items;
    }
    for (;;) {
      items.push(this.value(depth));
      this.space();
      const ch = this.pos < this.end ? this.text[this.pos] : undefined;
      this.pos++;
      if (ch === "]") return items;
      if (ch !== ",") {
        this.pos--;
        this.fail(`expected "," or "]", found ${this.found()}`);
      }
    }
  }

  private object(depth: number): { [key: string]: JsonValue } {
    if (depth > this.maxDepth) this.fail(`nested deeper than ${this.maxDepth} levels`);
    this.pos++;
    const record: { [key: string]: JsonValue } = {};
    this.space();
    if (this.text[this.pos] === "}" && this.pos < this.end) {
      this.pos++;
      return record;
    }
    for (;;) {
      this.space();
      if (this.text[this.pos] !== '"' || this.pos >= this.end)
        this.fail(`expected a key in double quotes, found ${this.found()}`);
      const key = this.string();
      this.space();
      if (this.text[this.pos] !== ":" || this.pos >= this.end)
        this.fail(`expected ":" after the key, found ${this.found()}`);
      this.pos++;
      setOwn(record, key, this.value(depth));
      this.space();
      const ch = this.pos < this.end ? this.text[this.pos] : undefined;
      this.pos++;
      if (ch === "}") return record;
      if (ch !== ",") {
        this.pos--;
        this.fail(`expected "," or "}", found ${this.found()}`);
      }
    }
  }
}
