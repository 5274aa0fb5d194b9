/**
 * zcp gen from an MCP server, against a fake upstream written into a scratch folder
 * (upstream-fake.ts): every page listed, the definitions, the overrides, the errors (cannot
 * start, listing failed, timeout, a missing variable), the JavaScript output, drift under
 * `--check`, entries that are not valid MCP tools (each left out on its own, ZCP1714), and what
 * fails a listing whole (a page of the wrong shape, one past the bounds).
 */
import fs from "node:fs";
import path from "node:path";
import { compileEntries } from "@zcp/runtime/definition";
import { describe, expect, test } from "vitest";
import { loadConfig } from "../src/config.js";
import { Generator } from "../src/pipeline.js";
import { listUpstream } from "../src/upstream/index.js";
import { importWrittenGateway, scratchWithServer } from "./generated-modules.js";
import { runZcp, scratchProject } from "./helpers.js";
import { FAKE_TOOLS, setFakeTools, writeFakeUpstream } from "./upstream-fake.js";

const FAKE = { command: "node", args: ["fake-server.mjs"] };

function project(fromMcp: object, mode: object = {}, tools: readonly object[] = FAKE_TOOLS) {
  const dir = scratchProject({ "zcp.config.json": JSON.stringify({ fromMcp }) });
  writeFakeUpstream(dir, tools, mode);
  return dir;
}

async function generate(dir: string) {
  const loaded = loadConfig(dir);
  if (!loaded.config) throw new Error(JSON.stringify(loaded.diagnostics));
  return new Generator(loaded.config).generate();
}

describe("listing and modelling", () => {
  test("every page, as definitions with planner lines, validators and the gateway dispatch", async () => {
    const dir = project({ server: FAKE });
    const result = await generate(dir);
    // put_note's open-ended `meta` (see the strict-mode test below).
    expect(result.diagnostics.map((d) => d.code)).toEqual(["ZCP1501"]);
    const [forecast, note] = result.registry.tools;
    expect(result.registry.tools.map((tool) => tool.alias)).toEqual([
      "fake_server.get-forecast",
      "fake_server.put_note",
    ]);
    expect(forecast).toMatchObject({
      title: "Forecast",
      descriptionShort: "Forecast for a city.",
      outputMode: "auto",
      flags: ["readonly", "idempotent"],
      defaults: { days: 3 },
      call: { kind: "object", context: 1 },
      source: { file: "mcp:fake_server", export: "get-forecast" },
      outputSchema: FAKE_TOOLS[0]!.outputSchema,
    });
    expect(forecast!.inputSchema).not.toHaveProperty("$schema");
    expect(forecast!.planner).toBe(
      `TOOL @${forecast!.id} fake_server.get-forecast(city:str "City name.", days:int=3) -> auto -- "Forecast for a city."`,
    );
    expect(note).toMatchObject({ title: "Put a note", outputSchema: null, flags: [] });
    expect(result.gateway?.name).toBe("fake_server");

    const files = new Map(result.files.map((file) => [file.path, file.content]));
    expect([...files.keys()]).toEqual([
      "dispatch.js",
      "find.js",
      "index.d.ts",
      "index.js",
      "package.json",
      "registry.js",
      "registry.json",
      "types.d.ts",
      "validators.js",
    ]);
    expect(files.get("dispatch.js")).toContain(`import { upstream } from "@zcp/server/gateway";\n`);
    expect(files.get("dispatch.js")).toContain(
      `const server = upstream(upstreamServer, { name: "fake_server" });`,
    );
    expect(files.get("dispatch.js")).toContain(
      `(args, context) => server.call("get-forecast", args, context)`,
    );
    const manifest = JSON.parse(files.get("registry.json")!) as {
      upstream: { listingHash: string };
    };
    expect(manifest.upstream.listingHash).toMatch(/^[0-9a-f]{64}$/);

    // The validators are the usual ones, generated from the listed schemas, and run as plain JS.
    runZcp(dir, ["gen"]);
    const { validators } = (await import(path.join(dir, "zcp.gen/validators.js"))) as {
      validators: Record<string, (input: unknown) => { ok: boolean }>;
    };
    expect(validators[forecast!.id]!({ city: "Oslo", days: 3 }).ok).toBe(true);
    expect(validators[forecast!.id]!({ city: "Oslo", days: 30 }).ok).toBe(false);
    expect(validators[forecast!.id]!({ days: 3 }).ok).toBe(false);
  });

  test("overrides: alias, groups, stages, output, scopes, flags, exclude; a name that is not listed is a warning", async () => {
    const dir = project({
      server: FAKE,
      name: "wx",
      groups: ["weather"],
      tools: {
        "get-forecast": {
          alias: "wx.forecast",
          groups: ["read"],
          stages: ["plan"],
          output: "handle",
          scopes: ["wx:read"],
          flags: ["approval"],
        },
        put_note: { exclude: true },
        nope: { output: "scalar" },
      },
    });
    const result = await generate(dir);
    expect(result.registry.tools).toHaveLength(1);
    expect(result.registry.tools[0]).toMatchObject({
      alias: "wx.forecast",
      groups: ["weather", "read"],
      stages: ["plan"],
      outputMode: "handle",
      scopes: ["wx:read"],
      flags: ["approval"],
      source: { file: "mcp:wx", export: "get-forecast" },
    });
    expect(result.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["ZCP1705", `"fromMcp"."tools" names "nope", which the upstream does not list`],
    ]);
  });

  test("every hint, true or explicitly false, carries to the gateway's flags and its MCP entry", async () => {
    const tool = (name: string, annotations: object) => ({
      name,
      description: `The ${name} tool.`,
      annotations,
      inputSchema: { type: "object", properties: {} },
    });
    const dir = project({ server: FAKE }, {}, [
      tool("lookup", { readOnlyHint: true, openWorldHint: true, destructiveHint: false }),
      tool("append", {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      }),
      tool("wipe", { destructiveHint: true, idempotentHint: true }),
      // MCP reads destructiveHint only for tools that are not read-only.
      tool("peek", { readOnlyHint: true, destructiveHint: true }),
      tool("plain", {}),
    ]);
    const result = await generate(dir);
    const entries = result.registry.tools.map((definition) => [
      definition.name,
      definition.flags,
      compileEntries(definition, ["mcp"]).entries.mcp?.annotations,
    ]);
    // In alias order, as the registry lists them.
    expect(entries).toEqual([
      [
        "fake_server_append",
        ["!readonly", "!destructive", "!idempotent", "!openworld"],
        {
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: false,
          openWorldHint: false,
        },
      ],
      [
        "fake_server_lookup",
        ["readonly", "!destructive", "openworld"],
        { readOnlyHint: true, destructiveHint: false, openWorldHint: true },
      ],
      ["fake_server_peek", ["readonly"], { readOnlyHint: true }],
      ["fake_server_plain", [], undefined],
      [
        "fake_server_wipe",
        ["destructive", "idempotent"],
        { destructiveHint: true, idempotentHint: true },
      ],
    ]);
  });

  test('"describe": "full": the whole upstream description in planner lines and provider entries', async () => {
    const dir = scratchProject({
      "zcp.config.json": JSON.stringify({ fromMcp: { server: FAKE }, describe: "full" }),
    });
    writeFakeUpstream(dir, FAKE_TOOLS);
    const [forecast] = (await generate(dir)).registry.tools;
    expect(forecast!.descriptionShort).toBe(FAKE_TOOLS[0]!.description);
    expect(forecast!.planner).toBe(
      `TOOL @${forecast!.id} fake_server.get-forecast(city:str "City name.", days:int=3) -> auto -- ${JSON.stringify(FAKE_TOOLS[0]!.description)}`,
    );
  });

  test("a schema strict mode cannot take keeps its tool, non-strict, with the usual diagnostic", async () => {
    const result = await generate(project({ server: FAKE }));
    expect(result.registry.tools.map((tool) => tool.alias)).toContain("fake_server.put_note");
    expect(result.diagnostics.map((d) => [d.severity, d.code, d.message])).toEqual([
      [
        "warning",
        "ZCP1501",
        "fake_server.put_note: OpenAI strict mode cannot express it ($.meta is an open-ended object (a Record or index signature); strict mode needs every key named); its OpenAI entries are sent with strict: false",
      ],
    ]);
    const loose = {
      name: "loose",
      description: "Takes anything.",
      inputSchema: { type: "object", additionalProperties: { type: "string" } },
    };
    const dir = project({ server: FAKE }, {}, [loose]);
    const other = await generate(dir);
    expect(other.registry.tools.map((tool) => tool.alias)).toEqual(["fake_server.loose"]);
    expect(other.diagnostics.map((d) => d.code)).toContain("ZCP1501");
    expect(other.diagnostics.every((d) => d.severity === "warning")).toBe(true);
  });
});

describe("errors", () => {
  test("a server that exits: its command and last stderr lines, and nothing is written", () => {
    const dir = project({ server: FAKE }, { exit: "boom: no API key\nsecond line" });
    const run = runZcp(dir, ["gen"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "error ZCP1701: cannot start or connect to the upstream server node fake-server.mjs:",
    );
    expect(run.stderr).toContain("its last stderr lines:\n    boom: no API key\n    second line");
    expect(fs.existsSync(path.join(dir, "zcp.gen"))).toBe(false);
  });

  test("a command that does not exist", async () => {
    const listed = await listUpstream({ command: "zcp-no-such-command-17" });
    expect(listed.diagnostics[0]?.code).toBe("ZCP1701");
    expect(listed.diagnostics[0]?.message).toContain("zcp-no-such-command-17");
  });

  test("tools/list failing", async () => {
    const dir = project({ server: FAKE }, { listError: "the index is locked" });
    const listed = await listUpstream(FAKE, { cwd: dir });
    expect(listed.diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        "ZCP1702",
        "the upstream server node fake-server.mjs failed tools/list: the index is locked (JSON-RPC error -32603)",
      ],
    ]);
  });

  test("a server that never answers times out", async () => {
    const dir = project({ server: FAKE }, { silent: true });
    const listed = await listUpstream(FAKE, { cwd: dir, timeoutMs: 300 });
    expect(listed.diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        "ZCP1703",
        "the upstream server node fake-server.mjs did not answer initialize within 0.3 s",
      ],
    ]);
  });

  test("a ${NAME} that is not set is named; the dispatch keeps the template", async () => {
    const server = { ...FAKE, env: { TOKEN: "${ZCP_TEST_TOKEN_17}" } };
    const dir = project({ server });
    const missing = await listUpstream(server, { cwd: dir, env: {} });
    expect(missing.diagnostics[0]?.message).toBe(
      "the environment variable ZCP_TEST_TOKEN_17, which the upstream server node fake-server.mjs names as ${ZCP_TEST_TOKEN_17}, is not set",
    );
    process.env.ZCP_TEST_TOKEN_17 = "secret-value";
    try {
      const result = await generate(dir);
      const dispatch = result.files.find((file) => file.path === "dispatch.js")!.content;
      expect(dispatch).toContain('TOKEN: "${ZCP_TEST_TOKEN_17}"');
      expect(result.files.some((file) => file.content.includes("secret-value"))).toBe(false);
    } finally {
      delete process.env.ZCP_TEST_TOKEN_17;
    }
  });

  test("configuration errors", () => {
    for (const [fromMcp, message] of [
      [{}, `"fromMcp" must have "server"`],
      [{ server: { command: "x", url: "http://a" } }, `exactly one of "command"`],
      [{ server: { url: "ftp://a" } }, `"url" must be an http:// or https:// URL`],
      [
        { server: FAKE, tools: { a: { output: "big" } } },
        `"output" must be one of auto, handle, scalar`,
      ],
      [{ server: FAKE, tools: { a: { alias: "9x" } } }, `"alias" must be a tool alias`],
    ] as const) {
      const dir = scratchProject({ "zcp.config.json": JSON.stringify({ fromMcp }) });
      const loaded = loadConfig(dir);
      expect(loaded.config).toBeNull();
      expect(loaded.diagnostics[0]?.message).toContain(message);
    }
    const dir = scratchProject({
      "zcp.config.json": JSON.stringify({ fromMcp: { server: FAKE }, include: ["src/**/*.ts"] }),
    });
    expect(loadConfig(dir).diagnostics[0]?.message).toBe(
      `"fromMcp" takes its tools from the upstream MCP server: it cannot be combined with "include"`,
    );
  });
});

describe("--check and drift", () => {
  test("passes while the listing is the same, fails with the exact message when it changes", () => {
    const dir = project({ server: FAKE });
    expect(runZcp(dir, ["gen"]).status).toBe(0);
    const check = runZcp(dir, ["gen", "--check"]);
    expect(check.stderr).not.toContain("error");
    expect(check.status).toBe(0);
    // No local file changes; a second run is not answered from the no-change cache.
    expect(runZcp(dir, ["gen", "--check"]).stdout).not.toContain("cached");

    setFakeTools(dir, [FAKE_TOOLS[0]!]);
    const drift = runZcp(dir, ["gen", "--check"]);
    expect(drift.status).toBe(1);
    expect(drift.stderr).toContain(
      "zcp - error ZCP1706: the upstream's tool listing changed since zcp gen wrote zcp.gen/registry.json: run zcp gen\n",
    );
    expect(runZcp(dir, ["gen"]).status).toBe(0);
    expect(runZcp(dir, ["gen", "--check"]).status).toBe(0);
  });
});

/** A tool name no generated file may hold but as a literal. */
const HOSTILE = '"); process.exit(7); ("\n*/ ${x}';

/** Valid tools between one of each kind of malformed entry, one a page. */
const MIXED: readonly unknown[] = [
  FAKE_TOOLS[0],
  { name: "no_object", description: "Takes a list.", inputSchema: { type: "array" } },
  { description: "Nameless.", inputSchema: { type: "object" } },
  { name: "bad_description", description: 42, inputSchema: { type: "object" } },
  {
    name: "bad_output",
    description: "Returns text.",
    inputSchema: { type: "object" },
    outputSchema: { type: "string" },
  },
  FAKE_TOOLS[1],
  "not a tool",
  {
    name: 7,
    title: ["x"],
    inputSchema: { properties: { q: "text" }, required: ["q", 1] },
    annotations: { readOnlyHint: "yes" },
  },
  { name: HOSTILE, description: "Hostile.", inputSchema: null },
  {
    name: "fields_not_read",
    description: "Has fields zcp does not read, of kinds MCP does not allow.",
    icons: "none",
    execution: 5,
    _meta: [],
    inputSchema: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
  },
  { name: "no_input", description: "No schema." },
];

/** What is wrong with each malformed entry of MIXED, as ZCP1714 says it (in the reporter's order). */
const MIXED_ERRORS = [
  'the upstream tool "\\"); process.exit(7); (\\"\\n*/ ${x}" is not a valid MCP tool: its "inputSchema" is null, not an object; the tool is left out',
  'the upstream tool "bad_description" is not a valid MCP tool: its "description" is a number, not a string; the tool is left out',
  'the upstream tool "bad_output" is not a valid MCP tool: its "outputSchema"."type" is "string", not "object"; the tool is left out',
  'the upstream tool "no_input" is not a valid MCP tool: its "inputSchema" is missing (an object is required); the tool is left out',
  'the upstream tool "no_object" is not a valid MCP tool: its "inputSchema"."type" is "array", not "object"; the tool is left out',
  'the upstream tool at index 2 of the listing is not a valid MCP tool: its "name" is missing (a string is required); the tool is left out',
  "the upstream tool at index 6 of the listing is not a valid MCP tool: it is a string, not an object; the tool is left out",
  'the upstream tool at index 7 of the listing is not a valid MCP tool: its "name" is a number, not a string, and its "title" is an array, not a string, and its "inputSchema"."type" is missing ("object" is required), and its "inputSchema"."properties"."q" is a string, not an object, and its "inputSchema"."required"[1] is a number, not a string, and its "annotations"."readOnlyHint" is a string, not a boolean; the tool is left out',
];

describe("malformed tools", () => {
  test("each is reported on its own and left out; the others are written and load", async () => {
    const dir = scratchWithServer();
    writeFakeUpstream(dir, MIXED as object[]);
    const run = runZcp(dir, ["gen", "--from-mcp", "node fake-server.mjs", "--reporter", "json"]);
    const report = JSON.parse(run.stdout) as {
      diagnostics: { severity: string; code: string; message: string; file: string }[];
      written: string[];
    };
    expect(run.status).toBe(1);
    expect(report.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`)).toEqual([
      expect.stringMatching(/^warning ZCP1501: fake_server\.put_note: /),
      ...MIXED_ERRORS.map((message) => `error ZCP1714: ${message}`),
    ]);
    expect(new Set(report.diagnostics.map((d) => d.file))).toEqual(new Set(["--from-mcp"]));
    expect(report.written).toContain("index.js");

    const { tools, validate } = await importWrittenGateway(dir);
    // Fields zcp does not read (icons, execution, _meta) fail no tool, whatever they hold.
    expect([...tools.keys()]).toEqual(["fields_not_read", "get-forecast", "put_note"]);
    expect(validate("fields_not_read", { id: 3 }).ok).toBe(true);
    expect(validate("fields_not_read", { id: "three" }).ok).toBe(false);
    expect(validate("get-forecast", { city: "Oslo" }).ok).toBe(true);
    for (const file of fs.readdirSync(path.join(dir, "zcp.gen")))
      expect(fs.readFileSync(path.join(dir, "zcp.gen", file), "utf8")).not.toContain("exit(7)");
  });

  test("an excluded one is not reported; an override of one is not a name the upstream does not list", async () => {
    const dir = project(
      { server: FAKE, tools: { no_object: { exclude: true }, bad_output: { alias: "x.out" } } },
      {},
      MIXED.slice(0, 5) as object[],
    );
    const result = await generate(dir);
    expect(result.diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([
      `ZCP1714: ${MIXED_ERRORS[1]}`,
      `ZCP1714: ${MIXED_ERRORS[2]}`,
      `ZCP1714: ${MIXED_ERRORS[5]}`,
    ]);
    // With every malformed one excluded, the run is clean.
    fs.writeFileSync(
      path.join(dir, "zcp.config.json"),
      JSON.stringify({ fromMcp: { server: FAKE, tools: { no_object: { exclude: true } } } }),
    );
    setFakeTools(dir, MIXED.slice(0, 2) as object[]);
    const run = runZcp(dir, ["gen"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  test("fixing one changes the listing: --check reports drift", () => {
    const dir = project({ server: FAKE }, {}, MIXED.slice(0, 2) as object[]);
    expect(runZcp(dir, ["gen"]).status).toBe(1);
    expect(runZcp(dir, ["gen", "--check"]).stderr).not.toContain("ZCP1706");
    setFakeTools(dir, [
      FAKE_TOOLS[0]!,
      { name: "no_object", description: "Takes a list.", inputSchema: { type: "object" } },
    ]);
    expect(runZcp(dir, ["gen", "--check"]).stderr).toContain("error ZCP1706: ");
  });
});

describe("what fails the whole listing", () => {
  const listingError = async (mode: object, tools: readonly object[] = FAKE_TOOLS) => {
    const dir = project({ server: FAKE }, mode, tools);
    const listed = await listUpstream(FAKE, { cwd: dir });
    return listed.diagnostics.map((d) => `${d.code}: ${d.message}`);
  };
  const failed = "ZCP1702: the upstream server node fake-server.mjs failed tools/list: ";

  test("a page without a tools array, or with a cursor that is not a string", async () => {
    expect(await listingError({ page: { tools: { a: 1 } } })).toEqual([
      `${failed}page 1 has no "tools" array`,
    ]);
    expect(await listingError({ page: { tools: [], nextCursor: 2 } })).toEqual([
      `${failed}page 1 has a "nextCursor" that is not a string`,
    ]);
  });

  test("a listing that does not end, or is longer than zcp gen reads", async () => {
    expect(await listingError({ endless: true })).toEqual([
      `${failed}the listing did not end within 1000 pages, the most zcp gen reads`,
    ]);
    const many = Array.from({ length: 10_001 }, (_, i) => ({
      name: `t${i}`,
      inputSchema: { type: "object" },
    }));
    expect(await listingError({ pageSize: 5000 }, many)).toEqual([
      `${failed}it lists more than 10000 tools, the most zcp gen reads`,
    ]);
  });
});
