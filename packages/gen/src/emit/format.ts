/**
 * Prettier, in memory, one top-level statement at a time. A generated file is a sequence of
 * statements separated by blank lines, so formatting each statement on its own gives the same
 * text as formatting the whole file (a test checks this), and lets unchanged statements come
 * from the cache instead of going through prettier again (watch mode).
 */
import * as prettier from "prettier";

export const PRETTIER_OPTIONS: prettier.Options = { parser: "typescript", printWidth: 100, trailingComma: "all" };

export class Formatter {
  private readonly cache = new Map<string, string>();
  private readonly used = new Set<string>();

  /** Formats each statement and joins them with one blank line, after the header comment. */
  async file(header: string, statements: readonly string[]): Promise<string> {
    const formatted = await Promise.all(statements.map((statement) => this.statement(statement)));
    return `${header}\n\n${formatted.join("\n")}`;
  }

  /** Forgets what the files since the last call did not use, so a long watch session stays small. */
  prune(): void {
    for (const key of this.cache.keys()) if (!this.used.has(key)) this.cache.delete(key);
    this.used.clear();
  }

  private async statement(code: string): Promise<string> {
    this.used.add(code);
    const cached = this.cache.get(code);
    if (cached !== undefined) return cached;
    const formatted = await prettier.format(code, PRETTIER_OPTIONS);
    this.cache.set(code, formatted);
    return formatted;
  }
}
