/**
 * The runtime's token estimate against o200k_base on real texts (samples.ts): it must never
 * count fewer tokens than the tokenizer on any piece (a result it puts under a budget is under
 * it), and it must not overcount by more than the bounds below (a result is not made a handle
 * much earlier than its budget says). The figures per kind are printed for docs/decisions.md.
 */
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { estimateTokens } from "@zcp/runtime";
import { describe, expect, it } from "vitest";
import { samples, type Sample } from "./samples.js";

interface Figures {
  pieces: number;
  estimated: number;
  real: number;
  min: number;
  max: number;
}

function measure(): Map<Sample["kind"], Figures> {
  const figures = new Map<Sample["kind"], Figures>();
  for (const sample of samples()) {
    const real = encode(sample.text).length;
    if (real === 0) continue;
    const estimated = estimateTokens(sample.text);
    const ratio = estimated / real;
    const kind = figures.get(sample.kind) ?? {
      pieces: 0,
      estimated: 0,
      real: 0,
      min: Infinity,
      max: 0,
    };
    kind.pieces++;
    kind.estimated += estimated;
    kind.real += real;
    kind.min = Math.min(kind.min, ratio);
    kind.max = Math.max(kind.max, ratio);
    figures.set(sample.kind, kind);
  }
  return figures;
}

describe("estimateTokens against o200k_base", () => {
  const figures = measure();

  it("counts at least the tokenizer's tokens on every piece, and at most 2.3x", () => {
    const lines = [...figures].map(
      ([kind, f]) =>
        `${kind}: ${f.pieces} pieces, ${f.real} tokens, estimate ${f.estimated} (x${(f.estimated / f.real).toFixed(2)}; per piece x${f.min.toFixed(2)} to x${f.max.toFixed(2)})`,
    );
    console.log(lines.join("\n"));
    expect([...figures.keys()].sort()).toEqual(["code", "json", "prose"]);
    for (const f of figures.values()) {
      expect(f.min).toBeGreaterThanOrEqual(1);
      expect(f.max).toBeLessThanOrEqual(2.3);
    }
  });

  it("overcounts prose and compact JSON by less than half on the whole", () => {
    for (const kind of ["prose", "json"] as const) {
      const f = figures.get(kind)!;
      expect(f.estimated / f.real).toBeLessThan(1.5);
    }
  });

  it("counts text outside ASCII one token a character, at least the tokenizer's", () => {
    for (const text of [
      "一个基于模型上下文协议的搜索服务",
      "Ünïcödé façade — naïve café",
      "🙂🙃 emoji",
    ])
      expect(estimateTokens(text)).toBeGreaterThanOrEqual(encode(text).length);
    expect(estimateTokens("")).toBe(0);
  });
});
