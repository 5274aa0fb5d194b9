/**
 * What the diagnostics tests share: the fixture and its golden stderr, the JSON reporter's shapes,
 * the parser of a text report, and a one-tool source for scratch projects.
 */
import path from "node:path";
import { expect } from "vitest";
import { FIXTURES, generatedRegistry } from "../helpers.js";

export const DIR = path.join(FIXTURES, "diagnostics");
export const GOLDEN_FILE = path.join(DIR, "expected-diagnostics.txt");

export interface JsonDiagnostic {
  severity: "error" | "warning";
  code: string;
  message: string;
  file: string | null;
  line: number;
  column: number;
}

export interface JsonReport {
  ok: boolean;
  tools: number;
  hash: string | null;
  diagnostics: JsonDiagnostic[];
  check?: { stale: string[]; missing: string[]; extra: string[] };
  written?: string[];
  removed?: string[];
  cached: boolean;
}

/** The diagnostics of a text report on stderr (`where - severity CODE: message` lines). */
export function parseText(stderr: string): JsonDiagnostic[] {
  return stderr
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const match = /^(?:zcp|(.+):(\d+):(\d+)) - (error|warning) (ZCP\d{4}): (.+)$/.exec(line);
      expect(match, `a diagnostic line: ${line}`).not.toBeNull();
      const [, file, line_, column, severity, code, message] = match!;
      return {
        severity: severity as JsonDiagnostic["severity"],
        code: code!,
        message: message!,
        file: file ?? null,
        line: Number(line_ ?? 0),
        column: Number(column ?? 0),
      };
    });
}

export const TOOL = (alias: string, name: string) => `/**
 * The ${name} tool.
 *
 * @tool ${alias}
 */
export function ${name}(value: string): string {
  return value;
}
`;

export function registryAliases(dir: string): string[] {
  const registry = generatedRegistry(path.join(dir, "src/zcp.gen"));
  return registry.tools.map((tool) => tool.alias);
}
