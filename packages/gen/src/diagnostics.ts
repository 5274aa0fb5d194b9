/**
 * Diagnostics: stable codes, one shape for every stage, and the two reporters (text, JSON).
 * The codes are documented in packages/gen/README.md; never renumber one.
 */
import path from "node:path";

export type Severity = "error" | "warning";

export const CODES = {
  ZCP1001: "configuration is missing or invalid",
  ZCP1002: "tsconfig cannot be read",
  ZCP1003: "include globs match no files",
  ZCP1004: "no tools found",
  ZCP1005: "generated ES modules would be compiled as CommonJS",
  ZCP1101: "source file does not parse",
  ZCP1102: "@tool is not on an exported function",
  ZCP1201: "function-typed value where JSON is expected",
  ZCP1202: "type is not representable as JSON",
  ZCP1203: "type cannot be resolved",
  ZCP1204: "parameter has no precise type",
  ZCP1205: "unsupported parameter form",
  ZCP1206: "Handle or ToolContext in a nested position",
  ZCP1207: "return type is not representable as JSON: no output schema",
  ZCP1208: "part of a type is not represented in the schema",
  ZCP1301: "invalid tag value",
  ZCP1302: "constraint tag does not apply to the type",
  ZCP1303: "@param names no parameter",
  ZCP1304: "default value is not a literal",
  ZCP1305: "tool has no description",
  ZCP1401: "duplicate tool id",
  ZCP1402: "duplicate tool alias",
  ZCP1403: "aliases collide as provider names",
  ZCP1404: "alias or id reserved for the runtime's built-in tools",
  ZCP1501: "OpenAI strict mode cannot express the tool",
  ZCP1502: "the tool's OpenAI schema exceeds the provider's limits",
  ZCP1503: "Gemini cannot declare the tool",
} as const;

export type Code = keyof typeof CODES;

export interface Diagnostic {
  readonly severity: Severity;
  readonly code: Code;
  readonly message: string;
  /** Absolute path, or null for diagnostics about the run as a whole. */
  readonly file: string | null;
  /** 1-based; 0 when there is no position. */
  readonly line: number;
  readonly column: number;
}

export function diagnostic(
  severity: Severity,
  code: Code,
  message: string,
  at?: { file: string; line: number; column: number },
): Diagnostic {
  return {
    severity,
    code,
    message,
    file: at?.file ?? null,
    line: at?.line ?? 0,
    column: at?.column ?? 0,
  };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/**
 * Errors about the run as a whole (configuration, tsconfig, no source files): the output would
 * be a guess, so nothing is written. Errors in single tools only leave those tools out.
 */
export function hasRunErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error" && d.code.startsWith("ZCP10"));
}

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    (a.file ?? "").localeCompare(b.file ?? "") ||
    a.line - b.line ||
    a.column - b.column ||
    a.code.localeCompare(b.code) ||
    a.message.localeCompare(b.message)
  );
}

/** `path:line:col - error ZCP1001: message`, with the path relative to `cwd`. */
export function formatDiagnostic(d: Diagnostic, cwd: string): string {
  const where = d.file === null ? "zcp" : `${relativePath(cwd, d.file)}:${d.line}:${d.column}`;
  return `${where} - ${d.severity} ${d.code}: ${d.message}`;
}

export function diagnosticToJson(d: Diagnostic, cwd: string) {
  return {
    severity: d.severity,
    code: d.code,
    message: d.message,
    file: d.file === null ? null : relativePath(cwd, d.file),
    line: d.line,
    column: d.column,
  };
}

/** Posix-style relative path, the form used in every output. */
export function relativePath(from: string, to: string): string {
  return path.relative(from, to).split(path.sep).join("/") || ".";
}
