import { describe, expect, it } from "vitest";
import { canonicalJson, combineToolHashes, sha12 } from "../src/definition/hash.js";

describe("hashes", () => {
  it("canonical JSON sorts keys at every depth and has no white space", () => {
    expect(canonicalJson({ b: [{ d: 1, c: "x" }], a: null })).toBe(
      '{"a":null,"b":[{"c":"x","d":1}]}',
    );
    expect(() => canonicalJson({ a: Number.NaN })).toThrow("NaN is not JSON");
  });

  it("sha12 is 12 hex characters of SHA-256", () => {
    expect(sha12("abc")).toBe("ba7816bf8f01");
  });

  it("a set's hash depends on its tools' ids and hashes only, not their order", () => {
    const a = { id: "a", hash: "111111111111" };
    const b = { id: "b", hash: "222222222222" };
    expect(combineToolHashes([a, b])).toBe(combineToolHashes([b, a]));
    expect(combineToolHashes([a, b])).not.toBe(combineToolHashes([a]));
    expect(combineToolHashes([a, { ...b, hash: "333333333333" }])).not.toBe(
      combineToolHashes([a, b]),
    );
  });
});
