/**
 * The user's path, taken as a user takes it: every package packed with `pnpm pack`, a new project
 * in a folder outside the workspace, the tarballs installed with npm (no pnpm, no workspace, the
 * workspace's bins off the PATH), the files of docs/getting-started.md's "Use it in your project" section,
 * `npx zcp gen`, `npx tsc`, and the compiled server listed and called by the official MCP SDK
 * client over stdio: `node dist/server.js`, the `zcp-serve` bin, that page's MCP host entries
 * started from another folder, the one-file bundle alone in an empty folder, and `dist/` on a
 * production install (`npm ci --omit=dev`) that holds none of the build tools. Then the add-ons:
 * `@zcp/agent` with the `openai` SDK (a compiled script of the project runs its tools through
 * `runAgent` against a loopback fake of the Responses API), and `@zcp/redis` (`npx zcp-serve
 * --transport http --store redis://…` on a real redis-server, skipped with the reason where none
 * can run and CI is not set). `publint` and `@arethetypeswrong/cli` (profile `esm-only`: the
 * packages are ESM only, deliberately) check every tarball, @zcp/code's too.
 *
 * Figures (tarball contents and sizes, install sizes, the bundle's size) are printed after the
 * run; with USER_PATH_REPORT=1 they are also written to report.json and report.md beside this
 * file. USER_PATH_KEEP=1 keeps the temporary folder and prints its path.
 *
 * One describe, one setup: each step builds on the project the steps before it left. What the
 * steps share is in helpers.ts; the add-ons' steps are in add-ons.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { copyFile, cp, lstat, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addOnTests } from "./add-ons.js";
import {
  checkMcp,
  exportTargets,
  type Figures,
  folderSize,
  installedPackages,
  type PackageDir,
  PACKAGES,
  type Packed,
  packageName,
  readSection,
  type Section,
  STRICTEST,
  TYPED_CLIENT_CHECK,
  writeReport,
} from "./helpers.js";
import {
  DEV_TOOLS,
  NPM_FLAGS,
  ok,
  ownStderr,
  packPackage,
  run,
  USER_ENV,
  userTemp,
  WORKSPACE,
  type Ran,
} from "./packing.js";

/** Exact versions of the package linters. */
const LINTERS = ["publint@0.3.25", "@arethetypeswrong/cli@0.18.5"];
/** Nothing of this may reach a production install of @zcp/runtime + @zcp/server. */
const BUILD_ONLY = [
  "tsx",
  "esbuild",
  "typescript",
  "ts-morph",
  "@ts-morph/common",
  "prettier",
  "gpt-tokenizer",
  "@zcp/gen",
  "chokidar",
];
const BUILD_ONLY_SCOPES = ["@esbuild/", "@typescript/"];
/** The placeholder for the project's folder in the README's host entries. */
const PLACEHOLDER = "/path/to/my-tools";
const WRITE_REPORT = process.env.USER_PATH_REPORT === "1";
const KEEP = process.env.USER_PATH_KEEP === "1";

describe("the user's path: packed tarballs, npm, a new project outside the workspace", () => {
  let tmp: string;
  let packs: string;
  let project: string;
  let elsewhere: string;
  let section: Section;
  const packed = new Map<PackageDir, Packed>();
  const figures: Figures = {
    node: process.version,
    npm: "",
    tarballs: [],
    steps: {},
    publint: {},
    attw: {},
  };
  let lint: string;
  let lintInstall: Promise<Ran>;
  const tarball = (dir: PackageDir): string => packed.get(dir)!.tarball;

  beforeAll(async () => {
    // Outside the workspace; nothing above it may resolve a package or configure a project.
    tmp = await userTemp("zcp-user-path-");
    packs = path.join(tmp, "packs");
    project = path.join(tmp, "my-tools");
    elsewhere = path.join(tmp, "elsewhere");
    lint = path.join(tmp, "lint");
    await Promise.all(
      [packs, project, elsewhere, lint].map((folder) => mkdir(folder, { recursive: true })),
    );
    figures.npm = (await ok("npm", ["--version"], { cwd: tmp })).stdout.trim();
    section = await readSection();

    // The linters install while the packages are packed and the project installs.
    await writeFile(
      path.join(lint, "package.json"),
      JSON.stringify({ name: "lint", private: true }, null, 2),
    );
    lintInstall = ok("npm", ["install", ...NPM_FLAGS, ...LINTERS], { cwd: lint });
    lintInstall.catch(() => {}); // awaited by the lint tests

    let started = performance.now();
    for (const dir of PACKAGES) {
      const entry: Packed = {
        dir,
        ...(await packPackage(
          path.join(WORKSPACE, "packages", dir),
          packs,
          path.join(tmp, "unpacked", dir),
        )),
      };
      packed.set(dir, entry);
      const { manifest: _manifest, unpacked: _unpacked, tarball: _tarball, ...figure } = entry;
      figures.tarballs.push(figure);
    }
    figures.steps[`pnpm pack (${PACKAGES.length} packages)`] = Math.round(
      performance.now() - started,
    );

    // The project: the README's files, then npm install of the tarballs and the dev tools.
    for (const [name, body] of section.files) {
      await mkdir(path.dirname(path.join(project, name)), { recursive: true });
      await writeFile(path.join(project, name), body);
    }
    await writeFile(path.join(project, "src/typed-client.check.ts"), TYPED_CLIENT_CHECK);
    started = performance.now();
    // @zcp/client is not on the registry yet: its tarball goes in too (the section's native client, and the typed-client check, install it).
    await ok(
      "npm",
      ["install", ...NPM_FLAGS, tarball("runtime"), tarball("server"), tarball("client")],
      { cwd: project },
    );
    figures.steps["npm install @zcp/runtime @zcp/server @zcp/client"] = Math.round(
      performance.now() - started,
    );
    started = performance.now();
    await ok("npm", ["install", "-D", ...NPM_FLAGS, tarball("gen"), ...DEV_TOOLS], {
      cwd: project,
    });
    figures.steps[`npm install -D @zcp/gen ${DEV_TOOLS.join(" ")}`] = Math.round(
      performance.now() - started,
    );
    figures.project = {
      packages: (await installedPackages(project)).length,
      bytes: (await folderSize(path.join(project, "node_modules"))).bytes,
    };
  }, 300_000);

  afterAll(async () => {
    const lines = [
      `user path (node ${figures.node}, npm ${figures.npm})`,
      ...figures.tarballs.map(
        (t) =>
          `  ${t.name}@${t.version}: tarball ${t.bytes} B, unpacked ${t.unpackedBytes} B in ${t.files.length} files (${t.declarationMapBytes} B of .d.ts.map)`,
      ),
      ...(figures.project
        ? [`  project install: ${figures.project.packages} packages, ${figures.project.bytes} B`]
        : []),
      ...(figures.production
        ? [
            `  production install (npm ci --omit=dev): ${figures.production.packages} packages, ${figures.production.bytes} B (@zcp: ${figures.production.zcpBytes} B)`,
          ]
        : []),
      ...(figures.bundle
        ? [
            `  bundle/server.mjs: ${figures.bundle.bytes} B (${figures.bundle.minifiedBytes} B with --minify)`,
          ]
        : []),
      ...Object.entries(figures.steps).map(([step, ms]) => `  ${step}: ${ms} ms`),
    ];
    console.log(lines.join("\n"));
    if (WRITE_REPORT) await writeReport(figures);
    if (KEEP) console.log(`kept ${tmp}`);
    else if (tmp) await rm(tmp, { recursive: true, force: true });
  }, 60_000);

  it("packs every package with versions instead of workspace: ranges, and what exports and bin name in the tarball", () => {
    const versions = new Map([...packed.values()].map((entry) => [entry.name, entry.version]));
    for (const entry of packed.values()) {
      const text = JSON.stringify(entry.manifest);
      expect(text, entry.name).not.toContain("workspace:");
      expect(entry.manifest.type, entry.name).toBe("module");
      for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
        for (const [dependency, range] of Object.entries(
          (entry.manifest[field] ?? {}) as Record<string, string>,
        )) {
          if (versions.has(dependency))
            expect(range, `${entry.name} ${field} ${dependency}`).toBe(versions.get(dependency));
        }
      }
      const paths = new Set(entry.files.map((file) => file.path));
      const targets = [
        ...exportTargets(entry.manifest.exports),
        ...Object.values((entry.manifest.bin ?? {}) as Record<string, string>),
      ];
      expect(targets.length, entry.name).toBeGreaterThan(0);
      for (const target of targets)
        expect(
          paths.has(path.posix.normalize(target)),
          `${entry.name}: ${target} in the tarball`,
        ).toBe(true);
      for (const bin of Object.values((entry.manifest.bin ?? {}) as Record<string, string>)) {
        expect(
          readFileSync(path.join(entry.unpacked, bin), "utf8").split("\n")[0],
          `${entry.name}: ${bin}`,
        ).toBe("#!/usr/bin/env node");
      }
      // Only the build output and the package's documents: no sources, tests or build info.
      for (const file of paths)
        expect(file, entry.name).toMatch(
          /^(dist\/.*\.(js|d\.ts|d\.ts\.map)|package\.json|README\.md|LICENSE)$/,
        );
    }
  });

  it("ships every package's README and LICENSE", () => {
    for (const entry of packed.values()) {
      const paths = entry.files.map((file) => file.path);
      expect(paths, `${entry.name} tarball`).toContain("LICENSE");
      expect(paths, `${entry.name} tarball (package.json "files" lists README.md)`).toContain(
        "README.md",
      );
    }
  });

  it("the README section names what this test installs and runs", () => {
    for (const text of [
      '"type": "module"',
      "npm install @zcp/runtime @zcp/server",
      "npm install -D @zcp/gen typescript @types/node esbuild",
      "npm install @zcp/client",
      "npm run build",
      "npm run bundle",
      "npx zcp-serve --registry dist/zcp.gen/index.js",
      "--omit=dev",
    ]) {
      expect(section.text, `${section.source}: ${text}`).toContain(text);
    }
    expect([...section.files.keys()].sort()).toEqual([
      "package.json",
      "src/client.ts",
      "src/server.ts",
      "src/tools.ts",
      "tsconfig.json",
      "zcp.config.json",
    ]);
  });

  it("npx zcp gen writes the registry, and --check finds it fresh", async () => {
    const gen = await ok("npx", ["zcp", "gen"], { cwd: project });
    figures.steps["npx zcp gen"] = gen.ms;
    expect(gen.stdout).toMatch(/^zcp gen: 3 tools, registry [0-9a-f]{12}; /);
    expect(ownStderr(gen)).toBe("");
    for (const file of ["index.ts", "registry.ts", "dispatch.ts", "validators.ts", "types.ts"])
      expect(existsSync(path.join(project, "src/zcp.gen", file)), file).toBe(true);
    const registry = await readFile(path.join(project, "src/zcp.gen/registry.ts"), "utf8");
    expect(registry).toContain(
      '"TOOL @25il51 greet(name:str, tone:formal|casual=casual) -> scalar"',
    );
    expect(registry).toContain(
      "orders.total(lines:{sku:str,qty:int,price:num}[], discount:num=0) -> scalar",
    );
    expect(registry).toContain("text.repeat(text:str, times:int) -> scalar");
    const check = await ok("npx", ["zcp", "gen", "--check"], { cwd: project });
    expect(ownStderr(check)).toBe("");
  }, 120_000);

  it("npx tsc compiles the project, generated code and the packages' declarations included, with no output", async () => {
    const tsc = await run("npx", ["tsc"], { cwd: project });
    figures.steps["npx tsc"] = tsc.ms;
    expect({ code: tsc.code, output: tsc.stdout + ownStderr(tsc) }).toEqual({
      code: 0,
      output: "",
    });
    for (const file of [
      "dist/server.js",
      "dist/tools.js",
      "dist/client.js",
      "dist/zcp.gen/index.js",
    ])
      expect(existsSync(path.join(project, file)), file).toBe(true);
    // skipLibCheck is off in the README's tsconfig: the shipped .d.ts files are checked too.
    expect(section.files.get("tsconfig.json")).not.toContain("skipLibCheck");
  }, 120_000);

  it("npm run build runs zcp gen && tsc from the package.json scripts", async () => {
    const build = await ok("npm", ["run", "build"], { cwd: project });
    figures.steps["npm run build (again)"] = build.ms;
  }, 120_000);

  it("node dist/server.js serves MCP on stdio to the official SDK client", async () => {
    const started = performance.now();
    await checkMcp(
      { command: "node", args: ["dist/server.js"], cwd: project },
      "node dist/server.js",
    );
    figures.steps["MCP session: node dist/server.js"] = Math.round(performance.now() - started);
  }, 60_000);

  it("npx zcp-serve --registry dist/zcp.gen/index.js serves the same", async () => {
    const started = performance.now();
    const { stderr } = await checkMcp(
      { command: "npx", args: ["zcp-serve", "--registry", "dist/zcp.gen/index.js"], cwd: project },
      "npx zcp-serve",
    );
    expect(stderr).toContain("zcp-serve: 3 tools on surface mcp");
    figures.steps["MCP session: npx zcp-serve"] = Math.round(performance.now() - started);
  }, 60_000);

  it("the README's gateway: zcp gen --from-mcp, then zcp-serve, in front of a real MCP server", async () => {
    // The README's two commands, with the memory server from the workspace instead of `npx -y`.
    const memory = path.join(
      path.dirname(
        createRequire(path.join(WORKSPACE, "packages/server/package.json")).resolve(
          "@modelcontextprotocol/server-memory/package.json",
        ),
      ),
      "dist/index.js",
    );
    const gateway = path.join(project, "gateway");
    await mkdir(gateway, { recursive: true });
    await ok("npx", ["zcp", "gen", "--from-mcp", `node ${JSON.stringify(memory)}`], {
      cwd: gateway,
    });
    const client = new Client({ name: "user-path", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        env: USER_ENV,
        command: "npx",
        args: ["zcp-serve", "--registry", "zcp.gen/index.js"],
        cwd: gateway,
        stderr: "pipe",
      }),
    );
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("memory_server_read_graph");
      const graph = await client.callTool({ name: "memory_server_read_graph", arguments: {} });
      expect(graph.isError).toBeUndefined();
      expect(graph.structuredContent).toHaveProperty("entities");
    } finally {
      await client.close();
    }
  }, 120_000);

  it("the README's MCP host entries work when a host starts them from another folder", async () => {
    const entries = Object.entries(section.hosts.mcpServers);
    expect(entries.length).toBeGreaterThanOrEqual(2);
    for (const [name, entry] of entries) {
      const args = (entry.args ?? []).map((arg) => arg.replaceAll(PLACEHOLDER, project));
      expect(args.join(" "), name).toContain(project);
      await checkMcp(
        {
          command: entry.command,
          args,
          cwd: entry.cwd?.replaceAll(PLACEHOLDER, project) ?? elsewhere,
        },
        `host entry ${name}`,
      );
    }
  }, 120_000);

  it("the native client (src/client.ts) lists planner lines and calls with generated types", async () => {
    const ran = await ok("node", ["dist/client.js"], { cwd: project, timeoutMs: 60_000 });
    const lines = ran.stdout.trim().split("\n");
    expect(lines.filter((line) => line.startsWith("TOOL @"))).toHaveLength(3);
    expect(JSON.parse(lines.at(-1)!)).toEqual({ ok: true, value: { total: 700, count: 1 } });
    expect(ran.stderr).toContain("zcp-serve: serving native ZCP on stdio");
  }, 60_000);

  it("npm run bundle makes one ESM file that runs alone in an empty folder", async () => {
    const bundle = await ok("npm", ["run", "bundle"], { cwd: project });
    figures.steps["npm run bundle"] = bundle.ms;
    const file = path.join(project, "bundle/server.mjs");
    const code = await readFile(file, "utf8");
    // A CJS dependency's require() of a Node built-in becomes esbuild's __require shim, which throws "Dynamic require of ... is not
    // supported" in ESM unless the bundle gets a createRequire banner. There is none of it: the README's command needs no banner.
    expect(
      code.includes("Dynamic require of"),
      "the bundle has esbuild's dynamic-require shim: it needs a createRequire banner",
    ).toBe(false);
    const alone = path.join(tmp, "bundle-alone");
    await mkdir(alone);
    await copyFile(file, path.join(alone, "server.mjs"));
    expect(await readdir(alone)).toEqual(["server.mjs"]);
    await checkMcp({ command: "node", args: ["server.mjs"], cwd: alone }, "bundle alone");
    await ok(
      "npx",
      [
        "esbuild",
        "dist/server.js",
        "--bundle",
        "--platform=node",
        "--format=esm",
        "--minify",
        "--outfile=bundle/server.min.mjs",
      ],
      { cwd: project },
    );
    figures.bundle = {
      bytes: (await lstat(file)).size,
      minifiedBytes: (await lstat(path.join(project, "bundle/server.min.mjs"))).size,
    };
  }, 60_000);

  it("a production install (npm ci --omit=dev) has none of the build tools, and dist/ runs on it", async () => {
    const deploy = path.join(tmp, "deploy");
    await mkdir(deploy);
    const manifest = JSON.parse(await readFile(path.join(project, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      "@zcp/client",
      "@zcp/runtime",
      "@zcp/server",
    ]);
    expect(Object.keys(manifest.devDependencies).sort()).toEqual([
      "@types/node",
      "@zcp/gen",
      "esbuild",
      "typescript",
    ]);
    await copyFile(path.join(project, "package.json"), path.join(deploy, "package.json"));
    await copyFile(path.join(project, "package-lock.json"), path.join(deploy, "package-lock.json"));
    const ci = await ok(
      "npm",
      ["ci", "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline"],
      { cwd: deploy },
    );
    figures.steps["npm ci --omit=dev"] = ci.ms;
    const keys = await installedPackages(deploy);
    const names = [...new Set(keys.map(packageName))].sort();
    const found = names.filter(
      (name) =>
        BUILD_ONLY.includes(name) || BUILD_ONLY_SCOPES.some((scope) => name.startsWith(scope)),
    );
    expect(found).toEqual([]);
    for (const name of BUILD_ONLY)
      expect(existsSync(path.join(deploy, "node_modules", name)), name).toBe(false);
    expect(names).toEqual(
      expect.arrayContaining([
        "@zcp/runtime",
        "@zcp/server",
        "@zcp/client",
        "@modelcontextprotocol/server",
        "@modelcontextprotocol/client",
      ]),
    );
    // The v1 SDK is the tests' 2025 client only: nothing in production needs it.
    expect(names).not.toContain("@modelcontextprotocol/sdk");
    figures.production = {
      packages: keys.length,
      bytes: (await folderSize(path.join(deploy, "node_modules"))).bytes,
      zcpBytes: (await folderSize(path.join(deploy, "node_modules/@zcp"))).bytes,
      largest: (
        await Promise.all(
          names.map(async (name) => ({
            name,
            bytes: (await folderSize(path.join(deploy, "node_modules", name))).bytes,
          })),
        )
      )
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 8),
      names,
    };
    await cp(path.join(project, "dist"), path.join(deploy, "dist"), { recursive: true });
    await checkMcp(
      { command: "node", args: ["dist/server.js"], cwd: deploy },
      "production install",
    );
  }, 120_000);

  it("publint passes on every tarball (--strict: warnings fail too)", async () => {
    await lintInstall;
    await Promise.all(
      [...packed.values()].map(async (entry) => {
        const ran = await ok("npx", ["publint", "run", "--strict", entry.tarball], { cwd: lint });
        figures.publint[entry.name] = ran.stdout.trim().split("\n").at(-1)!;
        expect(ran.stdout, entry.name).toContain("All good!");
      }),
    );
  }, 120_000);

  it("@arethetypeswrong/cli passes on every tarball with --profile esm-only (the packages are ESM only)", async () => {
    await lintInstall;
    await Promise.all(
      [...packed.values()].map(async (entry) => {
        const ran = await run(
          "npx",
          ["attw", entry.tarball, "--profile", "esm-only", "--format", "json"],
          { cwd: lint },
        );
        const json = JSON.parse(ran.stdout) as {
          analysis: { problems: { kind: string; entrypoint: string; resolutionKind?: string }[] };
        };
        const problems = json.analysis.problems.map(
          (problem) => `${problem.kind} ${problem.entrypoint} (${problem.resolutionKind ?? "-"})`,
        );
        figures.attw[entry.name] = { problems };
        expect(ran.code, `${entry.name}: ${problems.join(", ")}\n${ran.stderr}`).toBe(0);
        // What the strict profile would add are the CommonJS and node10 resolutions only: ESM only, by design.
        for (const problem of json.analysis.problems)
          expect(["node10", "node16-cjs"], `${entry.name}: ${problem.kind}`).toContain(
            problem.resolutionKind,
          );
      }),
    );
  }, 120_000);

  it("the generated code also compiles under the strictest user tsconfig flags", async () => {
    const base = JSON.parse(section.files.get("tsconfig.json")!) as {
      compilerOptions: Record<string, unknown>;
    };
    const strictest = { ...base, compilerOptions: { ...base.compilerOptions, ...STRICTEST } };
    await writeFile(
      path.join(project, "tsconfig.strictest.json"),
      JSON.stringify(strictest, null, 2),
    );
    const tsc = await run("npx", ["tsc", "-p", "tsconfig.strictest.json"], { cwd: project });
    expect({ code: tsc.code, output: tsc.stdout + ownStderr(tsc) }).toEqual({
      code: 0,
      output: "",
    });
  }, 120_000);

  // The two steps below add dependencies to the project: they come after the production install, which checks its exact list.
  addOnTests(() => ({ project, figures, tarball }));
});
