/**
 * What the monorepo test shares between its workspace and user cases: the fixture's folders, the
 * wall time of each step, what both servers (the workspace's and the user's) must answer over MCP
 * and native stdio, and the user's app installed from the packed tarballs.
 */
import { cp, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  StdioClientTransport,
  type StdioServerParameters,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { connectStdio } from "@zcp/client";
import { expect } from "vitest";
import {
  DEV_TOOLS,
  NPM_FLAGS,
  ok,
  packPackage,
  WORKSPACE,
  type Tarball,
} from "../user-path/packing.js";

export const MONOREPO = path.join(WORKSPACE, "fixtures/monorepo");
export const APP = path.join(MONOREPO, "app");
export const TOOL_PACKAGES = ["billing-tools", "crm-tools"] as const;

/** The composed app's MCP tool names: each package's under its prefix, and the app's own. */
const MCP_NAMES = [
  "billing_customers_lookup",
  "billing_invoices_list",
  "billing_invoices_total",
  "crm_contacts_search",
  "crm_customers_lookup",
  "support_triage",
];
const ALIASES = [
  "billing.customers.lookup",
  "billing.invoices.list",
  "billing.invoices.total",
  "crm.contacts.search",
  "crm.customers.lookup",
  "support.triage",
];

/** Wall time per step, printed after the run. */
export const steps: Record<string, number> = {};
export async function timed<T>(step: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    steps[step] = Math.round(performance.now() - started);
  }
}

// ---------------------------------------------------------------------------------------------
// What both servers (the workspace's and the user's) must answer

export async function checkMcp(server: StdioServerParameters, label: string): Promise<void> {
  const client = new Client({ name: "monorepo", version: "1.0.0" });
  const transport = new StdioClientTransport({ ...server, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort(), label).toEqual(MCP_NAMES);
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;
    // One tool of each package and the app's own; the two customers.lookup reach their own package.
    expect(
      (await call("billing_invoices_total", { customerId: "c-200" })).structuredContent,
      label,
    ).toEqual({
      total: 9800,
      count: 2,
    });
    expect(
      (await call("billing_customers_lookup", { customerId: "c-100" })).structuredContent,
      label,
    ).toEqual({
      customerId: "c-100",
      company: "Acme Corp",
      plan: "enterprise",
      balance: 120000,
    });
    expect(
      (await call("crm_customers_lookup", { customerId: "c-100" })).structuredContent,
      label,
    ).toEqual({
      customerId: "c-100",
      name: "Ada Lovelace",
      email: "ada@acme.example",
      company: "Acme Corp",
      segment: "enterprise",
    });
    expect(
      (await call("support_triage", { subject: "Charged twice in November" })).structuredContent,
      label,
    ).toEqual({
      priority: "urgent",
      reason: 'mentions "charged twice"',
    });
    // The packages' own validators check their tools' arguments.
    const empty = await call("crm_contacts_search", { query: "" });
    expect(empty.isError, label).toBe(true);
    expect(JSON.stringify(empty.content), label).toContain("invalid:$.query");
    const late = await call("billing_invoices_list", { customerId: "c-100", status: "late" });
    expect(late.isError, label).toBe(true);
    expect(JSON.stringify(late.content), label).toContain("invalid:$.status");
  } catch (error) {
    (error as Error).message += `\n--- ${label}: server stderr\n${stderr}`;
    throw error;
  } finally {
    await client.close();
  }
}

export async function checkNative(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string> },
  label: string,
): Promise<void> {
  const client = connectStdio(command, [...args, "--surface", "native"], {
    ...options,
    stderr: "ignore",
  });
  try {
    await client.initialize();
    const listing = await client.listTools();
    const lines = listing.tools.split("\n").filter((line) => line.startsWith("TOOL @"));
    expect(lines.map((line) => /^TOOL @\w+ ([\w.-]+)\(/.exec(line)![1]).sort(), label).toEqual(
      ALIASES,
    );
    expect(
      lines.find((line) => line.includes(" billing.invoices.list(")),
      label,
    ).toContain("status:open|paid|void");
    expect(
      await client.call("billing.invoices.list", { customerId: "c-100", status: "open" }),
      label,
    ).toMatchObject({
      ok: true,
      value: [{ number: "INV-2002", amount: 120000, status: "open" }],
    });
    expect(await client.call("crm.contacts.search", { query: "GLOBEX" }), label).toMatchObject({
      ok: true,
      value: [{ customerId: "c-200", name: "Grace Hopper" }],
    });
    expect(
      await client.call("support.triage", { subject: "How do I export?" }),
      label,
    ).toMatchObject({
      ok: true,
      value: { priority: "low" },
    });
  } finally {
    await client.close();
  }
}

export interface UserProject {
  /** The temporary folder, outside the workspace. */
  tmp: string;
  /** The tarballs. */
  packs: string;
  /** The user's app, its dependencies installed. */
  app: string;
  /** The installed `zcp` bin's script. */
  genBin: string;
  tarballs: Map<string, Tarball>;
}

/**
 * The user's app: the six packages packed, the app's files written, one npm install. Started as
 * soon as the tool packages are built, so that it installs while the workspace cases run.
 */
export async function setUpUserProject(tmp: string): Promise<UserProject> {
  const packs = path.join(tmp, "packs");
  const app = path.join(tmp, "app");
  const tarballs = new Map<string, Tarball>();
  await mkdir(packs, { recursive: true });
  await mkdir(path.join(app, "src"), { recursive: true });
  // The tool packages' dist/ is what the top-level beforeAll built.
  const folders = [
    ...["runtime", "client", "server", "gen"].map((dir) => path.join(WORKSPACE, "packages", dir)),
    ...TOOL_PACKAGES.map((name) => path.join(MONOREPO, "packages", name)),
  ];
  await timed("pnpm pack (6 packages, in parallel)", () =>
    Promise.all(
      folders.map(async (folder) => {
        const tarball = await packPackage(
          folder,
          packs,
          path.join(tmp, "unpacked", path.basename(folder)),
        );
        tarballs.set(tarball.name, tarball);
      }),
    ),
  );
  const file = (name: string) => `file:${path.relative(app, tarballs.get(name)!.tarball)}`;
  const pinned = Object.fromEntries(
    DEV_TOOLS.filter((tool) => !tool.startsWith("esbuild@")).map((tool) => {
      const at = tool.lastIndexOf("@");
      return [tool.slice(0, at), tool.slice(at + 1)];
    }),
  );
  // The app's own files: its config and tool as in the fixture, a tsconfig of its own.
  await writeFile(
    path.join(app, "package.json"),
    JSON.stringify(
      {
        name: "my-app",
        private: true,
        type: "module",
        scripts: { build: "zcp gen && tsc" },
        dependencies: {
          "@zcp-fixtures/billing-tools": file("@zcp-fixtures/billing-tools"),
          "@zcp-fixtures/crm-tools": file("@zcp-fixtures/crm-tools"),
          "@zcp/client": file("@zcp/client"),
          "@zcp/runtime": file("@zcp/runtime"),
          "@zcp/server": file("@zcp/server"),
        },
        devDependencies: { "@zcp/gen": file("@zcp/gen"), ...pinned },
      },
      null,
      2,
    ),
  );
  await writeFile(
    path.join(app, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: {
          target: "ES2022",
          module: "nodenext",
          strict: true,
          types: ["node"],
          rootDir: "src",
          outDir: "dist",
        },
        include: ["src"],
      },
      null,
      2,
    ),
  );
  await cp(path.join(APP, "zcp.config.json"), path.join(app, "zcp.config.json"));
  for (const source of ["support.ts", "typed-client.check.ts"])
    await cp(path.join(APP, "src", source), path.join(app, "src", source));
  await timed("npm install (the 6 tarballs, typescript, @types/node)", () =>
    ok("npm", ["install", ...NPM_FLAGS], { cwd: app }),
  );
  return {
    tmp,
    packs,
    app,
    genBin: path.join(app, "node_modules/@zcp/gen/dist/bin/zcp.js"),
    tarballs,
  };
}
