/**
 * A cheap, dependency-free token estimate for sizing results (`maxResultTokens`). It must run
 * wherever the runtime runs (edge runtimes included) and cost one pass over the text, so it
 * carries no tokenizer's vocabulary; it is meant to count at least as many tokens as a real
 * tokenizer: a result estimated under the budget is under it. Its ratio to o200k_base, measured
 * over JSON results, prose and code, is in docs/decisions.md ("Result budgets in tokens").
 *
 * The rules follow how byte-pair tokenizers split text: a word of lower-case letters is one
 * token per five letters (two where it is glued to a digit, `+`, `/` or `=`, as in base64 and
 * hashes), a run of capitals one per two, of digits one per three (o200k_base groups digits by
 * three), of punctuation one per three (`":"` is one token); a space before a word is part of
 * its token, more spaces cost one per four; a line break, a tab and every character outside
 * ASCII are a token each (CJK text is about one a character; a letter with an accent breaks a
 * word in two, which the rule also counts).
 */

/** Letters of a word per token: English words are mostly one token up to this length. */
const LETTERS_PER_TOKEN = 5;
/** Letters per token of a word glued to a digit, `+`, `/` or `=` (base64, hashes, random ids). */
const GLUED_LETTERS_PER_TOKEN = 2;
/** Capitals of a run per token (acronyms, constants, base64). */
const CAPITALS_PER_TOKEN = 2;
const DIGITS_PER_TOKEN = 3;
/** Punctuation characters of a run per token: `":"`, `","`, `{"` are one token each. */
const MARKS_PER_TOKEN = 3;
/** Spaces after the first of a run (indentation) per token. */
const SPACES_PER_TOKEN = 4;

const OTHER = 0;
const MARK = 5;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const SPACE = 4;

/** The estimated token count of `text` (at least o200k_base's on the texts measured). */
export function estimateTokens(text: string): number {
  let tokens = 0;
  let previous = OTHER;
  /** Characters of the current token so far (or spaces of the current run). */
  let length = 0;
  /** Letters the current word's tokens take: fewer in a word glued to digits or marks. */
  let letters = LETTERS_PER_TOKEN;
  for (let i = 0; i < text.length; i++) {
    const kind = kindOf(text.charCodeAt(i));
    if (kind === SPACE) {
      // A space is part of the next word's token; a run of them costs from its second space on.
      if (previous !== SPACE) length = 0;
      else if ((length - 1) % SPACES_PER_TOKEN === 0) tokens++;
      length++;
    } else if (kind === OTHER) {
      // Line breaks, tabs, control characters and every character outside ASCII: one token each.
      tokens++;
    } else {
      const inWord = previous === LOWER || previous === UPPER;
      if (!inWord && (kind === LOWER || kind === UPPER))
        letters = lettersAfter(previous, text.charCodeAt(i - 1));
      // Lower case continues a word, also one that starts with a capital; upper case after lower
      // case starts a new piece (camelCase, base64); digits and marks continue their own runs.
      const continues = kind === LOWER ? inWord : kind === previous;
      const per =
        kind === LOWER
          ? letters
          : kind === UPPER
            ? CAPITALS_PER_TOKEN
            : kind === DIGIT
              ? DIGITS_PER_TOKEN
              : MARKS_PER_TOKEN;
      if (continues && length < per) length++;
      else {
        tokens++;
        length = 1;
      }
    }
    previous = kind;
  }
  return tokens;
}

function kindOf(code: number): number {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code === 32) return SPACE;
  return code > 32 && code < 127 ? MARK : OTHER;
}

/**
 * Letters per token of a word that starts after `previous` (the character `code`): a word glued
 * to a digit, `+`, `/` or `=` (base64, hashes, random ids) splits into shorter pieces than one
 * after a space or a quote.
 */
function lettersAfter(previous: number, code: number): number {
  return previous === DIGIT || code === 43 || code === 47 || code === 61
    ? GLUED_LETTERS_PER_TOKEN
    : LETTERS_PER_TOKEN;
}
