/**
 * The text primitives of the TypeScript type printer, as prettier prints them (printWidth 100,
 * double quotes unless a string holds more of them than single quotes, bare identifier keys):
 * `zcp gen` prints its generated files with them and the API text uses the same ones.
 */

/** The line width the generated files are laid out for (prettier's `printWidth`). */
export const PRINT_WIDTH = 100;

/** ES5 identifier names (Unicode letters included), the keys prettier leaves unquoted. */
const IDENTIFIER =
  /^[$_\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Lo}\p{Nl}][$_\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Lo}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}\u200c\u200d]*$/u;

/** An object key: bare when it is an identifier name, else a quoted string. */
export function printKey(key: string): string {
  return IDENTIFIER.test(key) ? key : printString(key);
}

/** Printed strings: generated data repeats the same ones (types, names, descriptions) often. */
const STRINGS = new Map<string, string>();
const STRINGS_MAX = 100_000;

/** A string literal with prettier's choice of quotes and escapes. */
export function printString(value: string): string {
  let printed = STRINGS.get(value);
  if (printed === undefined) {
    if (STRINGS.size >= STRINGS_MAX) STRINGS.clear();
    STRINGS.set(value, (printed = quote(value)));
  }
  return printed;
}

function quote(value: string): string {
  const raw = JSON.stringify(value).slice(1, -1);
  // Prettier's choice: double quotes unless the text holds more of them than single quotes.
  if (occurrences(raw, '"') <= occurrences(raw, "'")) return `"${raw}"`;
  // In JSON's escaping a '"' is always written '\"' and a "'" never escaped, so this swaps the
  // escapes exactly: every '\"' in `raw` is a quote of the value (a backslash of the value is
  // written '\\', which a bare '"' never follows).
  return `'${raw.replaceAll("'", "\\'").replaceAll('\\"', '"')}'`;
}

function occurrences(text: string, char: string): number {
  let count = 0;
  for (let at = text.indexOf(char); at >= 0; at = text.indexOf(char, at + 1)) count++;
  return count;
}

/**
 * Display width as prettier measures it: emoji count 2, East Asian wide and fullwidth
 * characters 2, control characters and combining diacritics 0, everything else 1.
 */
export function width(text: string): number {
  if (ASCII.test(text)) return text.length;
  let total = 0;
  // The full emoji regex is slow: only run it when an emoji-presentation character, a variation
  // selector or a keycap mark is there (every RGI emoji has one of them).
  for (const ch of MAYBE_EMOJI.test(text) ? text.replace(EMOJI, "  ") : text) {
    const code = ch.codePointAt(0)!;
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f) || (code >= 0x300 && code <= 0x36f))
      continue;
    total += isWide(code) ? 2 : 1;
  }
  return total;
}

const ASCII = /^[\x20-\x7e]*$/;
const EMOJI = new RegExp("\\p{RGI_Emoji}", "gv");
const MAYBE_EMOJI = /[\p{Emoji_Presentation}\ufe0f\u20e3]/u;

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0x303e) ||
    (code >= 0x3041 && code <= 0x33ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xa000 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}
