/**
 * The tokenizer of the tool index, shared by `zcp gen` (which builds the index) and the runtime
 * (which reads queries): lowercase runs of Unicode letters and digits, a fixed English
 * stop-word list dropped, and a light plural stemmer. Identifiers (aliases, parameter names)
 * are also split on camelCase, and each dotted or underscored segment is kept whole.
 */

/** Words too common to rank by. */
const STOP_WORDS: ReadonlySet<string> = new Set([
  "a",
  "an",
  "the",
  "of",
  "to",
  "in",
  "for",
  "and",
  "or",
  "on",
  "with",
  "by",
  "is",
  "it",
  "as",
  "at",
  "be",
  "this",
  "that",
  "from",
]);

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A light plural stemmer: `ies` → `y`, `es` after s/x/ch/sh dropped, a final `s` not after `s`
 * dropped; words of three letters or fewer are left alone (`gas`, `bus`, `yes`).
 */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (/(s|x|ch|sh)es$/u.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** The terms of a text, in order (repeats kept): lowercase words, stop words dropped, stemmed. */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    if (!STOP_WORDS.has(match[0])) terms.push(stem(match[0]));
  }
  return terms;
}

/**
 * The terms of an identifier such as `weather.getForecast` or `max_results`: its camelCase words
 * (`weather`, `get`, `forecast`) and each segment whole (`getforecast`) when it differs.
 */
export function identifierTerms(identifier: string): string[] {
  const words = tokenize(identifier.replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2"));
  const segments = tokenize(identifier).filter((segment) => !words.includes(segment));
  return [...words, ...segments];
}
