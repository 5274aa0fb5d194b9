/**
 * The borders borders.ts keeps: for each package with a table, the rooms of its `src/` and what
 * each may import. A room is a folder (`extract/`) or a file (`pipeline.ts`) under `src/`; a file
 * belongs to the longest room that holds it, may import its own room freely, and may import
 * another room only if that room, or the one file of it named (`native/http.ts`), is listed. A
 * file in no room fails the check: a new top-level entry is placed here when it is made. The
 * rooms form an order (borders.ts fails on a loop between them), so each table reads from the
 * bottom up.
 */

/** A package's rooms, each with the rooms (or single files of rooms) it may import. */
export type Rooms = { readonly [room: string]: readonly string[] };

/** Rooms in an order, lowest first: each may import every room before it and none after. */
export function order(...rooms: readonly string[]): Rooms {
  return Object.fromEntries(rooms.map((room, at) => [room, rooms.slice(0, at)]));
}

export const ROOMS: { readonly [pkg: string]: Rooms } = {
  // The generator in pipeline order: each stage hands its output to the next, and reads
  // nothing a later stage makes.
  gen: order(
    "diagnostics.ts", // the diagnostic type and codes every stage reports with
    "pattern.ts", // whether a `@pattern` (or an upstream's `pattern`) is a regular expression zcp runs
    "upstream/server.ts", // an upstream server's settings, and how `--from-mcp` names one:
    "upstream/options.ts", // part of the config, kept beside the gateway code that uses them
    "config.ts",
    "scan/", // the project's files and the functions marked as tools
    "extract/", // each tool's signature and doc comment
    "model/", // the tool definitions
    "compile/", // validators and provider artifacts
    "compose/", // other packages' registries, composed into this one's
    "upstream/", // a gateway's upstream tools, checked with compile's validators
    "emit/", // the generated files' text
    "write/", // the files on disk, and the previous run's removed
    "diff/", // `zcp diff`: two registries compared
    "memo.ts", // what a watch run keeps between runs
    "pipeline.ts", // one run of the stages
    "cli/",
    "bin/",
    "index.ts",
  ),
  // The server's surfaces: the MCP and the native protocol are rooms that never see each other,
  // on shared plumbing that sees neither; fetch.ts joins them and node/ adapts it to node:http.
  server: {
    "limits.ts": [],
    "budget.ts": ["limits.ts"],
    "http/": [], // request bodies, drain, guards: shared by every HTTP surface
    "stdio/": [], // line framing, shared by the stdio surfaces and the gateway's children
    "isolation/": [], // the code-mode worker executor
    "mcp/": ["budget.ts", "http/", "stdio/"],
    "native/": ["budget.ts", "http/", "limits.ts", "stdio/"],
    "fetch.ts": ["budget.ts", "http/", "limits.ts", "mcp/", "native/"],
    // node:http around fetch.ts's handler, or the native surface's handler alone.
    "node/": ["fetch.ts", "http/", "limits.ts", "native/http.ts"],
    "gateway/": ["stdio/"],
    "cli/": ["budget.ts", "gateway/", "http/", "isolation/", "mcp/", "native/", "node/"],
    "bin/": ["cli/"],
    "index.ts": ["cli/", "fetch.ts", "isolation/", "mcp/", "native/"],
  },
  // The runtime: one room per job, each on the rooms below it (src/index.ts draws the same).
  runtime: order(
    "version.ts", // a constant
    "definition/", // the registry format and what derives from a definition alone
    "codegen/", // what generated files import, and the symbol table gen writes imports from
    "results/", // what a call answers
    "wire/", // the native protocol's wire types
    "handles/", // the handle store, its storage and operations
    "encoding/", // results as a model reads them
    "features/", // prompts, resources and resource templates
    "session/", // sessions and the call pipeline
    "builtins/", // the built-in tools and their table
    "runtime.ts", // createRuntime: the built-ins wired into sessions
    "index.ts",
  ),
};
