/**
 * emit: the names generated code declares, after what they stand for, so that a reader (or a
 * stack trace) can tell which tool and which file a line belongs to: a tool's function and
 * constant after its alias (`weather.get_current` → `call_weather_get_current`,
 * `validate_weather_get_current`, `tool_weather_get_current`), a module namespace after its file
 * (`import * as weather from "../weather.js"`). Names depend on the tools and files only, never
 * on line numbers or hashes, and are resolved deterministically when two would be equal.
 */
import type { ToolDefinition } from "@zcp/runtime/codegen";

/** Words that cannot name a binding in a strict-mode module, and globals not to shadow. */
const RESERVED = new Set([
  ...["break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum", "export", "extends"],
  ...["false", "finally", "for", "function", "if", "import", "in", "instanceof", "new", "null", "return", "super", "switch", "this"],
  ...["throw", "true", "try", "typeof", "var", "void", "while", "with", "yield", "let", "static", "implements", "interface", "package"],
  ...["private", "protected", "public", "await", "eval", "arguments", "undefined", "NaN", "Infinity", "globalThis"],
]);

/**
 * `text` as an identifier: characters other than ASCII letters, digits and `_` become `_` (`$`
 * separates the parts of generated validator names), a leading digit gets a `_` in front, and a
 * reserved word a `_` behind.
 */
export function identifier(text: string): string {
  let name = text.replace(/[^A-Za-z0-9_]/g, "_") || "_";
  if (/^[0-9]/.test(name)) name = `_${name}`;
  return RESERVED.has(name) ? `${name}_` : name;
}

/**
 * The name part of a tool's generated identifiers, derived from its alias alone: `.` and `-`
 * become `_` (an alias starts with a letter or `_`, and every use adds a prefix, so it is always
 * a valid identifier). Two aliases that differ only there (`a-b`, `a_b`) share it: see
 * `toolNames`.
 */
export function toolBaseName(tool: ToolDefinition): string {
  return tool.alias.replace(/[^A-Za-z0-9_]/g, "_");
}

/**
 * Every tool's name part, unique among `tools`: its base name, except where tools share one.
 * Then the tool whose alias has no `-` keeps it (there is at most one: two aliases equal up to
 * `.` and `_` are a ZCP1403 collision and left out), and the others, in alias order, take
 * `<base>_2`, `<base>_3`... (skipping names in use).
 */
export function toolNames(tools: readonly ToolDefinition[]): Map<ToolDefinition, string> {
  const groups = new Map<string, ToolDefinition[]>();
  for (const tool of tools) {
    const base = toolBaseName(tool);
    const group = groups.get(base);
    if (group) group.push(tool);
    else groups.set(base, [tool]);
  }
  const names = new Map<ToolDefinition, string>();
  const used = new Set(groups.keys());
  for (const [base, group] of groups) {
    const [first, ...rest] = group.length === 1 ? group : [...group].sort(byDashThenAlias);
    names.set(first!, base);
    let n = 2;
    for (const tool of rest) {
      while (used.has(`${base}_${n}`)) n++;
      used.add(`${base}_${n}`);
      names.set(tool, `${base}_${n}`);
    }
  }
  return names;
}

function byDashThenAlias(a: ToolDefinition, b: ToolDefinition): number {
  const dash = Number(a.alias.includes("-")) - Number(b.alias.includes("-"));
  return dash || (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0);
}

/**
 * Namespace names for the modules `files` (paths relative to the config folder, posix), unique
 * and outside `taken`: the file's name without its extension (`src/weather.ts` → `weather`);
 * files that share one get as many of their folders as tell them apart (`src/api/tools.ts` and
 * `src/db/tools.ts` → `api_tools`, `db_tools`); a name still shared or taken (`a-b.ts` beside
 * `a_b.ts`, a file named `dispatch.ts`) gets `_2`, `_3`... in path order.
 */
export function moduleNames(files: readonly string[], taken: ReadonlySet<string>): Map<string, string> {
  const sorted = [...new Set(files)].sort();
  const parts = new Map(sorted.map((file) => [file, file.replace(/\.[cm]?[jt]sx?$/, "").split("/")]));
  const depth = new Map(sorted.map((file) => [file, 1]));
  const nameOf = (file: string) => identifier(parts.get(file)!.slice(-depth.get(file)!).join("_"));
  for (let grew = true; grew; ) {
    grew = false;
    const groups = new Map<string, string[]>();
    for (const file of sorted) groups.set(nameOf(file), [...(groups.get(nameOf(file)) ?? []), file]);
    for (const group of groups.values()) {
      if (group.length < 2) continue;
      for (const file of group) {
        if (depth.get(file)! >= parts.get(file)!.length) continue;
        depth.set(file, depth.get(file)! + 1);
        grew = true;
      }
    }
  }
  const names = new Map<string, string>();
  const used = new Set(taken);
  const wanted = sorted.map(nameOf);
  // Names nobody else wants first, so that numbering one file never takes another's own name.
  const counts = new Map<string, number>();
  for (const name of wanted) counts.set(name, (counts.get(name) ?? 0) + 1);
  sorted.forEach((file, i) => {
    const name = wanted[i]!;
    if (counts.get(name) === 1 && !used.has(name)) {
      names.set(file, name);
      used.add(name);
    }
  });
  sorted.forEach((file, i) => {
    if (names.has(file)) return;
    const name = wanted[i]!;
    let free = used.has(name) ? `${name}_2` : name;
    for (let n = 3; used.has(free); n++) free = `${name}_${n}`;
    names.set(file, free);
    used.add(free);
  });
  return names;
}
