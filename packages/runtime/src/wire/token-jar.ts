/** What a client keeps of the native session's tokens, and sends back. */
import { MAX_SESSION_TOKENS, tokenFields } from "./token.js";

/**
 * The tokens of one native session a client holds, and sends back in `zcp-session-id`. Each
 * token has a revision, one more each time the session's state changed (a find, a stage, a find
 * format); the jar keeps the tokens of the highest revision it got:
 * - a lower revision is dropped: the answer of a request that changed nothing, arriving after
 *   one that found tools, does not take the found tools back;
 * - a token of the same revision and state as one held replaces it (a later expiry);
 * - one of the same revision and another state is kept beside it: two requests changed the
 *   state at once (two finds on two replicas). The server takes all of them in (the union of
 *   their found tools) and answers one token of a higher revision. At most
 *   `MAX_SESSION_TOKENS` (the oldest goes first).
 */
export class SessionTokenJar {
  #tokens: string[] = [];
  #revision = -1;

  /** The value of `zcp-session-id` to send; undefined before the first token. */
  get header(): string | undefined {
    return this.#tokens.length === 0 ? undefined : this.#tokens.join(", ");
  }

  keep(token: string): void {
    const fields = tokenFields(token);
    const rev = fields?.[0];
    // A token this client cannot read (another version): held alone, replaced by the next one.
    if (typeof rev !== "number" || !Number.isSafeInteger(rev) || rev < 0) {
      this.#tokens = [token];
      this.#revision = -1;
      return;
    }
    if (rev < this.#revision) return;
    if (rev > this.#revision) {
      this.#tokens = [token];
      this.#revision = rev;
      return;
    }
    const state = stateOf(fields!);
    const same = this.#tokens.findIndex((held) => stateOf(tokenFields(held) ?? []) === state);
    if (same >= 0) this.#tokens[same] = token;
    else this.#tokens = [...this.#tokens, token].slice(-MAX_SESSION_TOKENS);
  }

  clear(): void {
    this.#tokens = [];
    this.#revision = -1;
  }
}

/** A token's fields but its expiry (the second): what its state is. */
function stateOf(fields: readonly unknown[]): string {
  return JSON.stringify(fields.filter((_, index) => index !== 1));
}
