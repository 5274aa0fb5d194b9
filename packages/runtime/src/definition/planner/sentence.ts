/**
 * "The first sentence" of a description, defined once: planner lines show it for tools and
 * parameters, lean provider artifacts carry it, and `zcp gen` cuts a long first paragraph to it
 * for `descriptionShort`.
 *
 * The text is the description's first paragraph (up to the first blank line) with white space
 * collapsed, cut after the first `.`, `!` or `?` (and any closing quotes or brackets) that is
 * followed by white space and then by something other than a lower-case letter, unless the
 * word it ends is a known abbreviation (`e.g.`, `i.e.`, `cf.`, `vs.`, `No.`, letters with dots
 * such as `U.S.`). Without such a stop the whole paragraph is the sentence. At most
 * `SENTENCE_MAX` characters: a longer one is cut there, ending in `…`.
 */

/** The longest first sentence kept, in characters (UTF-16 code units), `…` included. */
export const SENTENCE_MAX = 300;

/** Words that end with a dot without ending a sentence (compared in lower case, without the dot). */
const ABBREVIATIONS = new Set([
  "e.g",
  "i.e",
  "cf",
  "vs",
  "viz",
  "approx",
  "incl",
  "esp",
  "resp",
  "no",
  "nos",
  "fig",
  "figs",
  "eq",
  "ref",
  "sec",
  "vol",
  "pp",
  "mr",
  "mrs",
  "ms",
  "dr",
  "st",
  "jr",
  "sr",
]);
const STOP = /[.!?]["'”’)\]]*(?=\s|$)/g;
/** A word of single letters with dots: `U.S`, `a.m`. */
const DOTTED = /^(?:\p{L}\.)+\p{L}$/u;
const LOWER = /^\p{Ll}/u;

export function firstSentence(text: string): string {
  const paragraph = (text.split(/\n\s*\n/, 1)[0] ?? "").replace(/\s+/g, " ").trim();
  let sentence = paragraph;
  STOP.lastIndex = 0;
  for (let match = STOP.exec(paragraph); match !== null; match = STOP.exec(paragraph)) {
    const end = match.index + match[0].length;
    if (end < paragraph.length && LOWER.test(paragraph.slice(end + 1))) continue;
    if (paragraph[match.index] === "." && isAbbreviation(paragraph, match.index)) continue;
    sentence = paragraph.slice(0, end);
    break;
  }
  if (sentence.length <= SENTENCE_MAX) return sentence;
  // Not between the two halves of a surrogate pair.
  const cut = /[\uD800-\uDBFF]/.test(sentence[SENTENCE_MAX - 2]!)
    ? SENTENCE_MAX - 2
    : SENTENCE_MAX - 1;
  return `${sentence.slice(0, cut).trimEnd()}…`;
}

/** Whether the word that ends at the dot at `dot` is an abbreviation. */
function isAbbreviation(text: string, dot: number): boolean {
  const start = Math.max(text.lastIndexOf(" ", dot) + 1, 0);
  const word = text.slice(start, dot).replace(/^["'“‘(\[]+/, "");
  return ABBREVIATIONS.has(word.toLowerCase()) || DOTTED.test(word);
}
