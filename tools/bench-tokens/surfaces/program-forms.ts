import { providerName } from "@zcp/runtime/definition";
import { EXECUTE_FORM } from "./search-execute.ts";
import type { CodeProtocol } from "./spec.ts";

/**
 * How a program (programs.ts) is written on each code surface: the tool it is sent to, the
 * expression that calls a tool, and the code the tool takes. On `mcp-code` that is Cloudflare's
 * form: an async arrow function calling `codemode.<name>`, the name being the MCP tool's as
 * `@cloudflare/codemode` writes it (dots, dashes and spaces as `_`); on `zcp-code` the body of
 * an async function calling `tools.<alias>`, as `zcp.run` takes it.
 */
export const PROGRAM_FORMS: {
  readonly [P in CodeProtocol]: {
    readonly tool: string;
    readonly name: (alias: string) => string;
    readonly code: (body: string) => string;
  };
} = {
  "mcp-code": {
    tool: "code",
    name: (alias) => `codemode.${providerName(alias).replace(/-/g, "_")}`,
    code: (body) => `async () => {\n${body}\n}`,
  },
  "mcp-search-execute": EXECUTE_FORM,
  "zcp-code": { tool: "zcp.run", name: (alias) => `tools.${alias}`, code: (body) => body },
};
