/**
 * types.ts against an oracle: json-schema-to-typescript compiles the same schemas, and tsc
 * checks that its types and ours are mutually assignable, tool by tool (arguments and results).
 * The oracle has no 2020-12 tuples (`prefixItems`): tools with tuples are compared elsewhere
 * (the fixtures' typed-client checks).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { compile } from "json-schema-to-typescript";
import type { ToolDefinition } from "@zcp/runtime";
import { describe, expect, it } from "vitest";
import { FIXTURES, generatedRegistry, REPO } from "./helpers.js";

const hasTuple = (schema: unknown): boolean =>
  JSON.stringify(schema ?? null).includes('"prefixItems"');

/** The schema without `title`s: the oracle would name its declarations after them. */
function untitled(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(untitled);
  if (schema === null || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== "title")
      .map(([key, value]) => [
        key,
        key === "properties" || key === "$defs"
          ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, untitled(v)]))
          : untitled(value),
      ]),
  );
}

async function oracleType(schema: object, name: string): Promise<string> {
  // minItems/maxItems would become tuple types: a refinement types.ts does not make (arrays stay T[]).
  return compile(untitled(schema) as never, name, {
    bannerComment: "",
    format: false,
    additionalProperties: false,
    ignoreMinAndMaxItems: true,
    declareExternallyReferenced: true,
  });
}

describe("types.ts agrees with json-schema-to-typescript", () => {
  for (const fixture of ["weather", "kitchen-sink"]) {
    it(`${fixture}: arguments and results are the same types`, async () => {
      const dir = path.join(FIXTURES, fixture, "src/zcp.gen");
      const registry = generatedRegistry(dir);
      const work = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-types-"));
      const lines = [
        `import type { ToolArgs, ToolResults } from ${JSON.stringify(path.join(dir, "types.js"))};`,
        "type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;",
        "function same<T extends true>(): T | void {}",
      ];
      const compared: string[] = [];
      for (const [index, tool] of registry.tools.entries()) {
        const sides: [string, "ToolArgs" | "ToolResults", ToolDefinition["inputSchema"] | null][] =
          [
            [`A${index}`, "ToolArgs", tool.inputSchema],
            [`R${index}`, "ToolResults", tool.outputSchema],
          ];
        for (const [name, map, schema] of sides) {
          if (!schema || hasTuple(schema)) continue;
          const declared = await oracleType(schema, name);
          lines.push(declared.replace(/export (interface|type) /g, "$1 "));
          lines.push(`same<Same<${name}, ${map}[${JSON.stringify(tool.alias)}]>>();`);
          compared.push(`${tool.alias} ${map === "ToolArgs" ? "args" : "result"}`);
        }
      }
      fs.writeFileSync(path.join(work, "oracle.ts"), `${lines.join("\n")}\n`);
      fs.writeFileSync(
        path.join(work, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            module: "NodeNext",
            moduleResolution: "NodeNext",
            strict: true,
            noEmit: true,
            skipLibCheck: true,
          },
          files: ["oracle.ts"],
        }),
      );
      const tsc = spawnSync(path.join(REPO, "node_modules/.bin/tsc"), ["-p", work], {
        encoding: "utf8",
      });
      expect(tsc.stdout + tsc.stderr, fs.readFileSync(path.join(work, "oracle.ts"), "utf8")).toBe(
        "",
      );
      expect(compared.length).toBeGreaterThan(fixture === "weather" ? 7 : 20);
    });
  }
});
