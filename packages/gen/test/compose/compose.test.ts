/**
 * Build-time composition (`"registries"`): real tool packages built as users build them (zcp gen,
 * then tsc, publishing `./zcp`), linked into a workspace's node_modules, and apps that compose
 * them through the real pipeline and CLI.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { combineToolHashes, type Registry } from "@zcp/runtime/definition";
import * as prettier from "prettier";
import { beforeAll, describe, expect, it } from "vitest";
import { artifactSets } from "../../src/compile/index.js";
import { loadConfig } from "../../src/config.js";
import { hasRunErrors, type Diagnostic } from "../../src/diagnostics.js";
import { PRETTIER_STYLE } from "../../src/emit/print.js";
import { Generator } from "../../src/pipeline.js";
import { readRegistryFile } from "../../src/compose/read.js";
import { runZcp, strictTsc } from "../helpers.js";
import { addApp, addPackage, buildPackage, toolSource, tsc, workspace } from "./workspace.js";

const BILLING = "@t/billing-tools";
const CRM = "@t/crm-tools";

const billingSource = toolSource([
  {
    alias: "customers.lookup",
    fn: "lookupCustomer",
    params: "id: string",
    returns: "{ id: string; source: string }",
    body: 'return { id, source: "billing" };',
    tags: " * @groups customers\n * @param id The customer id.\n",
  },
  {
    alias: "invoices.total",
    fn: "invoiceTotal",
    params: "amounts: number[], since: Date",
    returns: "string",
    body: "return `${amounts.reduce((a, b) => a + b, 0)} since ${since.toISOString().slice(0, 10)}`;",
    tags: " * @groups invoices\n * @param amounts Amounts.\n * @param since From when.\n",
  },
]);

const crmSource = toolSource([
  {
    alias: "customers.lookup",
    fn: "findCustomer",
    params: "id: string",
    returns: "{ id: string; source: string }",
    body: 'return { id, source: "crm" };',
    tags: " * @groups customers\n * @param id The customer id.\n",
  },
  {
    alias: "contacts.list",
    fn: "listContacts",
    params: "limit?: number",
    returns: "string[]",
    body: 'return ["ada", "grace"].slice(0, limit ?? 2);',
    tags: " * @groups contacts\n * @stages operate\n * @param limit At most.\n",
  },
  {
    alias: "contacts.purge",
    fn: "purgeContacts",
    params: "",
    returns: "number",
    body: "return 0;",
    tags: " * @groups admin\n",
  },
]);

const localSource = toolSource([
  {
    alias: "app.hello",
    fn: "hello",
    params: "name: string",
    returns: "string",
    body: "return `hello ${name}`;",
    tags: " * @param name Who.\n",
  },
]);

let root: string;
let billingDir: string;

beforeAll(async () => {
  root = workspace();
  billingDir = addPackage(root, BILLING, { "src/customers.ts": billingSource });
  const crmDir = addPackage(root, CRM, { "src/crm.ts": crmSource });
  await Promise.all([buildPackage(billingDir), buildPackage(crmDir)]);
}, 120_000);

/** A generator run over the app at `dir`: its result, the config found there. */
async function generate(dir: string) {
  const loaded = loadConfig(dir);
  expect(loaded.diagnostics).toEqual([]);
  return new Generator(loaded.config!).generate();
}

/** `file:line:col code message` with the path relative to `dir`, for exact comparisons. */
function shown(diagnostics: readonly Diagnostic[], dir: string): string[] {
  return diagnostics.map(
    (d) =>
      `${d.file === null ? "-" : path.relative(dir, d.file)}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}`,
  );
}

describe("composing packages", () => {
  let app: string;
  let registry: Registry;
  beforeAll(() => {
    app = addApp(
      root,
      "main",
      {
        include: ["src/**/*.ts"],
        registries: [
          { package: BILLING, prefix: "billing" },
          { package: CRM, prefix: "crm", excludeGroups: ["admin"] },
        ],
      },
      { "src/hello.ts": localSource },
    );
    const result = runZcp(app, ["gen"]);
    expect([result.status, result.stderr]).toEqual([0, ""]);
    registry = readRegistryFile(path.join(app, "src/zcp.gen/registry.ts")).registry;
  }, 60_000);

  it("joins the packages' tools, renamed under their prefix, to the project's own", () => {
    expect(registry.tools.map((tool) => [tool.alias, tool.source])).toEqual([
      ["app.hello", { file: "src/hello.ts", export: "hello" }],
      [
        "billing.customers.lookup",
        { file: "src/customers.ts", export: "lookupCustomer", package: BILLING },
      ],
      [
        "billing.invoices.total",
        { file: "src/customers.ts", export: "invoiceTotal", package: BILLING },
      ],
      ["crm.contacts.list", { file: "src/crm.ts", export: "listContacts", package: CRM }],
      ["crm.customers.lookup", { file: "src/crm.ts", export: "findCustomer", package: CRM }],
    ]);
    expect(registry.hash).toBe(combineToolHashes(registry.tools));
    const lookup = registry.tools.find((tool) => tool.alias === "crm.customers.lookup")!;
    expect(lookup.name).toBe("crm_customers_lookup");
    expect(lookup.plannerBare).toBe(`TOOL @${lookup.id} crm.customers.lookup(id:str) -> auto`);
  });

  it("describes the packages' tools to providers under their composed names (--report, jsonFiles)", async () => {
    const artifacts = artifactSets((await generate(app)).registry);
    expect(Object.keys(artifacts.anthropic).sort()).toEqual(
      registry.tools.map((tool) => tool.id).sort(),
    );
    const lookup = registry.tools.find((tool) => tool.alias === "billing.customers.lookup")!;
    expect(artifacts.anthropic[lookup.id]!.name).toBe("billing_customers_lookup");
    expect(artifacts["openai-chat"][lookup.id]!.function.name).toBe("billing_customers_lookup");
  });

  it("reaches the packages' validators and dispatchers through their published modules", () => {
    const billing = readRegistryFile(path.join(billingDir, "dist/zcp.gen/registry.js")).registry;
    const own = (alias: string) => billing.tools.find((tool) => tool.alias === alias)!.id;
    const composed = (alias: string) => registry.tools.find((tool) => tool.alias === alias)!.id;
    const dispatch = fs.readFileSync(path.join(app, "src/zcp.gen/dispatch.ts"), "utf8");
    const validators = fs.readFileSync(path.join(app, "src/zcp.gen/validators.ts"), "utf8");
    for (const text of [dispatch, validators]) {
      expect(text).toContain(`import { generated as billing_tools } from "${BILLING}/zcp";\n`);
      expect(text).toContain(`import { generated as crm_tools } from "${CRM}/zcp";\n`);
    }
    expect(dispatch).toContain(
      `checkComposedPackage(billing_tools, "${BILLING}", "${billing.hash}");\n`,
    );
    expect(dispatch).toContain(
      `  "${composed("billing.invoices.total")}": billing_tools.dispatch["${own("invoices.total")}"]!,\n`,
    );
    expect(validators).toContain(
      `  "${composed("billing.invoices.total")}": billing_tools.validators["${own("invoices.total")}"]!,\n`,
    );
    // The packages' tools have no locally compiled validator or dispatcher.
    expect(validators.match(/^function validate_/gm)).toEqual(["function validate_"]);
    expect(dispatch.match(/^function call_/gm)).toEqual(["function call_"]);
  });

  it("emits files that prettier leaves as they are and the strictest tsc accepts", async () => {
    const out = path.join(app, "src/zcp.gen");
    for (const file of ["dispatch.ts", "validators.ts", "registry.ts", "types.ts", "index.ts"]) {
      const text = fs.readFileSync(path.join(out, file), "utf8");
      expect(await prettier.format(text, { ...PRETTIER_STYLE, filepath: file }), file).toBe(text);
    }
    const checked = strictTsc(
      fs.readdirSync(out).flatMap((file) => (file.endsWith(".ts") ? [path.join(out, file)] : [])),
      "nodenext",
    );
    expect(checked.errors).toEqual([]);
  });

  it("serves every tool, and refuses to load once a package is not the one composed", () => {
    tsc(app);
    const script = `
      import { createRuntime } from "@zcp/runtime";
      import { generated } from "./dist/zcp.gen/index.js";
      const session = createRuntime(generated).session();
      const calls = [
        ["app.hello", { name: "ada" }],
        ["billing.customers.lookup", { id: "7" }],
        ["crm.customers.lookup", { id: "8" }],
        ["billing.invoices.total", { amounts: [1, 2], since: "2024-05-06T10:00:00Z" }],
        ["crm.contacts.list", { limit: 1 }],
        ["crm.customers.lookup", { id: 8 }],
      ];
      for (const [name, args] of calls) console.log(JSON.stringify(await session.call(name, args)));
    `;
    const run = () =>
      spawnSync(process.execPath, ["--input-type=module", "-e", script], {
        cwd: app,
        encoding: "utf8",
      });
    const served = run();
    expect(served.stderr).toBe("");
    expect(
      served.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { ok: true, value: "hello ada" },
      { ok: true, value: { id: "7", source: "billing" } },
      { ok: true, value: { id: "8", source: "crm" } },
      { ok: true, value: "3 since 2024-05-06" },
      { ok: true, value: ["ada"] },
      expect.objectContaining({ ok: false, error: "invalid:$.id" }),
    ]);

    // The package rebuilt with another registry since: the composed module must not load.
    const file = path.join(billingDir, "dist/zcp.gen/registry.js");
    const text = fs.readFileSync(file, "utf8");
    const { hash } = readRegistryFile(file).registry;
    try {
      fs.writeFileSync(file, text.replace(`hash: "${hash}"`, 'hash: "000000000000"'));
      const refused = run();
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(
        `GeneratedModuleError: ${BILLING}/zcp has registry hash 000000000000, but this module was composed from ${hash}: run zcp gen again`,
      );
    } finally {
      fs.writeFileSync(file, text);
    }
  }, 60_000);

  it("runs again when a package changed: its files are inputs of the fast path", () => {
    const file = path.join(root, "node_modules", CRM, "dist/zcp.gen/registry.js");
    const text = fs.readFileSync(file, "utf8");
    expect(runZcp(app, ["gen"]).stdout).not.toContain("wrote");
    try {
      fs.writeFileSync(file, text.replaceAll("contacts.list does its job.", "Lists contacts."));
      const result = runZcp(app, ["gen"]);
      expect(result.stdout).toContain("wrote registry.ts");
      expect(fs.readFileSync(path.join(app, "src/zcp.gen/registry.ts"), "utf8")).toContain(
        "Lists contacts.",
      );
    } finally {
      fs.writeFileSync(file, text);
      runZcp(app, ["gen"]);
    }
  }, 60_000);

  it("selects a package's tools by group, stage and alias before prefixing", async () => {
    const cases: [object, string[]][] = [
      [{ package: CRM, groups: ["contacts", "admin"] }, ["contacts.list", "contacts.purge"]],
      // Tools without stages are in every stage.
      [
        { package: CRM, stages: ["operate"] },
        ["contacts.list", "contacts.purge", "customers.lookup"],
      ],
      [{ package: CRM, aliases: ["contacts.list"], prefix: "c." }, ["c.contacts.list"]],
      [{ package: CRM, excludeAliases: ["contacts.purge", "customers.lookup"] }, ["contacts.list"]],
    ];
    for (const [entry, aliases] of cases) {
      const dir = addApp(root, `select-${aliases.join("-")}-${Object.keys(entry).join("")}`, {
        registries: [entry],
      });
      const result = await generate(dir);
      expect(result.diagnostics).toEqual([]);
      expect(result.registry.tools.map((tool) => tool.alias)).toEqual(aliases);
    }
  });

  it("reads no sources and loads no program with registries and no include", async () => {
    // A tsconfig that cannot be read would be ZCP1002 if TypeScript were asked to load it.
    const dir = addApp(root, "only", { registries: [CRM] }, { "tsconfig.json": "{ nope" });
    const result = await generate(dir);
    expect(result.diagnostics).toEqual([]);
    expect(result.sources).toEqual([]);
    const crm = fs.realpathSync(path.join(root, "node_modules", CRM));
    expect([...result.inputs.keys()]).toEqual(
      [
        path.join(dir, "zcp.config.json"),
        path.join(crm, "dist/zcp.gen/registry.js"),
        path.join(crm, "package.json"),
      ].sort(),
    );
    // A package-only dispatch imports only what it uses (noUnusedLocals).
    const dispatch = result.files.find((file) => file.path === "dispatch.ts")!.content;
    expect(dispatch).toContain(
      'import { checkComposedPackage, dispatchTable } from "@zcp/runtime/codegen";\n',
    );
    expect(dispatch).not.toContain("import type");
    expect(dispatch).not.toContain("function ");
  });
});

describe("collisions", () => {
  it("reports every collision, naming both sides, and keeps none of the colliding tools", async () => {
    const collide = toolSource([
      {
        alias: "customers.lookup",
        fn: "mine",
        params: "",
        returns: "number",
        body: "return 1;",
      },
      {
        alias: "contacts_list",
        fn: "sameName",
        params: "",
        returns: "number",
        body: "return 1;",
      },
    ]);
    const dir = addApp(
      root,
      "collide",
      { include: ["src/**/*.ts"], registries: [BILLING, CRM] },
      { "src/mine.ts": collide },
    );
    const result = await generate(dir);
    const hint = ': give one of them a "prefix", or leave one out with "excludeAliases"';
    expect(shown(result.diagnostics, dir)).toEqual([
      `zcp.config.json:6:5 error ZCP1402 registries: tool alias "customers.lookup" is in this project (src/mine.ts#mine), ${BILLING} (src/customers.ts#lookupCustomer) and ${CRM} (src/crm.ts#findCustomer)${hint}`,
      `zcp.config.json:7:5 error ZCP1403 registries: provider tool name "contacts_list" (aliases "contacts_list", "contacts.list") is in both this project (src/mine.ts#sameName) and ${CRM} (src/crm.ts#listContacts)${hint}`,
    ]);
    expect(result.registry.tools.map((tool) => tool.alias)).toEqual([
      "contacts.purge",
      "invoices.total",
    ]);
    // Collisions leave tools out, as between the project's own tools: the rest is written.
    expect(hasRunErrors(result.diagnostics)).toBe(false);
  });

  it("fails zcp gen on the same alias in two packages", () => {
    const dir = addApp(root, "collide-cli", { registries: [BILLING, CRM] });
    const result = runZcp(dir, ["gen"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `error ZCP1402: registries: tool alias "customers.lookup" is in both ${BILLING} (src/customers.ts#lookupCustomer) and ${CRM} (src/crm.ts#findCustomer): give one of them a "prefix"`,
    );
  });
});

describe("packages that cannot be composed", () => {
  /** A copy of the built billing package under another name, `edit`ed. */
  function variant(name: string, edit: (dir: string) => void, packageJson: object = {}): void {
    const dir = addPackage(root, name, {}, packageJson);
    fs.cpSync(path.join(billingDir, "dist"), path.join(dir, "dist"), { recursive: true });
    edit(dir);
  }
  const registryJs = (dir: string) => path.join(dir, "dist/zcp.gen/registry.js");
  const rewrite = (dir: string, from: RegExp, to: string) =>
    fs.writeFileSync(registryJs(dir), fs.readFileSync(registryJs(dir), "utf8").replace(from, to));

  it("says which package and why", async () => {
    variant("@t/no-export", () => {}, { exports: { ".": "./dist/index.js" } });
    variant("@t/unbuilt", (dir) => fs.rmSync(path.join(dir, "dist"), { recursive: true }));
    variant("@t/executes", (dir) =>
      fs.appendFileSync(registryJs(dir), "\nglobalThis.hacked = true;\n"),
    );
    variant("@t/format-two", (dir) =>
      rewrite(dir, /version: 3,\n\s*generator: "[^"]*",/, "version: 2,"),
    );
    variant("@t/older", (dir) => rewrite(dir, /generator: "[^"]*"/, 'generator: "0.0.9"'));
    const names = [
      "@t/missing",
      "@t/no-export",
      "@t/unbuilt",
      "@t/executes",
      "@t/format-two",
      "@t/older",
    ];
    const dir = addApp(root, "broken", { registries: names });
    const result = await generate(dir);
    const at = (name: string) => `zcp.config.json:${names.indexOf(name) + 3}:5`;
    const version = result.registry.generator;
    const pkg = (name: string) => fs.realpathSync(path.join(root, "node_modules", name));
    expect(shown(result.diagnostics, dir)).toEqual([
      `${at("@t/missing")} error ZCP1601 registries: cannot find package "@t/missing" from ${dir} (is it installed?)`,
      `${at("@t/no-export")} error ZCP1602 registries: @t/no-export declares no "./zcp" export in its package.json: a package publishes its tools as "exports": { "./zcp": "./dist/zcp.gen/index.js" } (see "Publishing tools" in @zcp/gen's README)`,
      `${at("@t/unbuilt")} error ZCP1603 registries: @t/unbuilt's registry cannot be read: ${path.relative(dir, path.join(pkg("@t/unbuilt"), "dist/zcp.gen/registry.js"))}: no such file (is @t/unbuilt built?)`,
      `${at("@t/executes")} error ZCP1603 registries: @t/executes's registry cannot be read: ${path.relative(dir, registryJs(pkg("@t/executes")))} is not a registry module written by zcp gen (an expression statement \`globalThis.hacked = true;\` at line ${fs.readFileSync(registryJs(pkg("@t/executes")), "utf8").split("\n").length - 1})`,
      `${at("@t/format-two")} error ZCP1604 registries: @t/format-two was generated with registry format 2 (zcp gen ${version}); this zcp gen ${version} writes and reads format 3: rebuild @t/format-two with it`,
      `${at("@t/older")} warning ZCP1605 registries: @t/older was generated by zcp gen 0.0.9; this is zcp gen ${version}: rebuild @t/older with this version to be sure its validators and planner lines match`,
    ]);
    expect(hasRunErrors(result.diagnostics)).toBe(true);
    expect((globalThis as { hacked?: boolean }).hacked).toBeUndefined();
    // The warning alone composes the package.
    const older = addApp(root, "older", { registries: ["@t/older"] });
    const composed = await generate(older);
    expect(composed.diagnostics.map((d) => d.code)).toEqual(["ZCP1605"]);
    expect(composed.registry.tools).toHaveLength(2);
  });

  it("resolves ./zcp with the import, node and default conditions, a string or a list", async () => {
    const entries = [
      { "./zcp": "./dist/zcp.gen/index.js" },
      { "./zcp": { types: "./nope.d.ts", node: { import: "./dist/zcp.gen/index.js" } } },
      { "./zcp": [{ require: "./nope.cjs" }, "./dist/zcp.gen/index.js"] },
    ];
    const names = entries.map((exports, i) => {
      const name = `@t/exports-${i}`;
      variant(name, () => {}, { exports });
      return name;
    });
    const dir = addApp(root, "exports", {
      registries: names.map((name, i) => ({ package: name, prefix: `p${i}` })),
    });
    const result = await generate(dir);
    expect(result.diagnostics).toEqual([]);
    expect(result.registry.tools).toHaveLength(6);
  });

  it("refuses a selection that names an alias the package does not have", async () => {
    const dir = addApp(root, "typo", {
      registries: [{ package: CRM, excludeAliases: ["contacts.lst"] }],
    });
    const result = await generate(dir);
    expect(shown(result.diagnostics, dir)).toEqual([
      `zcp.config.json:4:18 error ZCP1001 registries: ${CRM}: "excludeAliases" names "contacts.lst", which the package does not have (its tools: contacts.list, contacts.purge, customers.lookup)`,
    ]);
    expect(hasRunErrors(result.diagnostics)).toBe(true);
  });
});

describe("the registries key", () => {
  it.each([
    [{ registries: "@t/a" }, /"registries" must be an array/],
    [{ registries: [42] }, /"registries"\[0\] must be a package name/],
    [{ registries: ["Not A Name"] }, /"package" must be a package name/],
    [
      { registries: ["@t/a", { package: "@t/a" }] },
      /"registries"\[1\]: the package "@t\/a" is listed twice/,
    ],
    [{ registries: [{ package: "@t/a", only: [] }] }, /unknown key "only"/],
    [{ registries: [{ package: "@t/a", groups: "x" }] }, /"groups" must be an array/],
    [{ registries: [{ package: "@t/a", prefix: 1 }] }, /"prefix" must be a non-empty string/],
  ])("refuses %j", (config, message) => {
    const dir = addApp(root, `config-${Math.random().toString(36).slice(2)}`, config);
    const loaded = loadConfig(dir);
    expect(loaded.diagnostics.map((d) => d.code)).toEqual(["ZCP1001"]);
    expect(loaded.diagnostics[0]!.message).toMatch(message);
  });

  it("refuses a prefix that is not a dotted name, by the runtime's rule", async () => {
    const dir = addApp(root, "bad-prefix", { registries: [{ package: CRM, prefix: "a b" }] });
    const result = await generate(dir);
    expect(result.diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        "ZCP1001",
        `registries: ${CRM}: prefix "a b" is not a dotted name (letters, digits, _ and -, e.g. "billing")`,
      ],
    ]);
  });
});
