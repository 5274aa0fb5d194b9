/**
 * Ranking over a `FindIndex` (BM25F, k1 = 1.2, b = 0.75): a query's terms, by the index's
 * tokenizer, score the tools whose weighted term frequencies hold them; ties are broken by
 * alias order. idf is the whole index's: filters choose among the ranked tools, they do not
 * change the scores.
 */
import type { FindIndex } from "./build.js";
import { tokenize } from "./tokenize.js";

const K1 = 1.2;
const B = 0.75;

/** One ranked tool: its id and its score. */
export interface Ranked {
  readonly id: string;
  readonly score: number;
}

export class FindSearch {
  private readonly averageLength: number;

  constructor(private readonly index: FindIndex) {
    const total = index.lengths.reduce((sum, length) => sum + length, 0);
    this.averageLength = index.lengths.length > 0 ? total / index.lengths.length : 0;
  }

  /**
   * The tools matching `query` best first, at most `limit`, among those `allowed` keeps; `alias`
   * names each id for ties. A query without terms (empty, stop words only) matches nothing.
   */
  rank(
    query: string,
    limit: number,
    allowed: (id: string) => boolean,
    alias: (id: string) => string,
  ): Ranked[] {
    const { docs, lengths, terms } = this.index;
    const scores = new Map<number, number>();
    for (const term of new Set(tokenize(query))) {
      const postings = Object.hasOwn(terms, term) ? terms[term]! : [];
      const df = postings.length / 2;
      if (df === 0) continue;
      const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
      for (let i = 0; i < postings.length; i += 2) {
        const doc = postings[i]!;
        const tf = postings[i + 1]!;
        const norm = 1 - B + (B * lengths[doc]!) / (this.averageLength || 1);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (K1 + 1)) / (tf + K1 * norm));
      }
    }
    return [...scores]
      .filter(([doc]) => allowed(docs[doc]!))
      .map(([doc, score]) => ({ id: docs[doc]!, score, alias: alias(docs[doc]!) }))
      .sort((a, b) => b.score - a.score || (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0))
      .slice(0, limit)
      .map(({ id, score }) => ({ id, score }));
  }
}
