/**
 * RFC 6570 level-1 URI templates (`file:///{path}`, `test://template/{id}/data`): each `{name}`
 * stands for one non-empty, percent-encoded value. Level 1 encodes every reserved character, `/`
 * included, so a value never spans a `/`: a template matches a URI in one way or not at all.
 */

/** URIs longer than this match no template (matching backtracks over a URI's characters). */
const MAX_URI = 4_096;

/**
 * The variable names of a template, in order; null when it is not a level-1 template, or when
 * two variables are adjacent (`{a}{b}`: no way to tell where one ends).
 */
export function templateVariables(template: string): string[] | null {
  const names: string[] = [];
  const parts = template.split(/(\{[^{}]*\})/);
  for (const [at, part] of parts.entries()) {
    if (part.startsWith("{")) {
      if (at > 1 && parts[at - 1] === "") return null;
      const name = part.slice(1, -1);
      if (!/^[A-Za-z0-9_]+$/.test(name) || names.includes(name)) return null;
      names.push(name);
    } else if (part.includes("{") || part.includes("}")) return null;
  }
  return names;
}

/** A compiled template: `match(uri)` gives its variables' decoded values, or undefined. */
export class UriTemplate {
  readonly variables: readonly string[];
  readonly #pattern: RegExp;

  constructor(readonly template: string) {
    const variables = templateVariables(template);
    if (variables === null) throw new TypeError(`not a level-1 URI template: ${template}`);
    this.variables = variables;
    const source = template
      .split(/\{[^{}]*\}/)
      .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("([^/?#]+)");
    this.#pattern = new RegExp(`^${source}$`, "u");
  }

  match(uri: string): { readonly [name: string]: string } | undefined {
    const found = uri.length <= MAX_URI ? this.#pattern.exec(uri) : null;
    if (!found) return undefined;
    try {
      // fromEntries: a variable named `__proto__` is an own property like any other.
      return Object.fromEntries(
        this.variables.map((name, at) => [name, decodeURIComponent(found[at + 1]!)]),
      );
    } catch {
      return undefined; // a malformed percent-encoding
    }
  }
}
