/**
 * diff: the rules on one tool present in both registries. Each is a small pure function of the
 * old and the new definition with a stable rule id; schemas are compared by `schema.ts`, inputs
 * as the arguments callers send (narrowing breaks) and outputs as what consumers read (widening
 * breaks).
 */
import type { JsonSchema, ToolDefinition } from "@zcp/runtime/definition";
import { compareSchema } from "./schema.js";

/** One difference between two registries. */
export interface Change {
  /** The tool's alias (the new one for a renamed tool). */
  readonly tool: string;
  readonly rule: string;
  readonly breaking: boolean;
  readonly detail: string;
  /** Dotted path into the tool definition, e.g. `inputSchema.properties.city`. */
  readonly path: string;
}

type Rule = (old: ToolDefinition, now: ToolDefinition) => Change[];

const change = (
  tool: ToolDefinition,
  rule: string,
  breaking: boolean,
  detail: string,
  path: string,
): Change => ({ tool: tool.alias, rule, breaking, detail, path });

const inputSchema: Rule = (old, now) =>
  compareSchema(old.inputSchema, now.inputSchema, "inputSchema").map((f) =>
    change(now, f.rule, f.effect.input, f.detail, f.path),
  );

const outputSchema: Rule = (old, now) => {
  if (old.outputSchema === null && now.outputSchema === null) return [];
  if (old.outputSchema === null)
    return [
      change(now, "output-schema-added", false, "the tool now returns a value", "outputSchema"),
    ];
  if (now.outputSchema === null)
    return [
      change(
        now,
        "output-schema-removed",
        true,
        "the tool no longer returns a value",
        "outputSchema",
      ),
    ];
  return compareSchema(old.outputSchema, now.outputSchema as JsonSchema, "outputSchema").map((f) =>
    change(now, f.rule, f.effect.output, f.detail, f.path),
  );
};

const outputMode: Rule = (old, now) =>
  old.outputMode === now.outputMode
    ? []
    : [
        change(
          now,
          "output-mode-changed",
          true,
          `output mode ${old.outputMode} -> ${now.outputMode}`,
          "outputMode",
        ),
      ];

const handleKind: Rule = (old, now) =>
  old.handleKind === now.handleKind
    ? []
    : [
        change(
          now,
          "handle-kind-changed",
          true,
          `handle kind "${old.handleKind}" -> "${now.handleKind}"`,
          "handleKind",
        ),
      ];

/** A parameter's expected handle kind changed, or a parameter became or stopped being a handle. */
const handleParams: Rule = (old, now) => {
  const names = [...new Set([...Object.keys(old.handleParams), ...Object.keys(now.handleParams)])];
  // A parameter removed is reported once, by the input schema's rules.
  const params = (now.inputSchema["properties"] ?? {}) as Record<string, unknown>;
  return names
    .sort()
    .filter((name) => old.handleParams[name] !== now.handleParams[name] && name in params)
    .map((name) =>
      change(
        now,
        "handle-param-changed",
        true,
        `parameter "${name}" handle kind ${JSON.stringify(old.handleParams[name] ?? null)} -> ${JSON.stringify(now.handleParams[name] ?? null)}`,
        `handleParams.${name}`,
      ),
    );
};

const scopes: Rule = (old, now) => [
  ...now.scopes
    .filter((s) => !old.scopes.includes(s))
    .map((s) => change(now, "scope-added", true, `scope "${s}" added`, "scopes")),
  ...old.scopes
    .filter((s) => !now.scopes.includes(s))
    .map((s) => change(now, "scope-removed", false, `scope "${s}" removed`, "scopes")),
];

const approval: Rule = (old, now) => {
  const before = old.flags.includes("approval");
  const after = now.flags.includes("approval");
  if (before === after) return [];
  return after
    ? [change(now, "approval-added", true, "the tool now needs approval", "flags")]
    : [change(now, "approval-removed", false, "the tool no longer needs approval", "flags")];
};

/** The other flags (readonly, idempotent, destructive) are hints: information. */
const flags: Rule = (old, now) => {
  const before = old.flags.filter((f) => f !== "approval");
  const after = now.flags.filter((f) => f !== "approval");
  return [
    ...after
      .filter((f) => !before.includes(f))
      .map((f) => change(now, "flag-added", false, `flag "${f}" added`, "flags")),
    ...before
      .filter((f) => !after.includes(f))
      .map((f) => change(now, "flag-removed", false, `flag "${f}" removed`, "flags")),
  ];
};

/** The provider name is what a provider's tool call names. */
const providerName: Rule = (old, now) =>
  old.name === now.name
    ? []
    : [change(now, "provider-name-changed", true, `name "${old.name}" -> "${now.name}"`, "name")];

const info =
  (key: "title" | "description" | "deprecated" | "groups" | "stages", rule: string): Rule =>
  (old, now) =>
    JSON.stringify(old[key]) === JSON.stringify(now[key])
      ? []
      : [
          change(
            now,
            rule,
            false,
            `${key} ${JSON.stringify(old[key])} -> ${JSON.stringify(now[key])}`,
            key,
          ),
        ];

/** The rules on a tool present in both registries, in reporting order. */
export const TOOL_RULES: readonly Rule[] = [
  providerName,
  outputMode,
  handleKind,
  handleParams,
  scopes,
  approval,
  inputSchema,
  outputSchema,
  flags,
  info("title", "title-changed"),
  info("description", "description-changed"),
  info("deprecated", "deprecated-changed"),
  info("groups", "groups-changed"),
  info("stages", "stages-changed"),
];
