/**
 * `SessionTokenJar`: which native session tokens a client keeps and sends back (the server's
 * native/token.ts mints them; the jar reads only their revision and state, never their MAC).
 */
import { describe, expect, it } from "vitest";
import { MAX_SESSION_TOKENS, SessionTokenJar } from "../src/wire/index.js";

/** A token of revision `rev`, expiry `expires` and found tools `found` (its MAC is not the client's business). */
const token = (rev: number, expires: number, found = "", mac = "m") =>
  `z1.${Buffer.from(JSON.stringify([rev, expires, "id", null, "planner", "h", found])).toString("base64url")}.${mac}`;

describe("SessionTokenJar", () => {
  it("keeps the highest revision: a late answer of an older one does not take it back", () => {
    const jar = new SessionTokenJar();
    expect(jar.header).toBeUndefined();
    jar.keep(token(0, 1));
    jar.keep(token(2, 2, "1"));
    jar.keep(token(1, 3));
    expect(jar.header).toBe(token(2, 2, "1"));
  });

  it("replaces a token of the same revision and state (a later expiry)", () => {
    const jar = new SessionTokenJar();
    jar.keep(token(1, 1, "1"));
    jar.keep(token(1, 2, "1"));
    expect(jar.header).toBe(token(1, 2, "1"));
  });

  it("keeps tokens of one revision and different states side by side, at most MAX_SESSION_TOKENS, until a higher one", () => {
    const jar = new SessionTokenJar();
    jar.keep(token(1, 1, "1"));
    jar.keep(token(1, 1, "2"));
    expect(jar.header).toBe(`${token(1, 1, "1")}, ${token(1, 1, "2")}`);
    for (let i = 3; i <= 6; i++) jar.keep(token(1, 1, String(i)));
    expect(MAX_SESSION_TOKENS).toBe(4);
    expect(jar.header).toBe(["3", "4", "5", "6"].map((found) => token(1, 1, found)).join(", "));
    jar.keep(token(2, 1, "1.2.3.4.5.6"));
    expect(jar.header).toBe(token(2, 1, "1.2.3.4.5.6"));
  });

  it("holds a token it cannot read alone, and forgets everything on clear", () => {
    const jar = new SessionTokenJar();
    jar.keep(token(3, 1));
    jar.keep("opaque");
    expect(jar.header).toBe("opaque");
    jar.keep(token(0, 1));
    expect(jar.header).toBe(token(0, 1));
    jar.clear();
    expect(jar.header).toBeUndefined();
  });
});
