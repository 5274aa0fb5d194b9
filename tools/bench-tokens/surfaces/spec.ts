/**
 * What names a surface of `pnpm bench:tokens`: a protocol (how the model learns and calls its
 * tools) over a catalog (which tools it is given, the same on every protocol), and what a plan
 * asks of it, a call. Catalogs: `all`, every tool of the registry (the 19 primitives and the 21
 * workflow tools of the workbench), and `primitive`, the same without the `workflow` group (an
 * MCP server that does not expose it, or a host's tool filter; a native client's
 * `excludeGroups`).
 */
import type { JsonValue } from "@zcp/runtime";

export const PROTOCOLS = ["mcp", "zcp-fc", "zcp-fc-lean", "zcp-compact"] as const;
export type Protocol = (typeof PROTOCOLS)[number];
/** The tool-search surfaces: each request lists only a search tool; what a search finds becomes callable. */
export const SEARCH_PROTOCOLS = [
  "mcp-search",
  "mcp-find-2026",
  "zcp-search",
  "zcp-search-fc",
] as const;
export type SearchProtocol = (typeof SEARCH_PROTOCOLS)[number];
/** The code-mode surfaces: each request lists one tool that runs a program against the others. */
export const CODE_PROTOCOLS = ["mcp-code", "mcp-search-execute", "zcp-code"] as const;
export type CodeProtocol = (typeof CODE_PROTOCOLS)[number];
export type AnyProtocol = Protocol | SearchProtocol | CodeProtocol;
export const isSearch = (protocol: AnyProtocol): protocol is SearchProtocol =>
  (SEARCH_PROTOCOLS as readonly string[]).includes(protocol);
export const isCode = (protocol: AnyProtocol): protocol is CodeProtocol =>
  (CODE_PROTOCOLS as readonly string[]).includes(protocol);
/** Whether the agent searches before its program: `zcp-code` from the discover view, and `mcp-search-execute`. */
export const searchesFirst = (spec: SurfaceSpec): boolean =>
  spec.discover === true || spec.protocol === "mcp-search-execute";
/** The search tool on every search surface (on MCP under its provider name `zcp_find_tools`). */
export const FIND_ALIAS = "zcp.find_tools";
export const CATALOGS = ["all", "primitive"] as const;
export type Catalog = (typeof CATALOGS)[number];
/** The groups a catalog leaves out, the same on every protocol. */
export const CATALOG_EXCLUDES: { readonly [C in Catalog]: readonly string[] } = {
  all: [],
  primitive: ["workflow"],
};

export interface SurfaceSpec {
  readonly protocol: AnyProtocol;
  readonly catalog: Catalog;
  /** zcp-code only: start from the discover view and load the API text with `zcp.find_tools` (for a large registry). */
  readonly discover?: boolean;
}

export const SURFACES: readonly SurfaceSpec[] = CATALOGS.flatMap((catalog) =>
  PROTOCOLS.map((protocol) => ({ protocol, catalog })),
);

export interface Call {
  readonly alias: string;
  readonly args: { readonly [name: string]: JsonValue };
}
