/**
 * Generated validators (src/compile/validators/, laid out by src/emit/validators.ts) against their
 * oracle, Ajv (oracle.ts). The generated module is written to a scratch folder and imported; for
 * every tool of every fixture, thousands of values generated from the schemas (values.ts) must get
 * the verdict Ajv gives on the same value after the documented coercions, computed independently
 * of the generated code, and an accepted value must be that coerced value.
 */
import { isDeepStrictEqual } from "node:util";
import type { ValidationResult } from "@zcp/runtime/codegen";
import { describe, expect, it } from "vitest";
import { mulberry32 as random } from "../../../../tools/test-random.js";
import { generatedValidators, type Schema, SETS } from "./helpers.js";
import { ajv, Oracle } from "./oracle.js";
import { clone, Values } from "./values.js";

const { tables } = generatedValidators();

describe("generated validators agree with Ajv", () => {
  const totals = { values: 0, agreements: 0 };

  for (const name of Object.keys(SETS)) {
    it(`on ${name === "synthetic" ? "synthetic schemas" : `the ${name} fixture`}`, () => {
      const validators = tables.get(name)!;
      const tools = SETS[name]!();
      const instance = ajv(name === "synthetic" ? { ownProperties: true } : {});
      const perTool = name === "synthetic" ? 600 : 450;
      const counts = { values: 0, accepted: 0, rejected: 0, coerced: 0, agreements: 0 };
      const failures: string[] = [];
      tools.forEach((definition, index) => {
        const schema = definition.inputSchema as Schema;
        const oracle = new Oracle(instance, schema);
        const values = new Values(random(1000 * (index + 1) + name.length), oracle);
        const validate = validators[definition.id]!;
        for (let i = 0; i < perTool; i++) {
          const valid = values.valid(schema, 0);
          let input = i % 3 === 0 ? valid : values.mutate(schema, valid, 0);
          if (i % 97 === 5) input = values.pick([null, [], "{}", 42, true]);
          const before = clone(input);
          const expected = oracle.coerce(schema, input);
          const verdict = oracle.accepts(expected);
          const result: ValidationResult = validate(input);
          counts.values++;
          const problems: string[] = [];
          if (result.ok !== verdict)
            problems.push(
              `ours ${result.ok ? "accepts" : `rejects (${!result.ok && result.error})`}, Ajv ${verdict ? "accepts" : "rejects"}`,
            );
          if (result.ok && verdict && !isDeepStrictEqual(result.value, expected))
            problems.push(
              `value ${JSON.stringify(result.value)}, expected ${JSON.stringify(expected)}`,
            );
          if (result.ok && verdict && isDeepStrictEqual(expected, input) && result.value !== input)
            problems.push("copied a value that needed no coercion");
          if (!isDeepStrictEqual(input, before)) problems.push("mutated its input");
          if (
            !result.ok &&
            (!/^(missing|invalid):\$/.test(result.error) || result.hint.length === 0)
          )
            problems.push(`malformed error ${result.error} / ${result.hint}`);
          if (problems.length > 0)
            failures.push(`${definition.alias} ${JSON.stringify(input)}: ${problems.join("; ")}`);
          else counts.agreements++;
          if (result.ok) counts.accepted++;
          else counts.rejected++;
          if (result.ok && result.value !== input) counts.coerced++;
        }
      });
      console.log(
        `${name}: ${tools.length} tools, ${counts.values} values (${counts.accepted} accepted, ${counts.coerced} of them coerced; ${counts.rejected} rejected), ${counts.agreements} agreements`,
      );
      totals.values += name === "synthetic" ? 0 : counts.values;
      totals.agreements += name === "synthetic" ? 0 : counts.agreements;
      expect(failures.slice(0, 20)).toEqual([]);
      expect(counts.agreements).toBe(counts.values);
      expect(counts.accepted).toBeGreaterThan(counts.values / 5);
      expect(counts.rejected).toBeGreaterThan(counts.values / 5);
      expect(counts.coerced).toBeGreaterThan(0);
    });
  }

  it("on at least 10,000 values of the fixtures in all", () => {
    console.log(`fixtures: ${totals.values} values, ${totals.agreements} agreements`);
    expect(totals.values).toBeGreaterThanOrEqual(10_000);
    expect(totals.agreements).toBe(totals.values);
  });
});
