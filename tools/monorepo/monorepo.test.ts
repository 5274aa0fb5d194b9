/**
 * The monorepo fixture (fixtures/monorepo), end to end: two tool packages that publish their
 * generated registries as the `./zcp` export, and an app that composes them at build time with a
 * prefix per package beside one tool of its own.
 *
 * 1. In the workspace: each package's committed src/zcp.gen is fresh (`zcp gen --check`) and
 *    compiles to dist/ (`tsc -p tsconfig.build.json`), the app's too, and the app's dist is served
 *    by `zcp-serve` to the official MCP SDK client and to @zcp/client's native client.
 * 2. As a user publishes: the four @zcp packages and the two tool packages packed with
 *    `pnpm pack`, a new app folder outside the workspace, one `npm install` of the tarballs,
 *    `npx zcp gen`, `npx tsc`, `npx zcp-serve`. The cases below share that install:
 * 3. without prefixes, `zcp gen` fails on the collision (ZCP1402 naming both packages);
 * 4. a copy of billing-tools with a required parameter added, built and packed as 0.2.0:
 *    `zcp diff @zcp-fixtures/billing-tools <0.2.0's registry>` exits 1, 0 with --allow-breaking;
 *    the app's compiled module refuses to load on it (the load-time hash check);
 * 5. version skew: a package registry from another generator warns (ZCP1605), one of format 2 is
 *    an error (ZCP1604).
 *
 * One setup for both describes: the user's cases share its install. What they share besides (the
 * servers' checks, the user's app) is in helpers.ts.
 *
 * MONOREPO_KEEP=1 keeps the temporary folder and prints its path.
 */
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ok,
  ownStderr,
  run,
  USER_ENV,
  userTemp,
  WORKSPACE,
  type Tarball,
} from "../user-path/packing.js";
import {
  APP,
  checkMcp,
  checkNative,
  MONOREPO,
  setUpUserProject,
  steps,
  timed,
  TOOL_PACKAGES,
  type UserProject,
} from "./helpers.js";

const ZCP = path.join(WORKSPACE, "packages/gen/dist/bin/zcp.js");
const ZCP_SERVE = path.join(WORKSPACE, "packages/server/dist/bin/zcp-serve.js");
const TSC = path.join(WORKSPACE, "node_modules/.bin/tsc");
const KEEP = process.env.MONOREPO_KEEP === "1";
/** Loads the app's compiled module (`node --input-type=module -e`). */
const IMPORT_APP = 'await import("./dist/zcp.gen/index.js");';
const WORKSPACE_ENV = process.env as Record<string, string>;

const output = (ran: { stdout: string; stderr: string }): string => ran.stdout + ran.stderr;

/** The user project's temporary folder (removed after the run unless MONOREPO_KEEP=1). */
let userFolder: string | undefined;
let userProject: Promise<UserProject> | undefined;

beforeAll(async () => {
  // Each package's generated registry is committed: fresh, it compiles with the tools to dist/.
  await timed("tool packages: zcp gen --check, tsc (both, in parallel)", () =>
    Promise.all(
      TOOL_PACKAGES.map(async (name) => {
        const cwd = path.join(MONOREPO, "packages", name);
        await ok("node", [ZCP, "gen", "--check"], { cwd, env: WORKSPACE_ENV });
        // From scratch: a file an older build left in dist/ would be packed too.
        await rm(path.join(cwd, "dist"), { recursive: true, force: true });
        await ok(TSC, ["-p", "tsconfig.build.json"], { cwd, env: WORKSPACE_ENV });
      }),
    ),
  );
  const folder = await userTemp("zcp-monorepo-");
  userFolder = folder;
  userProject = timed("user project: pnpm pack, npm install (beside the workspace cases)", () =>
    setUpUserProject(folder),
  );
  userProject.catch(() => {}); // awaited by the user's cases
}, 120_000);

afterAll(async () => {
  console.log(
    ["monorepo fixture", ...Object.entries(steps).map(([step, ms]) => `  ${step}: ${ms} ms`)].join(
      "\n",
    ),
  );
  await userProject?.catch(() => {});
  if (KEEP) console.log(`kept ${userFolder}`);
  else if (userFolder !== undefined) await rm(userFolder, { recursive: true, force: true });
}, 60_000);

// ---------------------------------------------------------------------------------------------

describe("the monorepo fixture in the workspace", () => {
  it("each package declares its registry as the ./zcp export, and builds it to dist/zcp.gen", async () => {
    for (const name of TOOL_PACKAGES) {
      const folder = path.join(MONOREPO, "packages", name);
      const manifest = JSON.parse(await readFile(path.join(folder, "package.json"), "utf8")) as {
        exports: Record<string, unknown>;
      };
      expect(manifest.exports["./zcp"], name).toEqual({
        types: "./dist/zcp.gen/index.d.ts",
        default: "./dist/zcp.gen/index.js",
      });
      const registry = await readFile(path.join(folder, "dist/zcp.gen/registry.js"), "utf8");
      expect(registry, name).toContain('"customers.lookup"');
    }
  });

  it("the app composes both packages (zcp gen --check on its committed output) and compiles (tsc)", async () => {
    const gen = await timed("app: zcp gen --check", () =>
      run("node", [ZCP, "gen", "--check"], { cwd: APP, env: WORKSPACE_ENV }),
    );
    expect({ code: gen.code, output: output(gen) }).toMatchObject({ code: 0 });
    expect(gen.stdout).toMatch(/^zcp gen --check: 6 tools, registry [0-9a-f]{12}/);
    const dispatch = await readFile(path.join(APP, "src/zcp.gen/dispatch.ts"), "utf8");
    // The packages' tools are dispatched through their published entries, never their sources.
    expect(dispatch).toContain('from "@zcp-fixtures/billing-tools/zcp"');
    expect(dispatch).toContain('from "@zcp-fixtures/crm-tools/zcp"');
    expect(dispatch).not.toMatch(/packages\/(billing|crm)-tools/);
    await rm(path.join(APP, "dist"), { recursive: true, force: true });
    const tsc = await timed("app: tsc", () =>
      run(TSC, ["-p", "tsconfig.build.json"], { cwd: APP, env: WORKSPACE_ENV }),
    );
    expect({ code: tsc.code, output: output(tsc) }).toEqual({ code: 0, output: "" });
  }, 120_000);

  it("zcp-serve serves the app's dist over MCP stdio (official SDK client)", async () => {
    await timed("workspace: MCP session", () =>
      checkMcp(
        {
          command: "node",
          args: [ZCP_SERVE, "--registry", "dist/zcp.gen/index.js"],
          cwd: APP,
          env: WORKSPACE_ENV,
        },
        "workspace MCP",
      ),
    );
  }, 60_000);

  it("zcp-serve serves it over native stdio (@zcp/client)", async () => {
    await timed("workspace: native session", () =>
      checkNative(
        "node",
        [ZCP_SERVE, "--registry", "dist/zcp.gen/index.js"],
        { cwd: APP, env: WORKSPACE_ENV },
        "workspace native",
      ),
    );
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------

describe("the monorepo fixture as a user publishes it: packed, installed with npm outside the workspace", () => {
  let tmp: string;
  let packs: string;
  let app: string;
  let genBin: string;
  let tarballs: Map<string, Tarball>;
  const zcp = (args: readonly string[], cwd = app) => run("node", [genBin, ...args], { cwd });

  beforeAll(async () => {
    ({ tmp, packs, app, genBin, tarballs } = await userProject!);
  }, 300_000);

  it("packs each tool package with its dist/ only, the ./zcp export in it, and @zcp/runtime at its version", () => {
    for (const name of TOOL_PACKAGES.map((dir) => `@zcp-fixtures/${dir}`)) {
      const tarball = tarballs.get(name)!;
      const paths = tarball.files.map((entry) => entry.path);
      for (const file of paths)
        expect(file, name).toMatch(/^(dist\/.*\.(js|d\.ts)|package\.json|LICENSE)$/);
      expect(paths, name).toEqual(
        expect.arrayContaining([
          "dist/zcp.gen/index.js",
          "dist/zcp.gen/index.d.ts",
          "dist/zcp.gen/registry.js",
        ]),
      );
      expect(JSON.stringify(tarball.manifest), name).not.toContain("workspace:");
      expect((tarball.manifest.dependencies as Record<string, string>)["@zcp/runtime"], name).toBe(
        tarballs.get("@zcp/runtime")!.version,
      );
    }
  });

  it("npx zcp gen composes the installed packages, and npx tsc compiles the app with no output", async () => {
    const gen = await timed("npx zcp gen", () => run("npx", ["zcp", "gen"], { cwd: app }));
    expect({ code: gen.code, stderr: ownStderr(gen) }).toEqual({ code: 0, stderr: "" });
    expect(gen.stdout).toMatch(/^zcp gen: 6 tools, registry [0-9a-f]{12}/);
    // Composed from the same packages and sources, the user's registry is the workspace app's.
    const registry = await readFile(path.join(app, "src/zcp.gen/registry.ts"), "utf8");
    const committed = await readFile(path.join(APP, "src/zcp.gen/registry.ts"), "utf8");
    const hashOf = (text: string) => /hash: "([0-9a-f]{12})"/.exec(text)?.[1];
    expect(hashOf(registry)).toBe(hashOf(committed));
    const tsc = await timed("npx tsc", () => run("npx", ["tsc"], { cwd: app }));
    expect({ code: tsc.code, output: tsc.stdout + ownStderr(tsc) }).toEqual({
      code: 0,
      output: "",
    });
  }, 120_000);

  it("npx zcp-serve --registry dist/zcp.gen/index.js serves it over MCP and native stdio", async () => {
    const serve = ["zcp-serve", "--registry", "dist/zcp.gen/index.js"];
    await timed("user: MCP session (npx zcp-serve)", () =>
      checkMcp({ command: "npx", args: serve, cwd: app, env: USER_ENV }, "user MCP"),
    );
    await timed("user: native session (npx zcp-serve)", () =>
      checkNative("npx", serve, { cwd: app, env: USER_ENV }, "user native"),
    );
  }, 60_000);

  it("without prefixes, zcp gen fails on the collision, naming both packages", async () => {
    const folder = path.join(app, "collide");
    await mkdir(folder);
    await writeFile(
      path.join(folder, "zcp.config.json"),
      JSON.stringify({
        registries: ["@zcp-fixtures/billing-tools", "@zcp-fixtures/crm-tools"],
        outDir: "out",
      }),
    );
    const gen = await timed("collision: zcp gen", () => zcp(["gen"], folder));
    const text = output(gen);
    expect(gen.code, text).toBe(1);
    const line = text.split("\n").find((entry) => entry.includes("ZCP1402"));
    expect(line, text).toBeDefined();
    expect(line).toContain('"customers.lookup"');
    // Both packages, and where each declares its tool (in the package's sources, as its registry records).
    expect(line).toContain("@zcp-fixtures/billing-tools (src/customers.ts#lookupAccount)");
    expect(line).toContain("@zcp-fixtures/crm-tools (src/customers.ts#lookupContact)");
    expect(line).toContain(': give one of them a "prefix", or leave one out with "excludeAliases"');
    // Neither side is kept: the composed registry has the other tools only.
    expect(gen.stdout).toMatch(/^zcp gen: 3 tools/);

    // Leaving one side out resolves it; an alias the package does not have is a typo, an error.
    const exclude = (aliases: string[]) =>
      writeFile(
        path.join(folder, "zcp.config.json"),
        JSON.stringify({
          registries: [
            "@zcp-fixtures/billing-tools",
            { package: "@zcp-fixtures/crm-tools", excludeAliases: aliases },
          ],
          outDir: "out",
        }),
      );
    await exclude(["customers.lookup"]);
    const resolved = await zcp(["gen"], folder);
    expect(resolved.code, output(resolved)).toBe(0);
    expect(resolved.stdout).toMatch(/^zcp gen: 4 tools/);
    await exclude(["customer.lookup"]);
    const typo = await zcp(["gen"], folder);
    expect(typo.code, output(typo)).toBe(1);
    expect(output(typo)).toContain("customer.lookup");
  }, 60_000);

  describe("a breaking change: billing-tools 0.2.0 with a required parameter added", () => {
    let next: string;

    beforeAll(async () => {
      // A copy of the package's sources, as its maintainers would change and publish them.
      const copy = path.join(app, "next/billing-tools");
      const source = path.join(MONOREPO, "packages/billing-tools");
      await mkdir(copy, { recursive: true });
      await cp(path.join(source, "src"), path.join(copy, "src"), {
        recursive: true,
        filter: (file) => !file.includes("zcp.gen"),
      });
      for (const file of ["zcp.config.json", "tsconfig.build.json"])
        await cp(path.join(source, file), path.join(copy, file));
      const manifest = JSON.parse(
        await readFile(path.join(source, "package.json"), "utf8"),
      ) as Record<string, unknown>;
      await writeFile(
        path.join(copy, "package.json"),
        JSON.stringify(
          {
            ...manifest,
            version: "0.2.0",
            dependencies: { "@zcp/runtime": "0.1.0" },
            devDependencies: {},
          },
          null,
          2,
        ),
      );
      // The workspace's tsconfig extends the repository's base: the copy gets a standalone one.
      await writeFile(
        path.join(copy, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            module: "nodenext",
            strict: true,
            types: ["node"],
            noEmit: true,
          },
          include: ["src"],
        }),
      );
      const invoices = path.join(copy, "src/invoices.ts");
      const text = await readFile(invoices, "utf8");
      const before = "export function invoiceTotal(customerId: string)";
      expect(text).toContain(before);
      await writeFile(
        invoices,
        text.replace(
          before,
          'export function invoiceTotal(customerId: string, currency: "EUR" | "USD")',
        ),
      );
      await timed("billing-tools 0.2.0: zcp gen, tsc, npm pack", async () => {
        await ok("node", [genBin, "gen"], { cwd: copy });
        await ok(path.join(app, "node_modules/.bin/tsc"), ["-p", "tsconfig.build.json"], {
          cwd: copy,
        });
        const packed = await ok("npm", ["pack", "--json", "--pack-destination", packs], {
          cwd: copy,
        });
        const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
        next = path.join(tmp, "unpacked/billing-tools-0.2.0");
        await mkdir(next, { recursive: true });
        await ok("tar", ["-xzf", path.join(packs, filename), "-C", next], { cwd: tmp });
        next = path.join(next, "package");
      });
    }, 120_000);

    it("zcp diff <installed package> <0.2.0's registry> exits 1 naming the rule, 0 with --allow-breaking", async () => {
      const registry = path.join(next, "dist/zcp.gen");
      const diff = await timed("zcp diff (package name vs folder)", () =>
        zcp(["diff", "@zcp-fixtures/billing-tools", registry]),
      );
      expect(diff.code, output(diff)).toBe(1);
      expect(diff.stdout).toMatch(/^BREAKING invoices\.total: required-added: .*currency/m);
      const allowed = await zcp([
        "diff",
        "@zcp-fixtures/billing-tools",
        registry,
        "--allow-breaking",
      ]);
      expect(allowed.code, output(allowed)).toBe(0);
      expect(allowed.stdout).toContain("BREAKING invoices.total: required-added");
      const json = await zcp([
        "diff",
        "@zcp-fixtures/billing-tools",
        path.join(registry, "registry.js"),
        "--reporter",
        "json",
      ]);
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({
        breaking: 1,
        changes: [{ tool: "invoices.total", rule: "required-added", breaking: true }],
      });
    }, 60_000);

    it("the app compiled against 0.1.0 refuses to load on 0.2.0 until zcp gen runs again", async () => {
      // What npm install of the 0.2.0 tarball would put there.
      const installed = path.join(app, "node_modules/@zcp-fixtures/billing-tools");
      await rm(installed, { recursive: true, force: true });
      await cp(next, installed, { recursive: true });
      const load = await run("node", ["--input-type=module", "-e", IMPORT_APP], { cwd: app });
      expect(load.code).not.toBe(0);
      expect(load.stderr).toMatch(
        /@zcp-fixtures\/billing-tools\/zcp has registry hash [0-9a-f]{12}, but this module was composed from [0-9a-f]{12}: run zcp gen again/,
      );
      // zcp gen sees the changed package (its no-change fast path does not replay the last run)
      // and composes 0.2.0; then the app's typed calls no longer compile: the new parameter is missing.
      const regen = await zcp(["gen"]);
      expect(regen.code, output(regen)).toBe(0);
      expect(regen.stdout).toMatch(/; (.*, )?wrote registry\.ts/);
      const tsc = await run(path.join(app, "node_modules/.bin/tsc"), [], { cwd: app });
      expect(tsc.code, output(tsc)).not.toBe(0);
      expect(tsc.stdout).toMatch(
        /src\/typed-client\.check\.ts\(\d+,\d+\): error TS\d+: .*currency/,
      );
      // tsc still emits: the regenerated module loads on 0.2.0.
      const reloaded = await run("node", ["--input-type=module", "-e", IMPORT_APP], { cwd: app });
      expect({ code: reloaded.code, stderr: reloaded.stderr }).toEqual({ code: 0, stderr: "" });
    }, 60_000);
  });

  describe("version skew", () => {
    /** A project whose only registry is a copy of the installed crm-tools, its registry.js edited. */
    async function skewed(name: string, edit: (registry: string) => string): Promise<string> {
      const folder = path.join(app, name);
      const copy = path.join(folder, "node_modules/@zcp-fixtures/crm-tools");
      await mkdir(path.dirname(copy), { recursive: true });
      await cp(path.join(app, "node_modules/@zcp-fixtures/crm-tools"), copy, { recursive: true });
      const file = path.join(copy, "dist/zcp.gen/registry.js");
      await writeFile(file, edit(await readFile(file, "utf8")));
      await writeFile(
        path.join(folder, "zcp.config.json"),
        JSON.stringify({ registries: ["@zcp-fixtures/crm-tools"], outDir: "out" }),
      );
      return folder;
    }
    const replaceOnce = (text: string, pattern: RegExp, by: string): string => {
      expect(text.match(new RegExp(pattern.source, "g")), String(pattern)).toHaveLength(1);
      return text.replace(pattern, by);
    };

    it("a package generated by another zcp gen: warning ZCP1605, and the app still generates", async () => {
      const folder = await skewed("skew-generator", (text) =>
        replaceOnce(text, /generator: "[^"]*"/, 'generator: "0.0.1"'),
      );
      const gen = await zcp(["gen"], folder);
      expect(gen.code, output(gen)).toBe(0);
      expect(output(gen)).toMatch(
        /ZCP1605.*@zcp-fixtures\/crm-tools was generated by zcp gen 0\.0\.1; this is zcp gen /,
      );
    });

    it("a package of registry format 2: error ZCP1604", async () => {
      const folder = await skewed("skew-format", (text) =>
        replaceOnce(text, /version: 3\b/, "version: 2"),
      );
      const gen = await zcp(["gen"], folder);
      expect(gen.code, output(gen)).toBe(1);
      expect(output(gen)).toMatch(
        /ZCP1604.*@zcp-fixtures\/crm-tools was generated with registry format 2/,
      );
    });
  });
});
