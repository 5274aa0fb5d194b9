/**
 * emit: the names of the modules generated code imports, after their files, so that a reader
 * can tell which file a line belongs to (`import * as weather from "../weather.js"`), and the
 * rule that turns any text into an identifier. (The tools' own names are the model's:
 * `toolNames`.) Names depend on the files only and are resolved deterministically when two
 * would be equal.
 */
/** Words that cannot name a binding in a strict-mode module, and globals not to shadow. */
export const RESERVED: ReadonlySet<string> = new Set([
  ...[
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
  ],
  ...[
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
  ],
  ...[
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
    "let",
    "static",
    "implements",
    "interface",
    "package",
  ],
  ...[
    "private",
    "protected",
    "public",
    "await",
    "eval",
    "arguments",
    "undefined",
    "NaN",
    "Infinity",
    "globalThis",
  ],
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
 * Namespace names for the modules `files` (paths relative to the config folder, posix), unique
 * and outside `taken`: the file's name without its extension (`src/weather.ts` → `weather`);
 * files that share one get as many of their folders as tell them apart (`src/api/tools.ts` and
 * `src/db/tools.ts` → `api_tools`, `db_tools`); a name still shared or taken (`a-b.ts` beside
 * `a_b.ts`, a file named `dispatch.ts`) gets `_2`, `_3`... in path order.
 */
export function moduleNames(
  files: readonly string[],
  taken: ReadonlySet<string>,
): Map<string, string> {
  const sorted = [...new Set(files)].sort();
  const parts = new Map(
    sorted.map((file) => [file, file.replace(/\.[cm]?[jt]sx?$/, "").split("/")]),
  );
  const depth = new Map(sorted.map((file) => [file, 1]));
  const nameOf = (file: string) => identifier(parts.get(file)!.slice(-depth.get(file)!).join("_"));
  for (let grew = true; grew;) {
    grew = false;
    const groups = new Map<string, string[]>();
    for (const file of sorted)
      groups.set(nameOf(file), [...(groups.get(nameOf(file)) ?? []), file]);
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
