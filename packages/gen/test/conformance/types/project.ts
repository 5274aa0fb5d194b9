/**
 * The one generated project all cases share: a module per case, `src/<category>/<id>.ts`, with
 * the tool that uses the case's type and, below it, tsc's oracle: every value assigned to that
 * type, one line per value, rejected values under `// @ts-expect-error`.
 */
import { STRICT_COMPILER_OPTIONS } from "../../helpers.js";
import type { Case, Category, Value, Wire } from "./case.js";

const isWire = (value: Value): value is Wire =>
  typeof value === "object" && value !== null && "ts" in value && "wire" in value;

/** The value as the arguments' JSON carries it. */
export const wireOf = (value: Value): unknown => (isWire(value) ? value.wire : value);

const tsOf = (value: Value): string => (isWire(value) ? value.ts : JSON.stringify(value));

export const moduleName = (category: string, item: Case) => `${category}/${item.id}`;
const functionName = (item: Case) => `c_${item.id}`;

/**
 * The case's module: its declarations, the tool, and the oracle's assignments of every value to
 * the tool's type (so that a value's TypeScript form may name the declarations).
 */
function caseModule(category: string, item: Case): [string, Map<number, OracleLine>] {
  const oracle = new Map<number, OracleLine>();
  const fn = functionName(item);
  const lines = [
    ...(item.decls ? [item.decls.trim(), ""] : []),
    "/**",
    ` * Conformance case ${category}.${item.id}.`,
    ` * @tool ${category}.${item.id}`,
    " */",
    item.use === "root"
      ? `export function ${fn}(input: ${item.type}): void {}`
      : item.use === "return"
        ? `export function ${fn}(other: number): ${item.type} {\n  return other as never;\n}`
        : `export function ${fn}(value: ${item.type}, other: number): void {}`,
    "",
    item.use === "return"
      ? `type Checked = Awaited<ReturnType<typeof ${fn}>>;`
      : `type Checked = Parameters<typeof ${fn}>[0];`,
  ];
  for (const [group, values, tsAccepts] of valueGroups(item)) {
    values.forEach((value, index) => {
      if (!tsAccepts) lines.push("// @ts-expect-error");
      const line = lines.join("\n").split("\n").length + 1;
      oracle.set(line, { group, index, tsAccepts });
      lines.push(`export const v${line}: Checked = ${tsOf(value)};`);
    });
  }
  return [`${lines.join("\n")}\n`, oracle];
}

/** Which value an oracle line checks, and what tsc must say about it. */
export interface OracleLine {
  readonly group: Group;
  readonly index: number;
  readonly tsAccepts: boolean;
}

export interface Project {
  readonly files: Record<string, string>;
  /** Module (`category/id`) → 1-based line → the value assigned there. */
  readonly oracle: Map<string, Map<number, OracleLine>>;
}

/** A case's values by what the case says of them (see `Case`). */
export type Group = "accept" | "reject" | "constraint" | "tsOnly" | "schemaOnly";

export function valueGroups(item: Case): [Group, readonly Value[], boolean][] {
  return [
    ["accept", item.accept ?? [], true],
    ["reject", item.reject ?? [], false],
    ["constraint", item.constraint ?? [], true],
    ["tsOnly", item.loss?.tsOnly ?? [], true],
    ["schemaOnly", item.loss?.schemaOnly ?? [], false],
  ];
}

/** The project of the cases of `categories` whose tsconfig adds `options` to the strict ones. */
export function buildProject(
  categories: readonly Category[],
  options: Readonly<Record<string, unknown>> = {},
): Project {
  const files: Record<string, string> = {
    "zcp.config.json": `${JSON.stringify({ include: ["src/**/*.ts"], outDir: "src/zcp.gen" })}\n`,
    "tsconfig.json": `${JSON.stringify({
      compilerOptions: {
        ...STRICT_COMPILER_OPTIONS,
        ...options,
        types: [],
        // Global scripts (no import or export) stay scripts in a `"type": "module"` package.
        moduleDetection: "legacy",
      },
      include: ["src"],
      exclude: ["src/zcp.gen"],
    })}\n`,
  };
  const oracle = new Map<string, Map<number, OracleLine>>();
  for (const category of categories) {
    for (const item of category.cases) {
      const name = moduleName(category.name, item);
      const [text, lines] = caseModule(category.name, item);
      files[`src/${name}.ts`] = text;
      oracle.set(name, lines);
      for (const [file, text] of Object.entries(item.files ?? {})) files[`src/${file}`] = text;
    }
  }
  return { files, oracle };
}
