/**
 * Runs every case through the three oracles in one project: one `zcp gen` run and one tsc run
 * side by side, then Ajv (draft 2020-12, formats) on each tool's MCP input schema and the
 * generated validator (imported from the generated `validators.ts`) on each value.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { pathToFileURL } from "node:url";
import type { Registry, ToolDefinition } from "@zcp/runtime";
import { ajv, REPO, scratchProject, ZCP_BIN } from "../../helpers.js";
import type { Case, Category } from "./case.js";
import {
  buildProject,
  moduleName,
  valueGroups,
  wireOf,
  type Group,
  type Project,
} from "./project.js";

export type Verdict = "agree" | "loss" | "refused" | "disagree";

export interface CaseResult {
  readonly category: string;
  readonly id: string;
  readonly decision: string | null;
  readonly expected: Exclude<Verdict, "disagree">;
  readonly verdict: Verdict;
  /** Why the case disagrees (empty otherwise). */
  readonly problems: readonly string[];
  /** The refusal's code, or the expected warning's; null without either. */
  readonly code: string | null;
}

interface GenDiagnostic {
  severity: "error" | "warning";
  code: string;
  message: string;
  file: string | null;
}

type Validate = (args: unknown) => { ok: boolean; value?: unknown };

function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, encoding: "utf8", maxBuffer: 64 << 20 }, (_error, out, err) =>
      resolve(`${out}\n${err}`),
    );
  });
}

/** tsc's verdict per oracle value: `${module}#${group}` → index → accepted. */
function tscVerdicts(output: string, project: Project) {
  const errors = new Map<string, Set<number>>();
  const problems: string[] = [];
  for (const line of output.split("\n")) {
    const match = /^src\/(.+?)\.ts\((\d+),\d+\): error (TS\d+): (.*)$/.exec(
      line.replace(/\\/g, "/"),
    );
    if (!match) {
      if (/ error TS\d+:/.test(line)) problems.push(line);
      continue;
    }
    const [, name, row, code, text] = match;
    const lines = project.oracle.get(name!);
    const at = Number(row);
    // An unused `@ts-expect-error` is reported on its own line, the one above the value.
    const value = code === "TS2578" ? at + 1 : at;
    if (!lines?.has(value)) problems.push(`${name}.ts(${row}): ${code} ${text}`);
    else errors.set(name!, (errors.get(name!) ?? new Set()).add(value));
  }
  const accepted = new Map<string, boolean[]>();
  for (const [name, lines] of project.oracle)
    for (const [line, entry] of lines) {
      const key = `${name}#${entry.group}`;
      const list = accepted.get(key) ?? [];
      const erred = errors.get(name)?.has(line) ?? false;
      // A rejected value's line errs only when its directive goes unused: tsc accepted it.
      list[entry.index] = entry.tsAccepts ? !erred : erred;
      accepted.set(key, list);
    }
  return { accepted, problems };
}

/** Does `schema` contain `fragment` (objects by subset, arrays element by element, scalars exactly)? */
function contains(schema: unknown, fragment: unknown): boolean {
  if (Array.isArray(fragment))
    return (
      Array.isArray(schema) &&
      schema.length === fragment.length &&
      fragment.every((item, index) => contains(schema[index], item))
    );
  if (fragment === null || typeof fragment !== "object") return isDeepStrictEqual(schema, fragment);
  if (schema === null || typeof schema !== "object") return false;
  return Object.entries(fragment).every(([key, value]) =>
    contains((schema as Record<string, unknown>)[key], value),
  );
}

function keywords(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) keywords(item, found);
  else if (schema !== null && typeof schema === "object")
    for (const [key, value] of Object.entries(schema)) {
      found.add(key);
      keywords(value, found);
    }
  return found;
}

export interface Conformance {
  readonly results: readonly CaseResult[];
  /** Problems not tied to one case (a case module tsc refuses, a failed run). */
  readonly problems: readonly string[];
  readonly seconds: number;
}

/** The cases of `categories` whose compiler options are `key` (`optionsKey`), category by category. */
function casesWith(categories: readonly Category[], key: string): Category[] {
  return categories.map((category) => ({
    name: category.name,
    cases: category.cases.filter((item) => optionsKey(item) === key),
  }));
}

const optionsKey = (item: Case) => JSON.stringify(item.compilerOptions ?? {});

/**
 * Runs the suite: one project per set of compiler options (most cases share the strict one),
 * one after the other, results in the categories' order.
 */
export async function runConformance(categories: readonly Category[]): Promise<Conformance> {
  const started = performance.now();
  const keys = [...new Set(categories.flatMap((category) => category.cases.map(optionsKey)))];
  const byCase = new Map<string, CaseResult>();
  const problems: string[] = [];
  for (const key of keys) {
    const options = JSON.parse(key) as Record<string, unknown>;
    const run = await runProject(casesWith(categories, key), options);
    for (const result of run.results) byCase.set(`${result.category}.${result.id}`, result);
    problems.push(
      ...run.problems.map((problem) => (key === "{}" ? problem : `${key}: ${problem}`)),
    );
  }
  const results = categories.flatMap((category) =>
    category.cases.map((item) => byCase.get(`${category.name}.${item.id}`)!),
  );
  return { results, problems, seconds: (performance.now() - started) / 1000 };
}

/** One generated project: a `zcp gen` run and a tsc run side by side, then every case judged. */
async function runProject(
  categories: readonly Category[],
  options: Record<string, unknown>,
): Promise<Omit<Conformance, "seconds">> {
  const project = buildProject(categories, options);
  const dir = scratchProject(project.files);
  try {
    const [genOutput, tscOutput] = await Promise.all([
      run(process.execPath, [ZCP_BIN, "gen", "--reporter", "json", "--force"], dir),
      run(
        path.join(REPO, "node_modules/.bin/tsc"),
        ["-p", "tsconfig.json", "--noEmit", "--pretty", "false"],
        dir,
      ),
    ]);
    const jsonLine = genOutput.split("\n").find((line) => line.startsWith("{"));
    if (!jsonLine) throw new Error(`zcp gen printed no JSON line:\n${genOutput}`);
    const diagnostics = (JSON.parse(jsonLine) as { diagnostics: GenDiagnostic[] }).diagnostics;
    const { registry } = (await import(
      pathToFileURL(path.join(dir, "src/zcp.gen/registry.ts")).href
    )) as { registry: Registry };
    const { validators } = (await import(
      pathToFileURL(path.join(dir, "src/zcp.gen/validators.ts")).href
    )) as { validators: Record<string, Validate> };
    const tsc = tscVerdicts(tscOutput, project);
    const byAlias = new Map(registry.tools.map((tool) => [tool.alias, tool]));
    const byFile = new Map<string, GenDiagnostic[]>();
    const problems = [...tsc.problems];
    for (const entry of diagnostics) {
      const file =
        entry.file && path.relative(path.join(dir, "src"), path.resolve(dir, entry.file));
      const name = file?.replace(/\\/g, "/").replace(/\.ts$/, "");
      if (!name) problems.push(`zcp: ${entry.severity} ${entry.code}: ${entry.message}`);
      else byFile.set(name, [...(byFile.get(name) ?? []), entry]);
    }
    const schemas = ajv();
    const results = categories.flatMap((category) =>
      category.cases.map((item) => {
        const name = moduleName(category.name, item);
        return judge(category.name, item, {
          tool: byAlias.get(`${category.name}.${item.id}`),
          diagnostics: byFile.get(name) ?? [],
          tsAccepted: (group: Group) => tsc.accepted.get(`${name}#${group}`) ?? [],
          validators,
          schemas,
        });
      }),
    );
    return { results, problems };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

interface Evidence {
  tool: ToolDefinition | undefined;
  diagnostics: GenDiagnostic[];
  tsAccepted: (group: Group) => boolean[];
  validators: Record<string, Validate>;
  /** One Ajv for every schema: an instance costs more than the compiling. */
  schemas: ReturnType<typeof ajv>;
}

/** Expected schema verdict per group: does the schema accept the group's values? */
const SCHEMA_ACCEPTS: Record<Group, boolean> = {
  accept: true,
  reject: false,
  constraint: false,
  tsOnly: false,
  schemaOnly: true,
};

function judge(category: string, item: Case, evidence: Evidence): CaseResult {
  const expected = item.refused ? "refused" : item.loss ? "loss" : "agree";
  const problems: string[] = [];
  const show = (value: unknown) => JSON.stringify(wireOf(value)) ?? "(absent)";
  // The case's data first: tsc must accept and reject what the case says it does.
  for (const [group, values, tsAccepts] of valueGroups(item)) {
    const verdicts = evidence.tsAccepted(group);
    values.forEach((value, index) => {
      if (verdicts[index] !== tsAccepts)
        problems.push(`tsc ${tsAccepts ? "rejects" : "accepts"} ${group} ${show(value)}`);
    });
  }
  const errors = evidence.diagnostics.filter((entry) => entry.severity === "error");
  const warnings = evidence.diagnostics.filter((entry) => entry.severity === "warning");
  const describe = (list: GenDiagnostic[]) =>
    list.map((entry) => `${entry.code} ${entry.message}`).join("; ");
  let code: string | null = null;
  if (item.refused) {
    code = item.refused;
    if (evidence.tool) problems.push(`generated, expected refusal ${item.refused}`);
    if (!errors.some((entry) => entry.code === item.refused))
      problems.push(`expected error ${item.refused}, got: ${describe(errors) || "none"}`);
  } else if (!evidence.tool) {
    problems.push(`left out: ${describe(errors) || "no diagnostic"}`);
  } else {
    if (errors.length > 0) problems.push(`errors: ${describe(errors)}`);
    if (item.warns !== undefined) {
      code = item.warns === true ? (warnings[0]?.code ?? null) : item.warns;
      if (!warnings.some((entry) => item.warns === true || entry.code === item.warns))
        problems.push(`expected warning ${item.warns}, got: ${describe(warnings) || "none"}`);
    }
    problems.push(...checkSchema(item, evidence));
  }
  const verdict = problems.length > 0 ? "disagree" : expected;
  return {
    category,
    id: item.id,
    decision: item.decision ?? null,
    expected,
    verdict,
    problems,
    code,
  };
}

function checkSchema(item: Case, { tool, validators, schemas }: Evidence): string[] {
  if (!tool) return [];
  const problems: string[] = [];
  const param = item.use === undefined || item.use === "param";
  const root = item.use === "return" ? tool.outputSchema : tool.inputSchema;
  const schema = param
    ? (tool.inputSchema as { properties?: Record<string, unknown> }).properties?.["value"]
    : root;
  if (item.schema !== undefined && !contains(schema, item.schema))
    problems.push(`schema ${JSON.stringify(schema)} lacks ${JSON.stringify(item.schema)}`);
  const found = keywords(schema);
  for (const keyword of item.without ?? [])
    if (found.has(keyword)) problems.push(`schema has ${keyword}: ${JSON.stringify(schema)}`);
  // A return type without an output schema has no values to check.
  if (root === null) return problems;
  let ajvValidate: ((data: unknown) => boolean) | undefined;
  try {
    ajvValidate = schemas.compile(root as object);
  } catch (error) {
    problems.push(`ajv refuses the schema: ${(error as Error).message}`);
  }
  const validate = item.use === "return" ? undefined : validators[tool.id];
  if (item.use !== "return" && !validate) problems.push(`no generated validator for ${tool.id}`);
  const args = (value: unknown) => {
    const json = wireOf(value);
    if (!param) return json;
    return json === undefined ? { other: 1 } : { value: json, other: 1 };
  };
  for (const [group, values] of valueGroups(item)) {
    const want = SCHEMA_ACCEPTS[group];
    for (const value of values) {
      const input = args(value);
      const shown = JSON.stringify(input);
      const byAjv = ajvValidate?.(input);
      if (ajvValidate && byAjv !== want)
        problems.push(`ajv ${byAjv ? "accepts" : "refuses"} ${group} ${shown}`);
      if (!validate) continue;
      const outcome = validate(input);
      // A coerced value (a numeric string made a number) is not the value as sent.
      const byValidator = outcome.ok && isDeepStrictEqual(outcome.value, input);
      if (byValidator !== want)
        problems.push(`validator ${byValidator ? "accepts" : "refuses"} ${group} ${shown}`);
    }
  }
  return problems;
}
